// Another connection to this file's database, as the seed, the token tool, the dashboard's Prisma or another
// Guildhall instance would hold one: the store's own driver for the engine in use, on a connection of its own.
import { openDatabase } from "@/lib/guild-api/store/db";
import type { StoreDriver } from "@/lib/guild-api/store/driver";
import { PostgresqlDriver } from "@/lib/guild-api/store/postgresql-driver";
import { SqliteDriver } from "@/lib/guild-api/store/sqlite-driver";

/** Usable once the harness has pointed DATABASE_URL at this file's database (after startTestServer). */
export function openOtherConnection(): StoreDriver {
  const url = process.env.DATABASE_URL!;
  return url.startsWith("file:")
    ? new SqliteDriver(openDatabase(url.slice("file:".length)))
    : new PostgresqlDriver(url);
}
