// Backups of Guildhall's one database (the guild API's tables and the dashboard's Prisma tables share it) and of
// the secrets kept beside it, and their restore. The kind of backup follows DATABASE_URL: SQLite's online backup
// for `file:` URLs, which copies a consistent snapshot while Guildhall keeps serving and writing; pg_dump for
// `postgres://` URLs (backup-postgresql.ts, which also restores them with pg_restore).
import fs from "node:fs";
import path from "node:path";
import { databaseFile, databaseProvider, type DatabaseProvider } from "@/lib/db/database-url";
import { PRIVATE_FILE_MODE, securePrivateDatabaseFiles } from "@/lib/db/file-mode";
import { migrateDatabase } from "@/lib/db/migrate";
import { backupPostgresql, type PostgresqlBackupResult } from "./backup-postgresql";
import { copyDatabaseOnline, integrityProblems, openElsewhere, switchToRollbackJournal } from "./database-file";

/**
 * Secrets generated on first use and kept beside the database. Without `.nextauth-secret` the dashboard's stored
 * OAuth2 tokens cannot be decrypted and every session ends; without `.provider-secret` the provider's sign-ins end;
 * `.secrets.json` holds the demo application's credentials. Each is copied only when it exists (an environment
 * variable such as NEXTAUTH_SECRET replaces its file).
 */
export const SECRET_COMPANIONS = [".nextauth-secret", ".provider-secret", ".secrets.json"] as const;

/** A refusal the commands print as one sentence: no database, one in use, a damaged copy, PostgreSQL. */
export class BackupError extends Error {}

export interface BackupResult {
  kind: "sqlite";
  file: string;
  bytes: number;
  pages: number;
  /** Companion secrets copied beside the backup, as `<backup><suffix>`. */
  secrets: string[];
  /** The snapshot's copy, then the integrity check of the copy. */
  copyMilliseconds: number;
  checkMilliseconds: number;
}

/** The engine `url` selects (lib/db/database-url.ts); a URL of neither kind is refused as a BackupError (no stack). */
function databaseKind(url: string): DatabaseProvider {
  try {
    return databaseProvider(url);
  } catch (error) {
    throw new BackupError((error as Error).message);
  }
}

/**
 * The backup's default place, named by the time it was taken: .data/backups/ beside a SQLite database (a .db file),
 * the project's .data/backups/ for PostgreSQL (a pg_dump archive, .dump).
 */
export function defaultBackupFile(url: string, now = new Date()): string {
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  if (databaseKind(url) === "postgresql")
    return path.join(process.cwd(), ".data", "backups", `guildhall-${stamp}.dump`);
  return path.join(path.dirname(databaseFile(url)), "backups", `guildhall-${stamp}.db`);
}

export async function backupDatabase(url: string, out: string): Promise<BackupResult | PostgresqlBackupResult> {
  if (databaseKind(url) === "postgresql") return backupPostgresql(url, out);
  return backupSqlite(databaseFile(url), out);
}

/**
 * SQLite's online backup (store/database-file.ts) into a file beside the target, checked with PRAGMA
 * integrity_check, switched to a rollback journal so it is one self-contained file, and only then renamed into
 * place: a failed or interrupted backup never leaves a file that looks finished.
 */
async function backupSqlite(source: string, out: string): Promise<BackupResult> {
  const started = performance.now();
  if (!fs.existsSync(source)) throw new BackupError(`No database at ${source}`);
  const target = path.resolve(out);
  fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  const partial = `${target}.partial-${process.pid}`;
  // The copy holds password and token hashes: created owner-only before SQLite writes a byte.
  securePrivateDatabaseFiles(partial);
  try {
    const pages = await copyDatabaseOnline(source, partial);
    const copied = performance.now();
    verifyIntegrity(partial);
    const checked = performance.now();
    switchToRollbackJournal(partial);
    fs.renameSync(partial, target);
    const secrets = copySecrets(source, target);
    return {
      kind: "sqlite",
      file: target,
      bytes: fs.statSync(target).size,
      pages,
      secrets,
      copyMilliseconds: Math.round(copied - started),
      checkMilliseconds: Math.round(checked - copied),
    };
  } catch (error) {
    for (const suffix of ["", "-journal", "-wal", "-shm"]) fs.rmSync(partial + suffix, { force: true });
    throw error;
  }
}

/** Throws unless SQLite's full integrity check of `file` answers exactly "ok". */
export function verifyIntegrity(file: string): void {
  let found: string[];
  try {
    found = integrityProblems(file);
  } catch (error) {
    throw new BackupError(`${file} is not a readable SQLite database: ${(error as Error).message}`);
  }
  if (found.length !== 1 || found[0] !== "ok")
    throw new BackupError(`${file} fails PRAGMA integrity_check:\n${found.slice(0, 10).join("\n")}`);
}

function copySecrets(fromDatabase: string, toDatabase: string): string[] {
  const copied: string[] = [];
  for (const suffix of SECRET_COMPANIONS) {
    if (!fs.existsSync(fromDatabase + suffix)) continue;
    fs.copyFileSync(fromDatabase + suffix, toDatabase + suffix);
    fs.chmodSync(toDatabase + suffix, PRIVATE_FILE_MODE);
    copied.push(suffix);
  }
  return copied;
}

export interface RestoreResult {
  file: string;
  /** Where the database that was replaced now is (null when there was none). */
  previous: string | null;
  secrets: string[];
}

/**
 * Replaces the database at `url` with the backup `from` and its secrets, then applies any migrations newer than
 * the backup. Refuses while any process has the database open (Guildhall must be stopped: its caches and gateway
 * sessions would otherwise describe the replaced data). The replaced database and its secrets are kept, renamed
 * `<database>.before-restore-<time>`, so a restore never loses anything either.
 */
export function restoreDatabase(url: string, from: string, now = new Date()): RestoreResult {
  if (databaseKind(url) === "postgresql")
    throw new BackupError(
      "A PostgreSQL database is restored with pg_restore: restorePostgresql (backup-postgresql.ts).",
    );
  const target = databaseFile(url);
  const backup = path.resolve(from);
  if (!fs.existsSync(backup)) throw new BackupError(`No backup at ${backup}`);
  verifyIntegrity(backup);
  let previous: string | null = null;
  if (fs.existsSync(target)) {
    refuseWhileOpen(target);
    previous = `${target}.before-restore-${now.toISOString().replace(/[:.]/g, "-")}`;
    // The database moves aside with its write-ahead log (a process that crashed leaves commits there), so the kept
    // copy opens complete. A secret the backup does not carry (it came from the environment then) stays where it is.
    for (const suffix of ["", "-wal", "-shm", ...SECRET_COMPANIONS]) {
      const replaced = !suffix.startsWith(".") || fs.existsSync(backup + suffix);
      if (replaced && fs.existsSync(target + suffix)) fs.renameSync(target + suffix, previous + suffix);
    }
  }
  const partial = `${target}.restoring-${process.pid}`;
  fs.copyFileSync(backup, partial);
  fs.chmodSync(partial, PRIVATE_FILE_MODE);
  fs.renameSync(partial, target);
  const secrets = copySecrets(backup, target);
  migrateDatabase(url);
  return { file: target, previous, secrets };
}

function refuseWhileOpen(file: string): void {
  const holder = openElsewhere(file);
  if (holder)
    throw new BackupError(
      `${file} is in use (${holder}): stop Guildhall and anything else that has it open, then restore.`,
    );
}
