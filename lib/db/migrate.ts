// Applies the committed Prisma migrations to the database (prisma migrate deploy, offline with the JS engine): for a
// `file:` URL prisma/migrations on SQLite, for a `postgres://` URL prisma/postgresql/migrations (prisma.config.ts).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { databaseFile, databaseProvider, databaseUrl } from "./database-url";
import { securePrivateDatabaseFiles } from "./file-mode";

export function migrateDatabase(url = databaseUrl()): void {
  // Prisma would create a missing SQLite database with the default (world-readable) mode.
  if (databaseProvider(url) === "sqlite") securePrivateDatabaseFiles(databaseFile(url));
  const prisma = path.join(process.cwd(), "node_modules", ".bin", "prisma");
  const result = spawnSync(prisma, ["migrate", "deploy"], {
    env: { ...process.env, DATABASE_URL: url },
    encoding: "utf8",
  });
  if (result.status !== 0) {
    throw new Error(`prisma migrate deploy failed:\n${result.stdout}\n${result.stderr}`);
  }
}
