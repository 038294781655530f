// A throwaway PostgreSQL cluster (Debian's postgresql package) for tests: initdb into a temporary folder, the server
// started with pg_ctl on a free port of 127.0.0.1 with its socket in that folder and trust authentication, stopped
// and deleted after. Tests never depend on the system's own PostgreSQL service or its state. As root (CI, this
// machine) the cluster belongs to the `postgres` account, since PostgreSQL refuses to run as root.
import { spawnSync, type SpawnSyncOptions } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "../integration/server-process";

export interface PostgresCluster {
  port: number;
  /** The folder holding the data directory, the socket and the server log. */
  dir: string;
  /** A superuser URL (user `postgres`, trust) to `database` on this cluster (default: the `postgres` database). */
  url(database?: string): string;
  /** A new empty database with a unique name (or `name`), as a URL. */
  createDatabase(name?: string): Promise<string>;
  stop(): Promise<void>;
}

const MISSING =
  "PostgreSQL is missing: the tests under tests/postgres need its server binaries (initdb, pg_ctl, postgres) and " +
  "client tools (pg_dump, pg_restore). Install Debian's package: apt-get install -y postgresql (.ci/run installs it).";

/** The newest installed PostgreSQL's bin folder (POSTGRES_BINDIR overrides); throws a clear error when there is none. */
export function postgresBinDir(): string {
  const override = process.env.POSTGRES_BINDIR;
  const candidates = override
    ? [override]
    : fs.existsSync("/usr/lib/postgresql")
      ? fs
          .readdirSync("/usr/lib/postgresql")
          .filter((version) => /^\d+$/.test(version))
          .sort((a, b) => Number(b) - Number(a))
          .map((version) => path.join("/usr/lib/postgresql", version, "bin"))
      : [];
  const found = candidates.find((dir) =>
    ["initdb", "pg_ctl", "postgres", "pg_dump", "pg_restore"].every((tool) => fs.existsSync(path.join(dir, tool))),
  );
  if (!found) throw new Error(MISSING);
  return found;
}

const asRoot = process.getuid?.() === 0;

/** Runs a server binary as the cluster's owner: `postgres` when we are root, else ourselves. */
function runAsOwner(bin: string, args: string[], options: SpawnSyncOptions = {}): string {
  const [command, fullArgs] = asRoot ? ["runuser", ["-u", "postgres", "--", bin, ...args]] : [bin, args];
  const result = spawnSync(command, fullArgs, { encoding: "utf8", timeout: 60_000, ...options });
  if (result.error) throw result.error;
  if (result.status !== 0)
    throw new Error(
      `${path.basename(bin)} ${args.join(" ")} failed (${result.status}):\n${result.stdout}${result.stderr}`,
    );
  return String(result.stdout);
}

let clusterCount = 0;

/** A test cluster's settings: durability off for speed (the data is thrown away). */
export const TEST_CLUSTER_SETTINGS = [
  "-c fsync=off",
  "-c synchronous_commit=off",
  "-c full_page_writes=off",
  "-c shared_buffers=32MB",
  "-c max_connections=60",
];

/** `settings`: the server's -c options (default TEST_CLUSTER_SETTINGS; the benches keep durability on). */
export async function startPostgresCluster(
  settings: readonly string[] = TEST_CLUSTER_SETTINGS,
): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "guildhall-pg-"));
  if (asRoot) {
    const owner = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
    const group = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
    if (owner.status !== 0) throw new Error(`${MISSING} (no postgres account to run the server as)`);
    fs.chownSync(dir, Number(owner.stdout.trim()), Number(group.stdout.trim()));
  }
  const data = path.join(dir, "data");
  // ICU's en-US as the default collation, as a production database usually has (not byte order): the schema's
  // COLLATE "C" columns must then be what keeps SQLite's ordering, and the tests see it.
  runAsOwner(path.join(bin, "initdb"), [
    "--pgdata",
    data,
    "--username",
    "postgres",
    "--auth",
    "trust",
    "--encoding",
    "UTF8",
    "--locale",
    "C.UTF-8",
    "--locale-provider",
    "icu",
    "--icu-locale",
    "en-US",
    "--no-sync",
  ]);
  const port = await freePort();
  const options = [`-p ${port}`, `-k ${dir}`, "-c listen_addresses=127.0.0.1", ...settings].join(" ");
  runAsOwner(path.join(bin, "pg_ctl"), [
    "--pgdata",
    data,
    "--log",
    path.join(dir, "server.log"),
    "--wait",
    "--timeout",
    "60",
    "-o",
    options,
    "start",
  ]);

  let stopped = false;
  const stopNow = () => {
    if (stopped) return;
    stopped = true;
    try {
      runAsOwner(path.join(bin, "pg_ctl"), ["--pgdata", data, "--mode", "immediate", "--wait", "stop"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  // A test run that ends without calling stop() (a crash, Ctrl-C) still leaves no server behind.
  process.once("exit", stopNow);

  const url = (database = "postgres") => `postgresql://postgres@127.0.0.1:${port}/${database}`;
  const prefix = `guildhall_${process.pid}_${++clusterCount}`;
  let databases = 0;
  return {
    port,
    dir,
    url,
    async createDatabase(name = `${prefix}_${++databases}`) {
      const client = new pg.Client({ connectionString: url() });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name}"`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    async stop() {
      process.removeListener("exit", stopNow);
      stopNow();
    },
  };
}
