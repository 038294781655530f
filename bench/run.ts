// npm run bench [-- --members N] [-- --only name,name] [-- --duration S] [-- --fresh]
// Builds if needed, seeds a bench database (demo world + a scale guild of N members, default 100,000; reused
// across runs), starts Guildhall as `npm start` runs it, then uses its dashboard as a moderator does (Chromium opens
// the scale guild's overview and members pages and stays on them, the live stream connected: bench/dashboard-use.ts)
// and runs every scenario on 127.0.0.1 in that process, printing one table. `--fresh` skips the dashboard: the API
// in a process that has rendered no page yet (the members-page scenarios still render pages when their turn comes).
// Each load scenario is compared with the machine's limit for its answer: bare node:http returning the same bytes
// from SQLite by primary key (bench/baseline-server.ts, its own process), measured just before and just after the
// scenario (the machine is shared, so it drifts); the ratio is to the mean of the two. Figures are measured, not
// asserted.
// Then the long fuzz pass (bench/fuzz.ts, FUZZ_RUNS requests per operation, its own database): its request and failure
// counts. `-- --only fuzz` runs the fuzz pass alone; `-- --no-fuzz` skips it. Then the gateway pass
// (bench/gateway/run.ts, its own database and processes); `-- --only gateway` alone, `-- --no-gateway` skips it.
// Then the cases pass (bench/cases.ts: the Cases list on 100,000 cases, 10,000 temporary bans ending at once);
// `-- --only cases` alone, `-- --no-cases` skips it. Then the AutoMod matcher pass (bench/automod.ts: 2,000-character
// messages against 6 keyword rules of 1,000 keywords and 10 patterns; in its own process, no database or server):
// `-- --no-automod` skips it; alone, `npm run bench:automod` (no build). Last, where PostgreSQL's server is installed, the PostgreSQL
// pass (bench/postgresql.ts: the same scenarios on both engines in one table, with the same --members and
// --duration); `-- --only postgresql` alone, `-- --no-postgresql` skips it.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { runScenario, scenarios } from "./scenarios";
import type { BenchContext } from "./context";
import { openDashboard, type OpenDashboard } from "./dashboard-use";
import { storeLimitAnswers } from "./limit-answers";
import { measureLoad, type LoadResult } from "./load";
import { groupCpuMs, startProcess, stop } from "./processes";
import { argValue, fmt, hasFlag, prepareBench, startGuildhall, openBenchDatabase } from "./setup";
import { postgresBinDir } from "../tests/postgres/cluster";

const members = Number(argValue("--members") ?? 100_000);
const duration = Number(argValue("--duration") ?? 5);
const only = argValue("--only")?.split(",");
const fresh = hasFlag("--fresh");

const benchDb = openBenchDatabase(members);
process.env.PUBLIC_URL ??= "http://localhost:3000";

interface Measured {
  name: string;
  result: LoadResult | Error;
  target?: string;
  /** The limit for the same answer (rate: the mean of the measurements before and after), for load scenarios. */
  limit?: { requestsPerSecond: number; cpuPerRequest: number };
}

async function main(): Promise<void> {
  await prepareBench(benchDb, members, true);
  // Throughput and speed, not Discord's per-token limits (bench/abuse measures those).
  const app = await startGuildhall("localhost", { RATE_LIMITS: "off" });
  let baseline: Awaited<ReturnType<typeof startProcess>> | undefined;
  let dashboard: OpenDashboard | undefined;
  try {
    const ctx: BenchContext = await (await import("./context")).createBenchContext(`http://127.0.0.1:${app.port}`);
    const chosen = scenarios.filter((scenario) => !only || only.some((filter) => scenario.name.includes(filter)));
    const limitFile = benchDb.replace(/\.db$/, "") + "-limit.db";
    await storeLimitAnswers(
      limitFile,
      ctx.appUrl,
      chosen.flatMap((scenario) => (scenario.load ? [scenario.load(ctx)] : [])),
    );
    baseline = await startProcess(
      "node_modules/.bin/tsx",
      ["bench/baseline-server.ts"],
      { BENCH_BASELINE_DB: limitFile, PORT: "0" },
      /listening (\d+)/,
    );
    const baselineUrl = `http://127.0.0.1:${baseline.port}`;
    if (!fresh && chosen.length) {
      // At its public URL: the live stream answers only pages of its own origin.
      dashboard = await openDashboard(app.url, await ctx.dashboardCookie(), {
        demo: ctx.demoGuildId,
        scale: ctx.scaleGuildId,
      });
      console.log(`Dashboard open in Chromium: ${dashboard.pages.join(", ")} (live stream connected).`);
    }
    console.log(
      `Guildhall on :${app.port}${fresh ? " (fresh: no dashboard page rendered first)" : ""}, limit on :${baseline.port}; ${duration}s per scenario after a warm-up.\n`,
    );
    const measured: Measured[] = [];
    for (const scenario of chosen) {
      const request = scenario.load?.(ctx);
      const measureLimit = () =>
        measureLoad({
          url: `${baselineUrl}${request!.path}`,
          duration,
          serverCpuMs: () => groupCpuMs(baseline!.child),
        });
      const before = request && (await measureLimit());
      let result: LoadResult | Error;
      try {
        result = await runScenario(scenario, ctx, duration, () => groupCpuMs(app.child));
      } catch (error) {
        result = error as Error;
      }
      const after = request && (await measureLimit());
      measured.push({
        name: scenario.name,
        result,
        target: scenario.target,
        limit: before &&
          after && {
            requestsPerSecond: (before.requestsPerSecond + after.requestsPerSecond) / 2,
            cpuPerRequest: (before.cpuPerRequest! + after.cpuPerRequest!) / 2,
          },
      });
    }
    printTable(measured);
  } finally {
    dashboard?.close();
    stop(app.child);
    if (baseline) stop(baseline.child);
  }
}

