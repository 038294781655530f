// npm start with a postgres:// DATABASE_URL: the PostgreSQL migrations are applied, and then Guildhall says plainly
// that it cannot serve from PostgreSQL yet, instead of pretending: the built-in guild API's store (lib/guild-api/store)
// runs on SQLite only until its PostgreSQL statements land (issue 19).
import { migrateDatabase } from "@/lib/db/migrate";

/** user:password@host:port/database without the password. */
export function describePostgresqlUrl(url: string): string {
  const parsed = new URL(url);
  const user = parsed.username ? `${decodeURIComponent(parsed.username)}@` : "";
  return `${user}${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}`;
}

export const POSTGRESQL_STORE_NOT_YET =
  "Guildhall cannot serve from PostgreSQL yet: the built-in guild API's store runs on SQLite only (issue 19). " +
  "The database has Guildhall's schema now, and `npm run db:copy -- --to <this URL>` fills it from a SQLite database. " +
  "Until the store runs on PostgreSQL, start with a file: DATABASE_URL (or none, for .data/guildhall.db).";

/** Applies the migrations, prints what was done and why Guildhall stops, and returns the exit code. */
export function startOnPostgresql(url: string): number {
  migrateDatabase(url);
  console.log(`Applied the PostgreSQL migrations (prisma/postgresql/migrations) to ${describePostgresqlUrl(url)}.`);
  console.error(POSTGRESQL_STORE_NOT_YET);
  return 1;
}
