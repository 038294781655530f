// Where this machine's CPU went, read from /proc (Linux only, as the benches are): the busy time of all cores, and the
// time of each process sorted into named parts by the caller (the server, Chromium, the load generator, …). A long
// bench compares windows: a tail that grows while the server's own CPU does not is somebody else's doing.
import fs from "node:fs";

/** A process as /proc/<pid>/stat shows it. */
export interface ProcessStat {
  pid: number;
  /** The executable's name, at most 15 characters. */
  comm: string;
  pgrp: number;
}

/** CPU used so far, in milliseconds: every core's busy time, and each named process's with the part it belongs to. */
export interface CpuReading {
  machineMs: number;
  processes: Map<number, { part: string; ms: number }>;
}

export function readMachineCpu(partOf: (process: ProcessStat) => string | undefined): CpuReading {
  const msPerTick = 1000 / 100; // USER_HZ, 100 on Linux
  // "cpu  user nice system idle iowait irq softirq steal guest guest_nice": guest time is counted in user and nice
  // already; busy is the first eight but idle and iowait.
  const times = fs.readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1, 9).map(Number);
  const busy = times.reduce((sum, n) => sum + n, 0) - times[3] - times[4];
  const processes = new Map<number, { part: string; ms: number }>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // ended meanwhile
    }
    const close = stat.lastIndexOf(")");
    const comm = stat.slice(stat.indexOf("(") + 1, close);
    // After the closing parenthesis: state, ppid, pgrp, …; utime and stime are fields 14 and 15.
    const fields = stat.slice(close + 2).split(" ");
    const part = partOf({ pid: Number(entry), comm, pgrp: Number(fields[2]) });
    if (part) processes.set(Number(entry), { part, ms: (Number(fields[11]) + Number(fields[12])) * msPerTick });
  }
  return { machineMs: busy * msPerTick, processes };
}

/**
 * Each part's share of one core (%) between two readings `seconds` apart, process by process (one that ended between
 * them is not counted, one that started counts from its start); "machine" is every core's busy time, "other" what no
 * named process used of it.
 */
export function cpuShares(before: CpuReading, after: CpuReading, seconds: number): Record<string, number> {
  const percent = (ms: number) => ms / (seconds * 10);
  const shares: Record<string, number> = {};
  let named = 0;
  for (const [pid, { part, ms }] of after.processes) {
    const used = ms - (before.processes.get(pid)?.ms ?? 0);
    shares[part] = (shares[part] ?? 0) + percent(used);
    named += used;
  }
  const machine = after.machineMs - before.machineMs;
  return { ...shares, machine: percent(machine), other: percent(Math.max(0, machine - named)) };
}
