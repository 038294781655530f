// npm run db:copy -- --to postgres://user@host/db [--from file:/path/to.db]
// Copies the SQLite database (--from, else DATABASE_URL when it is a file: URL, else .data/guildhall.db) into an
// empty PostgreSQL database: migrations, every table, counts verified, all in one transaction (nothing is written
// unless everything is). See scripts/copy-sqlite-to-postgresql.ts.
import { DEFAULT_DATABASE_FILE, databaseFile, databaseProvider } from "@/lib/db/database-url";
import { CopyRefusedError, copySqliteToPostgresql } from "./copy-sqlite-to-postgresql";

const USAGE = "usage: npm run db:copy -- --to postgres://user@host:port/database [--from file:/path/to/guildhall.db]";

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const to = option(args, "--to");
  const configured = process.env.DATABASE_URL?.startsWith("file:") ? process.env.DATABASE_URL : undefined;
  const from = option(args, "--from") ?? configured ?? `file:${DEFAULT_DATABASE_FILE}`;
  const known = args.every((arg, i) => ["--to", "--from"].includes(arg) || ["--to", "--from"].includes(args[i - 1]));
  if (!to || !known || args.length % 2 !== 0) {
    console.error(USAGE);
    return 2;
  }
  try {
    if (databaseProvider(to) !== "postgresql") throw new CopyRefusedError(`--to must be a postgres:// URL. ${USAGE}`);
    if (databaseProvider(from) !== "sqlite") throw new CopyRefusedError(`--from must be a file: URL. ${USAGE}`);
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  const file = databaseFile(from);
  const target = new URL(to);
  const where = `${target.hostname}:${target.port || 5432}${target.pathname}`;
  console.log(`Copying ${file} into PostgreSQL at ${where}…`);
  try {
    const result = await copySqliteToPostgresql({ from: file, to, log: (line) => console.log(`  ${line}`) });
    console.log(
      `Copied ${result.rows} rows in ${result.tables.length} tables in ${(result.milliseconds / 1000).toFixed(1)} s; every table's count matches the source.`,
    );
    console.log(
      "The secrets kept beside the SQLite file (.nextauth-secret, .provider-secret, .secrets.json) are not in the database: keep them, or set NEXTAUTH_SECRET and GUILDHALL_PROVIDER_SECRET.",
    );
    return 0;
  } catch (error) {
    // Expected refusals read as one sentence; anything else keeps its stack.
    console.error(error instanceof CopyRefusedError ? error.message : error);
    return 1;
  }
}

void main().then((code) => process.exit(code));
