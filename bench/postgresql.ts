// npm run bench:postgresql [-- --members N] [-- --duration S]
// The built-in API on PostgreSQL against the same API on SQLite, in one table: the bench database (as `npm run bench`
// seeds it, with its fixtures and tokens) is copied into a throwaway PostgreSQL cluster on this machine (durable:
// fsync and full-page writes on, synchronous_commit off — what SQLite's WAL with synchronous=NORMAL promises), and two
// Guildhall processes serve the guild API, one from each. Every scenario runs on SQLite, then on PostgreSQL.
// For PostgreSQL it also reports the CPU time per request spent in Guildhall's process and in the PostgreSQL server's
// processes (from /proc), the figures the arithmetic on several instances (docs/postgresql-and-instances.md) is
// built from. Measured, never asserted; written to bench/results/.
import fs from "node:fs";
import path from "node:path";
import type { BenchContext } from "./context";
import type { LoadResult } from "./load";
import { stop } from "./processes";
import { runScenario, scenarios } from "./scenarios";
import { argValue, fmt, openBenchDatabase, prepareBench, startGuildhall } from "./setup";
import { startPostgresCluster } from "../tests/postgres/cluster";

const members = Number(argValue("--members") ?? 100_000);
const duration = Number(argValue("--duration") ?? 5);

/**
 * The scenarios the issue names: Get Guild, a page of members, search, prune count, bulk ban of 200. The first two are
 * load runs (many concurrent requests, latencies in whole milliseconds), compared by throughput; the others run one
 * request at a time and are compared by their median.
 */
const COMPARED_BY_THROUGHPUT = ["GET /guilds/{id} (Get Guild)", "GET /guilds/{id}/members?limit=100"];
const COMPARED = [
  "GET /guilds/{id} (Get Guild)",
  "GET /guilds/{id}/members?limit=100",
  "search members, common prefix (sequential)",
  "search members, rare prefix (sequential)",
  "members-search: joined in 7 days + role, newest first, 100 (server time)",
  "members-search: name substring, common (server time)",
  "members-search: name substring, rare (server time)",
  "GET /guilds/{id}/prune?days=30 (sequential)",
  "GET /guilds/{id}/bans?limit=1000 (sequential)",
  "GET /guilds/{id}/bans?limit=200, walking the list (sequential)",
  "POST /guilds/{id}/bulk-ban, 200 ids (sequential, server time)",
];

/** Durable, with a cache in the range of SQLite's (256 MB): a fair opponent, not a test cluster. */
const BENCH_CLUSTER_SETTINGS = [
  "-c synchronous_commit=off",
  "-c shared_buffers=512MB",
  "-c effective_cache_size=2GB",
  "-c work_mem=16MB",
  "-c max_connections=40",
];

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat. */
function cpuSeconds(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0; // gone since it was listed
  }
}

/** Processes whose /proc/<pid>/stat field `field` (counted after the command name: 1 ppid, 2 process group) is `value`. */
function processesWith(field: number, value: number): number[] {
  return fs
    .readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      try {
        return Number(fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")[field]) === value;
      } catch {
        return false;
      }
    });
}

