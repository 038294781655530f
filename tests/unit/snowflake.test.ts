import { spawnSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { newSnowflake, snowflakeTimestamp } from "@/lib/discord/snowflake";

const instanceOf = (id: bigint) => (id >> 12n) & 1023n;

describe("newSnowflake", () => {
  it("stays unique and increasing past 4,096 ids in one millisecond, borrowing the next millisecond", () => {
    const now = Date.UTC(2030, 0, 1);
    const ids = Array.from({ length: 10_000 }, () => newSnowflake(now));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id, i) => i === 0 || id > ids[i - 1])).toBe(true);
    expect(snowflakeTimestamp(ids[0])).toBe(now);
    expect(snowflakeTimestamp(ids[ids.length - 1])).toBe(now + 2);
  });

  it("never goes back when the clock does", () => {
    const later = newSnowflake(Date.UTC(2031, 0, 1));
    expect(newSnowflake(Date.UTC(2030, 0, 1))).toBeGreaterThan(later);
  });

  it("carries one instance's bits in every id of a process", () => {
    const ids = [newSnowflake(), newSnowflake(Date.now() + 5)];
    expect(instanceOf(ids[0])).toBe(instanceOf(ids[1]));
  });

  // Each case runs in a fresh process, because a process draws its instance bits once. A tsx process takes about half
  // a second to start, several seconds on a loaded machine: these cases get more than the default 5 s.
  const SPAWNING = { timeout: 60_000 };
  const moduleUrl = pathToFileURL(path.resolve("lib/discord/snowflake.ts")).href;
  const idInProcess = (instanceId: string | undefined) => {
    const run = spawnSync(
      process.execPath,
      [
        "--import",
        "tsx",
        "-e",
        `import(${JSON.stringify(moduleUrl)}).then((m) => console.log(String((m.newSnowflake ?? m.default.newSnowflake)())))`,
      ],
      { env: { ...process.env, GUILDHALL_INSTANCE_ID: instanceId ?? "" }, encoding: "utf8" },
    );
    return { id: run.stdout.trim() ? BigInt(run.stdout.trim()) : null, stderr: run.stderr, status: run.status };
  };

  it("takes its instance bits from GUILDHALL_INSTANCE_ID, and refuses a value outside 0–1023", SPAWNING, () => {
    const configured = idInProcess("1000");
    expect(configured.status).toBe(0);
    expect(instanceOf(configured.id!)).toBe(1000n);
    const refused = idInProcess("1024");
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain("GUILDHALL_INSTANCE_ID must be an integer from 0 to 1023");
  });

  it("draws different instance bits in different processes when none is configured", SPAWNING, () => {
    const drawn = new Set(Array.from({ length: 6 }, () => instanceOf(idInProcess(undefined).id!)));
    // Six draws of 1,024 values: all six the same has probability 1 in 1,024^5.
    expect(drawn.size).toBeGreaterThan(1);
  });
});
