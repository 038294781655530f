// The dashboard's Prisma client (next-auth sessions, audit history, prune previews, bulk-ban jobs, table preferences),
// one per thread (the moderation scheduler's worker thread has its own, cases/scheduler-thread.ts).
// The built-in guild API never uses it: its hot paths run on prepared better-sqlite3 statements (lib/guild-api/store).
// DATABASE_URL picks the database (lib/db/database-url.ts): SQLite through better-sqlite3 (its transactions begun
// IMMEDIATE, its other statements one per turn of the event loop: sqlite-adapter.ts), or PostgreSQL through the pg
// driver adapter with the client generated from the same models for PostgreSQL (prisma/postgresql/schema.prisma).
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma";
import { PrismaClient as PostgresqlPrismaClient } from "@/lib/generated/prisma-postgresql";
import { databaseFile, databaseProvider, databaseUrl } from "@/lib/db/database-url";
import { securePrivateDatabaseFiles } from "@/lib/db/file-mode";
import { DashboardSQLite3 } from "./sqlite-adapter";

// Kept on globalThis so Next's dev-mode module reloads reuse one client (and one SQLite connection or pg pool).
const globalForPrisma = globalThis as unknown as { guildhallPrisma?: PrismaClient };

function createPrismaClient(): PrismaClient {
  const url = databaseUrl();
  if (databaseProvider(url) === "postgresql")
    // Both clients are generated from one set of models, so they answer the same calls with the same shapes; the
    // SQLite client's type describes both (and keeps the dashboard to what both providers support).
    return new PostgresqlPrismaClient({ adapter: new PrismaPg({ connectionString: url }) }) as unknown as PrismaClient;
  securePrivateDatabaseFiles(databaseFile(url));
  return new PrismaClient({ adapter: new DashboardSQLite3({ url }) });
}

export const prisma: PrismaClient =
  globalForPrisma.guildhallPrisma ?? (globalForPrisma.guildhallPrisma = createPrismaClient());

/** Whether the dashboard's tables are in PostgreSQL (else in the SQLite file). */
export function dashboardOnPostgresql(): boolean {
  return databaseProvider() === "postgresql";
}

/**
 * A text filter matching `text` anywhere in the column, whatever its case, on both providers: Prisma's `contains` is
 * SQLite's LIKE, which ignores the case of ASCII letters, but PostgreSQL's case-sensitive LIKE unless asked for
 * `mode: "insensitive"` (ILIKE, which also folds non-ASCII letters), a filter SQLite's client refuses.
 */
export function containsText(text: string): { contains: string } {
  return dashboardOnPostgresql()
    ? ({ contains: text, mode: "insensitive" } as { contains: string })
    : { contains: text };
}
