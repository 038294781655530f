// Backups of Guildhall's PostgreSQL database with PostgreSQL's own tools (Debian's postgresql-client): pg_dump in its
// custom format, which reads the whole database in one snapshot (a repeatable-read transaction), so the copy is
// consistent while Guildhall keeps serving and writing and holds every transaction committed before it began; and
// pg_restore into an empty database, in one transaction, followed by any newer migrations. The connection's password
// goes to the tools in PGPASSWORD, never on their command line (which other users of the machine can read).
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { PRIVATE_FILE_MODE } from "@/lib/db/file-mode";
import { migrateDatabase } from "@/lib/db/migrate";

/** A refusal the commands print as one sentence (a missing tool, a non-empty target, an unreadable dump). */
export class PostgresqlBackupError extends Error {}

export interface PostgresqlBackupResult {
  kind: "postgresql";
  file: string;
  bytes: number;
  /** Entries in the dump's table of contents (tables, their data, indexes, functions, triggers, …). */
  entries: number;
  milliseconds: number;
}

/** The tool from POSTGRES_BINDIR, else PATH (Debian's wrapper picks the newest installed client). */
function tool(name: "pg_dump" | "pg_restore"): string {
  const bin = process.env.POSTGRES_BINDIR ? path.join(process.env.POSTGRES_BINDIR, name) : name;
  if (spawnSync(bin, ["--version"]).error)
    throw new PostgresqlBackupError(
      `${name} is missing: install PostgreSQL's client tools (apt-get install -y postgresql-client), or set POSTGRES_BINDIR.`,
    );
  return bin;
}

/** The URL without its password for --dbname, and the password for PGPASSWORD. */
function connection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = "";
  return { dbname: parsed.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

function run(bin: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, stderr }));
  });
}

function tableOfContents(file: string, env: NodeJS.ProcessEnv): string[] {
  const listed = spawnSync(tool("pg_restore"), ["--list", file], { env, encoding: "utf8" });
  if (listed.status !== 0)
    throw new PostgresqlBackupError(`${file} is not a readable pg_dump archive: ${listed.stderr.trim()}`);
  return listed.stdout.split("\n").filter((line) => line.trim() && !line.startsWith(";"));
}

/**
 * pg_dump --format=custom into a file beside the target, checked by reading its table of contents back with
 * pg_restore --list, and only then renamed into place: a failed or interrupted backup never leaves a file that looks
 * finished. The file is owner-only (it holds password and token hashes).
 */
export async function backupPostgresql(url: string, out: string): Promise<PostgresqlBackupResult> {
  const started = performance.now();
  const { dbname, env } = connection(url);
  const target = path.resolve(out);
  fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  const partial = `${target}.partial-${process.pid}`;
  fs.closeSync(fs.openSync(partial, "w", PRIVATE_FILE_MODE));
  try {
    const dumped = await run(
      tool("pg_dump"),
      ["--format=custom", "--no-owner", "--file", partial, "--dbname", dbname],
      env,
    );
    if (dumped.code !== 0) throw new PostgresqlBackupError(`pg_dump failed: ${dumped.stderr.trim()}`);
    const entries = tableOfContents(partial, env).length;
    fs.renameSync(partial, target);
    return {
      kind: "postgresql",
      file: target,
      bytes: fs.statSync(target).size,
      entries,
      milliseconds: Math.round(performance.now() - started),
    };
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
}

/** Tables in the target's current schema, to refuse restoring over a database that has any. */
async function existingTables(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name",
    );
    return rows.map((row) => row.name);
  } finally {
    await client.end();
  }
}

/**
 * pg_restore of `from` into the empty database at `url`, in one transaction (a failure leaves it empty), then any
 * migrations newer than the backup. Refuses a database that already has tables: restore into a new one (createdb),
 * then point DATABASE_URL at it.
 */
export async function restorePostgresql(url: string, from: string): Promise<{ entries: number }> {
  const { dbname, env } = connection(url);
  const backup = path.resolve(from);
  if (!fs.existsSync(backup)) throw new PostgresqlBackupError(`No backup at ${backup}`);
  const entries = tableOfContents(backup, env).length;
  const tables = await existingTables(url);
  if (tables.length)
    throw new PostgresqlBackupError(
      `The target database is not empty (${tables.slice(0, 3).join(", ")}${tables.length > 3 ? ", …" : ""}): restore into a new, empty database (createdb …) and point DATABASE_URL at it; nothing was changed.`,
    );
  const restored = spawnSync(
    tool("pg_restore"),
    ["--single-transaction", "--exit-on-error", "--no-owner", "--dbname", dbname, backup],
    { env, encoding: "utf8" },
  );
  if (restored.status !== 0)
    throw new PostgresqlBackupError(`pg_restore failed, nothing was restored: ${restored.stderr.trim()}`);
  migrateDatabase(url);
  return { entries };
}
