// npm run backup                     → a consistent copy of the database in .data/backups/, taken while Guildhall serves
// npm run backup -- --out <file>     → the copy at <file>
// SQLite (a file: DATABASE_URL): SQLite's online backup; the secrets kept beside the database are copied beside the
// backup (<file>.nextauth-secret, …): keep them together. PostgreSQL (a postgres:// DATABASE_URL): pg_dump's custom
// format, restored with npm run restore into an empty database.
import { DEFAULT_DATABASE_FILE } from "@/lib/db/database-url";
import { backupDatabase, defaultBackupFile, BackupError } from "@/lib/guild-api/store/backup";
import { PostgresqlBackupError, type PostgresqlBackupResult } from "@/lib/guild-api/store/backup-postgresql";

const seconds = (ms: number) => (ms / 1000).toFixed(1);

function reportPostgresql(result: PostgresqlBackupResult): void {
  const megabytes = (result.bytes / 1024 / 1024).toFixed(1);
  console.log(
    `Backed up the PostgreSQL database to ${result.file} (pg_dump custom format, ${megabytes} MB, ${result.entries} entries, pg_restore --list ok) in ${seconds(result.milliseconds)} s.`,
  );
  console.log(
    "The secrets Guildhall keeps outside the database (NEXTAUTH_SECRET, GUILDHALL_PROVIDER_SECRET) are not in it: back those up with your configuration.",
  );
  console.log(`Restore into a new, empty database: DATABASE_URL=postgres://…/new npm run restore -- ${result.file}`);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const outAt = args.indexOf("--out");
  const valid = args.length === 0 || (args.length === 2 && outAt === 0 && !args[1].startsWith("--"));
  if (!valid) {
    console.error("usage: npm run backup [-- --out <file>]");
    process.exit(2);
  }
  const url = process.env.DATABASE_URL ?? `file:${DEFAULT_DATABASE_FILE}`;
  try {
    const out = outAt === -1 ? defaultBackupFile(url) : args[outAt + 1];
    const result = await backupDatabase(url, out);
    if (result.kind === "postgresql") return reportPostgresql(result);
    const megabytes = (result.bytes / 1024 / 1024).toFixed(1);
    console.log(
      `Backed up the SQLite database to ${result.file} (${megabytes} MB, ${result.pages} pages, integrity_check ok): copied in ${seconds(result.copyMilliseconds)} s, checked in ${seconds(result.checkMilliseconds)} s.`,
    );
    console.log(
      result.secrets.length
        ? `Copied the secrets kept beside it: ${result.secrets.map((suffix) => result.file + suffix).join(", ")}.`
        : "No secrets were kept beside the database (they come from the environment): back those up with your configuration.",
    );
    console.log(`Restore with Guildhall stopped: npm run restore -- ${result.file}`);
  } catch (error) {
    // Expected refusals read as one sentence; anything else keeps its stack.
    console.error(error instanceof BackupError || error instanceof PostgresqlBackupError ? error.message : error);
    process.exit(1);
  }
}

void main();
