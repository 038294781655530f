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

/** Milliseconds of CPU: every core's busy time, and each part's (processes `partOf` names; the rest is "other"). */
export function machineCpuMs(partOf: (process: ProcessStat) => string | undefined): Record<string, number> {
  const msPerTick = 1000 / 100; // USER_HZ, 100 on Linux
  // "cpu  user nice system idle iowait irq softirq steal …": busy is everything but idle and iowait.
  const times = fs.readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
  const busy = times.reduce((sum, n) => sum + n, 0) - times[3] - times[4];
  const parts: Record<string, number> = { machine: busy * msPerTick };
  let named = 0;
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
    if (!part) continue;
    const ms = (Number(fields[11]) + Number(fields[12])) * msPerTick;
    parts[part] = (parts[part] ?? 0) + ms;
    named += ms;
  }
  // Processes that ended took their time with them; what is not named (or ended) is the rest of the machine.
  parts.other = Math.max(0, parts.machine - named);
  return parts;
}

/** Each part's share of one core (%) between two readings `seconds` apart. */
export function cpuShares(
  before: Record<string, number>,
  after: Record<string, number>,
  seconds: number,
): Record<string, number> {
  const shares: Record<string, number> = {};
  for (const part of Object.keys(after))
    shares[part] = Math.max(0, (after[part] - (before[part] ?? 0)) / (seconds * 10));
  return shares;
}
