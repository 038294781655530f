// npm run restore -- <backup file>   → replaces the database (DATABASE_URL) with the backup and its secrets, then
// applies newer migrations. Guildhall must be stopped; the replaced database is kept as <db>.before-restore-<time>.
import { DEFAULT_DATABASE_FILE } from "@/lib/db/database-url";
import { restoreDatabase, BackupError } from "@/lib/guild-api/store/backup";

function main(): void {
  const args = process.argv.slice(2);
  if (args.length !== 1 || args[0].startsWith("--")) {
    console.error("usage: npm run restore -- <backup file>");
    process.exit(2);
  }
  const url = process.env.DATABASE_URL ?? `file:${DEFAULT_DATABASE_FILE}`;
  try {
    const result = restoreDatabase(url, args[0]);
    console.log(`Restored ${args[0]} to ${result.file} (integrity_check ok, migrations applied).`);
    if (result.secrets.length) console.log(`Restored the secrets beside it: ${result.secrets.join(", ")}.`);
    if (result.previous) console.log(`The database it replaced is kept at ${result.previous}.`);
  } catch (error) {
    // Expected refusals read as one sentence; anything else keeps its stack.
    console.error(error instanceof BackupError ? error.message : error);
    process.exit(1);
  }
}

main();