/** The PostgreSQL server's processes: the postmaster (its pid is the first line of postmaster.pid) and its children. */
function postgresPids(dataDir: string): number[] {
  const postmaster = Number(fs.readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
  return [postmaster, ...processesWith(1, postmaster)];
}

/** CPU seconds of Guildhall's processes (its own process group) and of every PostgreSQL process, now. */
function cpuNow(guildhallGroup: number, dataDir: string): { guildhall: number; postgresql: number } {
  const sum = (pids: number[]) => pids.reduce((total, pid) => total + cpuSeconds(pid), 0);
  return { guildhall: sum(processesWith(2, guildhallGroup)), postgresql: sum(postgresPids(dataDir)) };
}

interface Row {
  name: string;
  sqlite: LoadResult | Error;
  postgresql: LoadResult | Error;
  /** CPU ms per request during the PostgreSQL run, in Guildhall and in PostgreSQL. */
  cpuPerRequest?: { guildhall: number; postgresql: number };
}

async function main(): Promise<void> {
  const benchDb = openBenchDatabase(members);
  await prepareBench(benchDb, members, false);
  // Fixtures and tokens are written to the SQLite bench database first, so the copy carries them.
  const ctx: BenchContext = await (await import("./context")).createBenchContext("");

  console.log("Starting a PostgreSQL cluster and copying the bench database into it…");
  const cluster = await startPostgresCluster(BENCH_CLUSTER_SETTINGS);
  const dataDir = path.join(cluster.dir, "data");
  const secretsDir = fs.mkdtempSync(path.join(cluster.dir, "secrets-"));
  try {
    const url = await cluster.createDatabase("guildhall_bench");
    const { copySqliteToPostgresql } = await import("../scripts/copy-sqlite-to-postgresql");
    const copy = await copySqliteToPostgresql({ from: benchDb, to: url });
    console.log(`Copied ${fmt(copy.rows)} rows in ${fmt(copy.milliseconds / 1000, 1)} s (vacuumed and analyzed).`);
    process.env.GUILDHALL_SECRETS_DIR = secretsDir;
    const { secretsPathBase } = await import("@/lib/db/database-url");
    fs.copyFileSync(`${benchDb}.secrets.json`, `${secretsPathBase(url)}.secrets.json`);

    const common = { RATE_LIMITS: "off", GUILDHALL_API_ONLY: "1" };
    const onSqlite = await startGuildhall("127.0.0.1", common);
    const onPostgresql = await startGuildhall("127.0.0.1", {
      ...common,
      DATABASE_URL: url,
      GUILDHALL_SECRETS_DIR: secretsDir,
    });
    const rows: Row[] = [];
    try {
      const sqliteCtx = { ...ctx, appUrl: onSqlite.url };
      const postgresqlCtx = { ...ctx, appUrl: onPostgresql.url };
      for (const scenario of scenarios.filter((s) => COMPARED.includes(s.name))) {
        const attempt = (run: () => Promise<LoadResult>) => run().catch((error: Error) => error);
        // Bulk ban takes ids from a pool per batch: the two engines ban the same ids, each in its own database.
        const sqlite = await attempt(() => runScenario(scenario, sqliteCtx, duration));
        const before = cpuNow(onPostgresql.child.pid!, dataDir);
        const startedAt = Date.now();
        const postgresql = await attempt(() => runScenario(scenario, postgresqlCtx, duration));
        const after = cpuNow(onPostgresql.child.pid!, dataDir);
        const requests =
          postgresql instanceof Error ? 0 : (postgresql.requestsPerSecond * (Date.now() - startedAt)) / 1000;
        rows.push({
          name: scenario.name,
          sqlite,
          postgresql,
          cpuPerRequest:
            requests > 0
              ? {
                  guildhall: ((after.guildhall - before.guildhall) * 1000) / requests,
                  postgresql: ((after.postgresql - before.postgresql) * 1000) / requests,
                }
              : undefined,
        });
        console.log(`  ${scenario.name}: done`);
      }
    } finally {
      stop(onSqlite.child);
      stop(onPostgresql.child);
    }
    printTable(rows);
    fs.mkdirSync("bench/results", { recursive: true });
    const file = path.join("bench/results", `postgresql-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    fs.writeFileSync(
      file,
      JSON.stringify(
        {
          members,
          duration,
          rows: rows.map((r) => ({ ...r, sqlite: plain(r.sqlite), postgresql: plain(r.postgresql) })),
        },
        null,
        2,
      ),
    );
  } finally {
    await cluster.stop();
  }
}

const plain = (result: LoadResult | Error) => (result instanceof Error ? { error: result.message } : result);

function printTable(rows: Row[]): void {
  const cell = (result: LoadResult | Error) =>
    result instanceof Error
      ? ["error", result.message.slice(0, 40)]
      : [fmt(result.requestsPerSecond), fmt(result.p50, 2)];
  const table = rows.map((row) => {
    const ratio =
      row.sqlite instanceof Error || row.postgresql instanceof Error
        ? ""
        : COMPARED_BY_THROUGHPUT.includes(row.name)
          ? `${fmt(row.sqlite.requestsPerSecond / row.postgresql.requestsPerSecond, 2)}× (req/s)`
          : `${fmt(row.postgresql.p50 / row.sqlite.p50, 2)}×`;
    return [
      row.name,
      ...cell(row.sqlite),
      ...cell(row.postgresql),
      ratio,
      row.cpuPerRequest ? fmt(row.cpuPerRequest.guildhall, 2) : "",
      row.cpuPerRequest ? fmt(row.cpuPerRequest.postgresql, 2) : "",
    ];
  });
  const header = [
    "scenario",
    "SQLite req/s",
    "p50 ms",
    "PostgreSQL req/s",
    "p50 ms",
    "PG/SQLite",
    "CPU ms/req Guildhall",
    "CPU ms/req PostgreSQL",
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  console.log(`\n${line(header)}\n${widths.map((w) => "-".repeat(w)).join("  ")}`);
  for (const row of table) console.log(line(row));
  console.log(
    "\nPG/SQLite: PostgreSQL's p50 over SQLite's; for the load scenarios SQLite's req/s over PostgreSQL's. Goal: ≤ 2×.",
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