function printTable(measured: readonly Measured[]): void {
  const header = ["scenario", "req/s", "p50 ms", "p99 ms", "CPU µs/req", "limit req/s", "limit CPU µs/req", "vs limit"];
  header.push("target");
  const rows = measured.map(({ name, result, target, limit }) =>
    result instanceof Error
      ? [name, "error", "", "", "", "", "", "", `${target ?? ""} (${result.message.slice(0, 50)})`]
      : [
          name,
          fmt(result.requestsPerSecond),
          fmt(result.p50, 2),
          fmt(result.p99, 2),
          result.cpuPerRequest === undefined ? "" : fmt(result.cpuPerRequest),
          limit ? fmt(limit.requestsPerSecond) : "",
          limit ? fmt(limit.cpuPerRequest) : "",
          limit ? `${fmt(result.requestsPerSecond / limit.requestsPerSecond, 2)}×` : "",
          target ?? "",
        ],
  );
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const textColumn = (i: number) => i === 0 || i === header.length - 1;
  const line = (cells: string[]) =>
    cells.map((c, i) => (textColumn(i) ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of rows) console.log(line(r));
  console.log(
    `\n${fresh ? "Fresh process: no dashboard page had rendered before the first scenario." : "After the dashboard's overview and members pages, with their live stream open."} Limit: node:http returning the same answer's bytes from SQLite by primary key. CPU µs/req: the serving process's CPU time over the requests answered (the machine's other load does not move it).`,
  );
  fs.mkdirSync("bench/results", { recursive: true });
  fs.writeFileSync(
    path.join("bench/results", `bench-${new Date().toISOString().replace(/[:.]/g, "-")}.json`),
    JSON.stringify({ members, duration, fresh, header, rows }, null, 2),
  );
}

/** A pass in a process of its own (its own database, its own servers): its output goes straight to ours. */
function runPass(title: string, args: string[]): boolean {
  console.log(`\n${title}:`);
  const result = spawnSync("node_modules/.bin/tsx", args, { stdio: "inherit", env: process.env });
  return result.status === 0;
}

/** SQLite against PostgreSQL, scenario by scenario (bench/postgresql.ts), where PostgreSQL's server is installed. */
function runPostgresqlPass(): boolean {
  try {
    postgresBinDir();
  } catch (error) {
    console.log(`\nPostgreSQL pass (bench/postgresql.ts):\n  skipped: ${(error as Error).message}`);
    return true;
  }
  return runPass("PostgreSQL pass (bench/postgresql.ts)", [
    "--conditions=react-server",
    "bench/postgresql.ts",
    "--members",
    String(members),
    "--duration",
    String(duration),
  ]);
}

/** Whether `--only` and `--no-<name>` leave the pass `name` in. */
const passWanted = (name: string) => !hasFlag(`--no-${name}`) && (!only || only.includes(name));

main().then(
  () => {
    // The fuzz pass sets DATABASE_URL to its own seeded copy: it must not share this process's.
    if (passWanted("fuzz")) runPass("Fuzz pass (bench/fuzz.ts)", ["bench/fuzz.ts"]);
    if (passWanted("gateway"))
      runPass("Gateway pass (bench/gateway/run.ts)", ["--conditions=react-server", "bench/gateway/run.ts"]);
    if (passWanted("cases")) runPass("Cases pass (bench/cases.ts)", ["--conditions=react-server", "bench/cases.ts"]);
    if (passWanted("automod")) runPass("AutoMod matcher pass (bench/automod.ts)", ["bench/automod.ts"]);
    if (passWanted("postgresql")) runPostgresqlPass();
    process.exit(0);
  },
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
