// npm run bench [-- --members N] [-- --only name,name] [-- --duration S]
// Builds if needed, seeds a bench database (demo world + a scale guild of N members, default 100,000; reused
// across runs), starts Guildhall and a bare node:http + better-sqlite3 baseline in their own processes on free
// ports, runs every scenario on 127.0.0.1 and prints one table. Figures are measured, not asserted.
// Then the long fuzz pass (bench/fuzz.ts, FUZZ_RUNS requests per operation, its own database): its request and failure
// counts. `-- --only fuzz` runs the fuzz pass alone; `-- --no-fuzz` skips it. Last, the gateway pass
// (bench/gateway/run.ts, its own database and processes); `-- --only gateway` alone, `-- --no-gateway` skips it.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { scenarios } from "./scenarios";
import type { BenchContext } from "./context";
import { measureLoad, type LoadResult } from "./load";
import { freePort, startProcess, stop } from "./processes";

const args = process.argv.slice(2);
const argValue = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const members = Number(argValue("--members") ?? 100_000);
const duration = Number(argValue("--duration") ?? 5);
const only = argValue("--only")?.split(",");

const benchDb = path.resolve(process.env.BENCH_DATABASE_FILE ?? path.join(".data", `bench-${members}.db`));
process.env.DATABASE_URL = `file:${benchDb}`;
process.env.PUBLIC_URL ??= "http://localhost:3000";

const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function main(): Promise<void> {
  const { seed } = await import("../scripts/seed");
  const { buildIfNeeded } = await import("../scripts/build-if-needed");
  console.log(`Bench database ${benchDb} (scale guild: ${fmt(members)} members)`);
  seed({ members, quiet: false });
  buildIfNeeded();

  const appPort = await freePort();
  const app = await startProcess(
    "node_modules/.bin/tsx",
    ["server.ts"],
    {
      PORT: String(appPort),
      HOST: "127.0.0.1",
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      PUBLIC_URL: `http://localhost:${appPort}`,
      // Throughput scenarios measure the API, not Discord's per-token limits (bench/abuse measures those).
      RATE_LIMITS: "off",
    },
    /ready on http:\/\/127\.0\.0\.1:(\d+)/,
  );
  const baseline = await startProcess(
    "node_modules/.bin/tsx",
    ["bench/baseline-server.ts"],
    { BENCH_DB: benchDb, PORT: "0" },
    /listening (\d+)/,
  );
  try {
    const ctx: BenchContext = await (
      await import("./context")
    ).createBenchContext(`http://127.0.0.1:${app.port}`, `http://127.0.0.1:${baseline.port}`);
    console.log(
      `Guildhall on :${app.port}, baseline on :${baseline.port}; ${duration}s per scenario after a warm-up.\n`,
    );
    const floor = await measureLoad({ url: `${ctx.baselineUrl}/api/v10/guilds/${ctx.scaleGuildId}`, duration });
    const rows: Array<[string, string, string, string, string, string]> = [];
    const row = (name: string, result: LoadResult, target?: string) =>
      rows.push([
        name,
        fmt(result.requestsPerSecond),
        fmt(result.p50, 2),
        fmt(result.p99, 2),
        `${fmt(result.requestsPerSecond / floor.requestsPerSecond, 2)}×`,
        target ?? "",
      ]);
    row("baseline: node:http + better-sqlite3 PK lookup", floor);
    for (const scenario of scenarios) {
      if (only && !only.some((filter) => scenario.name.includes(filter))) continue;
      try {
        const result = await scenario.run(ctx, duration);
        row(scenario.name, result, scenario.target);
      } catch (error) {
        rows.push([
          scenario.name,
          "error",
          "",
          "",
          "",
          `${scenario.target ?? ""} (${String((error as Error).message).slice(0, 50)})`,
        ]);
      }
    }
    const header: [string, string, string, string, string, string] = [
      "scenario",
      "req/s",
      "p50 ms",
      "p99 ms",
      "vs baseline",
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

main().then(
  () => {
    if (!args.includes("--no-fuzz") && (!only || only.includes("fuzz"))) runFuzzPass();
    if (!args.includes("--no-gateway") && (!only || only.includes("gateway"))) runGatewayPass();
    process.exit(0);
  },
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
