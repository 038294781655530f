// The dashboard's Prisma client (next-auth sessions, audit history, prune previews, bulk-ban jobs), one per process.
// The built-in guild API never uses it: its hot paths run on prepared better-sqlite3 statements (lib/guild-api/store).
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "@/lib/generated/prisma";
import { databaseFile, databaseUrl } from "@/lib/db/database-url";
import { securePrivateDatabaseFiles } from "@/lib/db/file-mode";

// Kept on globalThis so Next's dev-mode module reloads reuse one client (and one SQLite connection).
const globalForPrisma = globalThis as unknown as { guildhallPrisma?: PrismaClient };

function createPrismaClient(): PrismaClient {
  const url = databaseUrl();
  securePrivateDatabaseFiles(databaseFile(url));
  return new PrismaClient({ adapter: new PrismaBetterSQLite3({ url }) });
}

export const prisma: PrismaClient =
  globalForPrisma.guildhallPrisma ?? (globalForPrisma.guildhallPrisma = createPrismaClient());
