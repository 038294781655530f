// Whether the store can serve (GET /readyz, lib/server/readiness.ts): the database answers, and every migration this
// build ships is applied to it. On SQLite the file must also still be where it was opened: a connection keeps
// reading and writing a file that was moved or deleted, and every write would be lost with it.
import fs from "node:fs";
import path from "node:path";
import { databaseFile, databaseProvider } from "@/lib/db/database-url";
import { sql } from "./db";

/** The migrations this build ships, by folder name (read once: they change only with a new build). */
let shippedMigrations: string[] | null = null;

function migrationsShipped(onPostgresql: boolean): string[] {
  if (shippedMigrations) return shippedMigrations;
  const folder = path.join(process.cwd(), "prisma", ...(onPostgresql ? ["postgresql"] : []), "migrations");
  shippedMigrations = fs
    .readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return shippedMigrations;
}

/** Why the store cannot serve now, or null when it can. Throws when the database does not answer. */
export async function storeUnreadyReason(): Promise<string | null> {
  const onPostgresql = databaseProvider() === "postgresql";
  if (!onPostgresql && !fs.existsSync(databaseFile())) return "the database file is missing";
  const applied = new Set(
    await sql.values<string>(
      "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL",
    ),
  );
  const pending = migrationsShipped(onPostgresql).filter((name) => !applied.has(name));
  if (pending.length > 0) return `migrations not applied: ${pending.join(", ")}`;
  return null;
}
