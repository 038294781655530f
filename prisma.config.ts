// Prisma CLI configuration: the schema, and the better-sqlite3 driver adapter so that
// generate, migrate diff and migrate deploy work offline with the JS engine.
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { databaseUrl } from "./lib/db/database-url";

// The schema's datasource reads DATABASE_URL, so set it before the CLI parses the schema.
const url = databaseUrl();

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  async adapter() {
    return new PrismaBetterSQLite3({ url });
  },
});
