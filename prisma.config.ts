// Prisma CLI configuration, chosen by DATABASE_URL (lib/db/database-url.ts): SQLite's schema, migrations and
// better-sqlite3 driver adapter for `file:` URLs; for `postgres://` URLs the PostgreSQL schema derived from the same
// models (scripts/postgresql-schema.ts), its own migrations folder and the pg driver adapter (with the work-arounds
// lib/db/postgresql-migrations-adapter.ts describes). Both with the JS engine,
// so generate, migrate diff and migrate deploy work offline.
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { databaseProvider, databaseUrl } from "./lib/db/database-url";
import { postgresqlMigrationsAdapter } from "./lib/db/postgresql-migrations-adapter";

// The schema's datasource reads DATABASE_URL, so set it before the CLI parses the schema.
const url = databaseUrl();
const postgresql = databaseProvider(url) === "postgresql";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: postgresql ? path.join("prisma", "postgresql", "schema.prisma") : path.join("prisma", "schema.prisma"),
  migrations: {
    path: postgresql ? path.join("prisma", "postgresql", "migrations") : path.join("prisma", "migrations"),
  },
  async adapter() {
    return postgresql ? postgresqlMigrationsAdapter(url) : new PrismaBetterSQLite3({ url });
  },
});
