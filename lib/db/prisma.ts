// The dashboard's Prisma client (next-auth sessions, audit history, prune previews, bulk-ban jobs), one per process.
// The built-in guild API never uses it: its hot paths run on prepared better-sqlite3 statements (lib/guild-api/store).
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "@/lib/generated/prisma";
import { databaseUrl } from "@/lib/db/database-url";

// Kept on globalThis so Next's dev-mode module reloads reuse one client (and one SQLite connection).
const globalForPrisma = globalThis as unknown as { guildhallPrisma?: PrismaClient };

export const prisma: PrismaClient =
  globalForPrisma.guildhallPrisma ??
  (globalForPrisma.guildhallPrisma = new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: databaseUrl() }) }));
