// How fast this machine is right now, independent of Guildhall: a helper process repeats two fixed pieces of work
// every two seconds and records the CPU time each took: integer arithmetic (the core's speed) and a walk through a
// 32 MB random cycle (memory: every step misses the caches, as a neighbour's traffic or a busy host makes worse).
// Neither allocates or grows, so their times only move when the machine does: a neighbour on the host, a slower
// clock, a hypervisor taking the core (a guest without a steal clock counts that as the process's own time). A long
// bench prints them per window beside its own figures: a server that got slower while the probe did not got slower
// by itself. (Work that allocates, JSON say, varied 10–35 ms here with nothing else running: the collector's
// timing, not the machine's.)
import { helperProcess } from "./processes";

/** The probe's samples since the previous reading: each fixed work's CPU time, ms. */
export interface SpeedSamples {
  computeMs: number[];
  memoryMs: number[];
}

const EVERY_MS = 2_000;

/** About 12 ms here: a multiply-add chain the JIT cannot fold away. */
function compute(): number {
  let sum = 1;
  for (let i = 0; i < 10_000_000; i++) sum = (sum * 31 + i) | 0;
  return sum;
}

/** A single random cycle through 8 Mi slots (Sattolo's shuffle, a fixed seed): each step a cache and TLB miss. */
function randomCycle(): Int32Array {
  const slots = new Int32Array(8 * 1024 * 1024);
  for (let i = 0; i < slots.length; i++) slots[i] = i;
  let seed = 12_345;
  for (let i = slots.length - 1; i > 0; i--) {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    const j = (seed >>> 0) % i;
    [slots[i], slots[j]] = [slots[j], slots[i]];
  }
  return slots;
}

/**
 * About 11 ms here: the next 60,000 dependent loads along the cycle, from where the last walk stopped (the same
 * slots every time could stay in a large cache between samples).
 */
let walkedTo = 0;
function walk(cycle: Int32Array): number {
  for (let i = 0; i < 60_000; i++) walkedTo = cycle[walkedTo];
  return walkedTo;
}

/** Starts the probe in a process of its own; `take` answers the samples since the previous `take`. */
export async function startSpeedProbe() {
  const probe = await helperProcess("bench/machine-speed.ts");
  return {
    take: async () => (await probe.ask({ cmd: "take" })) as unknown as SpeedSamples,
    stop: () => probe.child.kill(),
  };
}

/** The middle of some numbers (NaN for none). */
export function median(values: readonly number[]): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

if (process.send && process.argv[1]?.endsWith("machine-speed.ts")) {
  const cycle = randomCycle();
  let samples: SpeedSamples = { computeMs: [], memoryMs: [] };
  let sink = 0;
  const cpuMsOf = (work: () => number) => {
    const before = process.cpuUsage();
    sink ^= work();
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000;
  };
  setInterval(() => {
    samples.computeMs.push(cpuMsOf(compute));
    samples.memoryMs.push(cpuMsOf(() => walk(cycle)));
  }, EVERY_MS);
  process.on("message", () => {
    process.send!({ ...samples, sink });
    samples = { computeMs: [], memoryMs: [] };
  });
  // A bench that ended without stopping it (killed, crashed) leaves no probe running to skew the next one.
  process.on("disconnect", () => process.exit(0));
  process.send({ started: true });
}
