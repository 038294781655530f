// Derives prisma/postgresql/schema.prisma from prisma/schema.prisma, the one source of the models: the same models
// with the datasource's provider set to postgresql and the client generated into lib/generated/prisma-postgresql.
// Run by `npm run db:generate` (and so by npm install's postinstall) before `prisma generate`; the derived file is
// git-ignored like the generated clients, so it can never drift from the models it comes from.
import fs from "node:fs";
import path from "node:path";

export const SQLITE_SCHEMA = path.join("prisma", "schema.prisma");
export const POSTGRESQL_SCHEMA = path.join("prisma", "postgresql", "schema.prisma");

/** Never connected to (see below). */
const UNUSED_URL = "postgresql://localhost/unused-prisma-config-ts-connects";

const HEADER =
  "// GENERATED from prisma/schema.prisma by scripts/postgresql-schema.ts (npm run db:generate): do not edit.\n" +
  "// Edit prisma/schema.prisma, then add the change to both migrations folders (prisma/migrations and\n" +
  "// prisma/postgresql/migrations); tests/postgres/schema-parity.test.ts fails when they differ.\n\n";

/** The PostgreSQL schema's text for the SQLite schema's text; throws if the two replaced settings are not found. */
export function postgresqlSchemaText(sqliteSchema: string): string {
  const replaced = { provider: 0, output: 0 };
  const text = sqliteSchema
    // Connections come from prisma.config.ts's driver adapter, never from this URL. Prisma 6 still wants a valid
    // PostgreSQL URL here, or it fails to read the schema and tries to download a query engine (offline: an error);
    // env("DATABASE_URL") would be a file: URL on a machine configured for SQLite, so it is a fixed, unused one.
    .replace(
      /(datasource\s+db\s*\{[^}]*?provider\s*=\s*)"sqlite"(\s*\n\s*url\s*=\s*)env\("DATABASE_URL"\)/,
      (_match, before: string, between: string) => {
        replaced.provider++;
        return `${before}"postgresql"${between}"${UNUSED_URL}"`;
      },
    )
    .replace(/(generator\s+client\s*\{[^}]*?output\s*=\s*)"\.\.\/lib\/generated\/prisma"/, (_match, before: string) => {
      replaced.output++;
      return `${before}"../../lib/generated/prisma-postgresql"`;
    });
  if (replaced.provider !== 1 || replaced.output !== 1)
    throw new Error(
      `${SQLITE_SCHEMA} no longer has datasource db { provider = "sqlite"; url = env("DATABASE_URL") } and generator client { output = "../lib/generated/prisma" }: update scripts/postgresql-schema.ts`,
    );
  return HEADER + text;
}

export function writePostgresqlSchema(root = process.cwd()): string {
  const target = path.join(root, POSTGRESQL_SCHEMA);
  const text = postgresqlSchemaText(fs.readFileSync(path.join(root, SQLITE_SCHEMA), "utf8"));
  if (!fs.existsSync(target) || fs.readFileSync(target, "utf8") !== text) fs.writeFileSync(target, text);
  return target;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(__filename)) writePostgresqlSchema();
