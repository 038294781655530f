// Operations on the SQLite database file as a whole, each on a connection of its own (never the server's): the
// online backup, the integrity check, the journal mode of a copy, and whether any process has the file open. The
// file holds the guild API's tables and the dashboard's Prisma tables alike; store/backup.ts builds backups and
// restores on these.
import Database from "better-sqlite3";

/**
 * SQLite's online backup of `source` into `target`, all pages in one step and so inside one read transaction: in
 * WAL mode that snapshot never blocks writers, and no commit can restart the copy (a backup taken in small steps
 * starts over whenever another connection commits, so under steady writes it would never finish). Resolves to the
 * number of pages copied.
 */
export async function copyDatabaseOnline(source: string, target: string): Promise<number> {
  const connection = new Database(source, { fileMustExist: true });
  try {
    const { totalPages } = await connection.backup(target, { progress: () => 0x7fffffff });
    return totalPages;
  } finally {
    connection.close();
  }
}

/** What PRAGMA integrity_check reports: exactly ["ok"] for a sound file. Throws when `file` is no SQLite database. */
export function integrityProblems(file: string): string[] {
  const connection = new Database(file, { fileMustExist: true });
  try {
    const rows = connection.pragma("integrity_check", { simple: false }) as Array<{ integrity_check: string }>;
    return rows.map((row) => row.integrity_check);
  } finally {
    connection.close();
  }
}

/** Switches a copy to a rollback journal, so it is one self-contained file (the server turns WAL on when it opens it). */
export function switchToRollbackJournal(file: string): void {
  const connection = new Database(file, { fileMustExist: true });
  try {
    connection.pragma("journal_mode = DELETE");
  } finally {
    connection.close();
  }
}

/**
 * Whether another connection has the file open: an open WAL connection anywhere keeps a shared lock, so taking the
 * database exclusively fails while Guildhall (or the seed, or a sqlite3 shell) has it. Returns the refusal's
 * message, or null when the file is free.
 */
export function openElsewhere(file: string): string | null {
  const probe = new Database(file, { fileMustExist: true, timeout: 1_000 });
  try {
    probe.pragma("locking_mode = EXCLUSIVE");
    probe.exec("BEGIN EXCLUSIVE");
    probe.exec("COMMIT");
    return null;
  } catch (error) {
    return (error as Error).message;
  } finally {
    probe.close();
  }
}
