// npm run restore -- <backup file>   → restores the backup into the database DATABASE_URL names, then applies newer
// migrations. SQLite: replaces the database file and its secrets; Guildhall must be stopped, and the replaced database
// is kept as <db>.before-restore-<time>. PostgreSQL: pg_restore of a pg_dump archive into an empty database (create
// one, restore into it, then point Guildhall's DATABASE_URL at it), in one transaction.
import { DEFAULT_DATABASE_FILE, databaseProvider } from "@/lib/db/database-url";
import { restoreDatabase, BackupError } from "@/lib/guild-api/store/backup";
import { PostgresqlBackupError, restorePostgresql } from "@/lib/guild-api/store/backup-postgresql";

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.length !== 1 || args[0].startsWith("--")) {
    console.error("usage: npm run restore -- <backup file>");
    process.exit(2);
  }
  const url = process.env.DATABASE_URL ?? `file:${DEFAULT_DATABASE_FILE}`;
  try {
    if (databaseProvider(url) === "postgresql") {
      const { entries } = await restorePostgresql(url, args[0]);
      const target = new URL(url);
      console.log(
        `Restored ${args[0]} (${entries} entries) into ${target.hostname}:${target.port || 5432}${target.pathname} (pg_restore in one transaction, migrations applied).`,
      );
      return;
    }
    const result = restoreDatabase(url, args[0]);
    console.log(`Restored ${args[0]} to ${result.file} (integrity_check ok, migrations applied).`);
    if (result.secrets.length) console.log(`Restored the secrets beside it: ${result.secrets.join(", ")}.`);
    if (result.previous) console.log(`The database it replaced is kept at ${result.previous}.`);
  } catch (error) {
    // Expected refusals read as one sentence; anything else keeps its stack.
    console.error(error instanceof BackupError || error instanceof PostgresqlBackupError ? error.message : error);
    process.exit(1);
  }
}

void main();
