// npm run bench [-- --members N] [-- --only name,name] [-- --duration S]
// Builds if needed, seeds a bench database (demo world + a scale guild of N members, default 100,000; reused
// across runs), starts Guildhall and the machine's limit (bare node:http answering a primary-key lookup of a stored
// 1 KB JSON text from SQLite, bench/baseline-server.ts) in their own processes on free ports, runs every scenario on
// 127.0.0.1 and prints one table. The limit is measured before the first scenario and after each one (the machine is
// shared, so it drifts); each ratio is to the mean of the two measurements around its scenario. Figures are measured,
// not asserted.
// Then the long fuzz pass (bench/fuzz.ts, FUZZ_RUNS requests per operation, its own database): its request and failure
// counts. `-- --only fuzz` runs the fuzz pass alone; `-- --no-fuzz` skips it. Then the gateway pass
// (bench/gateway/run.ts, its own database and processes); `-- --only gateway` alone, `-- --no-gateway` skips it.
// Last, where PostgreSQL's server is installed, the PostgreSQL pass (bench/postgresql.ts: the same scenarios on both
// engines in one table, with the same --members and --duration); `-- --only postgresql` alone, `-- --no-postgresql`
// skips it.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { scenarios } from "./scenarios";
import type { BenchContext } from "./context";
import { measureLoad, type LoadResult } from "./load";
import { startProcess, stop } from "./processes";
import { argValue, fmt, hasFlag, prepareBench, startGuildhall, openBenchDatabase } from "./setup";
import { postgresBinDir } from "../tests/postgres/cluster";

const members = Number(argValue("--members") ?? 100_000);
const duration = Number(argValue("--duration") ?? 5);
const only = argValue("--only")?.split(",");

const benchDb = openBenchDatabase(members);
process.env.PUBLIC_URL ??= "http://localhost:3000";

async function main(): Promise<void> {
  await prepareBench(benchDb, members, true);
  // Throughput and speed, not Discord's per-token limits (bench/abuse measures those).
  const app = await startGuildhall("localhost", { RATE_LIMITS: "off" });
  const baseline = await startProcess(
    "node_modules/.bin/tsx",
    ["bench/baseline-server.ts"],
    { BENCH_DB: benchDb, BENCH_BASELINE_DB: benchDb.replace(/\.db$/, "") + "-baseline.db", PORT: "0" },
    /listening (\d+)/,
  );
  try {
    const ctx: BenchContext = await (
      await import("./context")
    ).createBenchContext(`http://127.0.0.1:${app.port}`, `http://127.0.0.1:${baseline.port}`);
    console.log(
      `Guildhall on :${app.port}, baseline on :${baseline.port}; ${duration}s per scenario after a warm-up.\n`,
    );
    // The machine is shared, so the limit drifts: it is measured before the first scenario and again after each one,
    // and a scenario's ratio is to the mean of the two measurements around it.
    const measureLimit = () => measureLoad({ url: `${ctx.baselineUrl}/api/v10/guilds/${ctx.scaleGuildId}`, duration });
    const limits: LoadResult[] = [await measureLimit()];
    const measured: Array<{ name: string; result: LoadResult | Error; target?: string; limit: number }> = [];
    for (const scenario of scenarios) {
      if (only && !only.some((filter) => scenario.name.includes(filter))) continue;
      let result: LoadResult | Error;
      try {
        result = await scenario.run(ctx, duration);
      } catch (error) {
        result = error as Error;
      }
      const before = limits[limits.length - 1];
      const after = await measureLimit();
      limits.push(after);
      measured.push({
        name: scenario.name,
        result,
        target: scenario.target,
        limit: (before.requestsPerSecond + after.requestsPerSecond) / 2,
      });
    }
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const limitRates = limits.map((l) => l.requestsPerSecond);

    const rows: Array<[string, string, string, string, string, string]> = [];
    const row = (name: string, result: LoadResult, limit: number, target?: string) =>
      rows.push([
        name,
        fmt(result.requestsPerSecond),
        fmt(result.p50, 2),
        fmt(result.p99, 2),
        `${fmt(result.requestsPerSecond / limit, 2)}×`,
        target ?? "",
      ]);
    row(
      `limit: node:http + SQLite PK lookup of a stored 1 KB JSON (mean of ${limits.length}: ${fmt(Math.min(...limitRates))}–${fmt(Math.max(...limitRates))})`,
      {
        requestsPerSecond: mean(limitRates),
        p50: mean(limits.map((l) => l.p50)),
        p99: mean(limits.map((l) => l.p99)),
      },
      mean(limitRates),
    );
    for (const { name, result, target, limit } of measured) {
      if (result instanceof Error)
        rows.push([name, "error", "", "", "", `${target ?? ""} (${result.message.slice(0, 50)})`]);
      else row(name, result, limit, target);
    }
    const header: [string, string, string, string, string, string] = [
      "scenario",
      "req/s",
      "p50 ms",
      "p99 ms",
      "vs limit (around it)",
      "target",
    ];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (cells: string[]) =>
      cells.map((c, i) => (i === 0 || i === 5 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
    console.log(line(header));
    console.log(widths.map((w) => "-".repeat(w)).join("  "));
    for (const r of rows) console.log(line(r));
    fs.mkdirSync("bench/results", { recursive: true });
    fs.writeFileSync(
      path.join("bench/results", `bench-${new Date().toISOString().replace(/[:.]/g, "-")}.json`),
      JSON.stringify({ members, duration, rows }, null, 2),
    );
  } finally {
    stop(app.child);
    stop(baseline.child);
  }
}

/** The fuzz pass in its own process: it sets DATABASE_URL to its own seeded copy and must not share this one's. */
function runFuzzPass(): boolean {
  console.log("\nFuzz pass (bench/fuzz.ts):");
  const result = spawnSync("node_modules/.bin/tsx", ["bench/fuzz.ts"], { stdio: "inherit", env: process.env });
  return result.status === 0;
}

/** The gateway's figures in their own processes (bench/gateway/run.ts). */
function runGatewayPass(): boolean {
  console.log("\nGateway pass (bench/gateway/run.ts):");
  const result = spawnSync("node_modules/.bin/tsx", ["--conditions=react-server", "bench/gateway/run.ts"], {
    stdio: "inherit",
    env: process.env,
  });
  return result.status === 0;
}

/** SQLite against PostgreSQL, scenario by scenario (bench/postgresql.ts), where PostgreSQL's server is installed. */
function runPostgresqlPass(): boolean {
  console.log("\nPostgreSQL pass (bench/postgresql.ts):");
  try {
    postgresBinDir();
  } catch (error) {
    console.log(`  skipped: ${(error as Error).message}`);
    return true;
  }
  const result = spawnSync(
    "node_modules/.bin/tsx",
    ["--conditions=react-server", "bench/postgresql.ts", "--members", String(members), "--duration", String(duration)],
    { stdio: "inherit", env: process.env },
  );
  return result.status === 0;
}

main().then(
  () => {
    if (!hasFlag("--no-fuzz") && (!only || only.includes("fuzz"))) runFuzzPass();
    if (!hasFlag("--no-gateway") && (!only || only.includes("gateway"))) runGatewayPass();
    if (!hasFlag("--no-postgresql") && (!only || only.includes("postgresql"))) runPostgresqlPass();
    process.exit(0);
  },
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
