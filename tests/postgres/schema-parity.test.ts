// The two migrations folders describe one schema: a SQLite database migrated with prisma/migrations and a PostgreSQL
// database migrated with prisma/postgresql/migrations have the same tables, the same columns (type, nullability,
// primary key) and the same indexes, so a migration added to one folder and not the other fails here. And the
// PostgreSQL migrations match prisma/schema.prisma itself, as Prisma reads it.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { newPostgresDatabase, newSqliteDatabase } from "./databases";

const run = promisify(execFile);
const ROOT = new URL("../..", import.meta.url).pathname;

/** SQLite-only: the trigram full-text table (FTS5) and its shadow tables; PostgreSQL has member_name_keys (below). */
const SQLITE_ONLY_TABLES = /^user_name_trigrams(_\w+)?$/;
/**
 * PostgreSQL-only tables, derived from others by triggers: Get Guild Prune Count's per-day counts of members without
 * roles (prisma/postgresql/migrations/…_roleless_members_by_day), SQLite counting its covering index instead; member
 * search's role assignments by join date (…_role_members_by_joined_at), SQLite probing member_roles per member; member
 * search's names per member with a trigram index (…_member_name_keys), SQLite matching its trigram table; member
 * search's per-day counts of members by join date (…_members_by_join_day), SQLite counting its index range.
 */
const POSTGRESQL_ONLY_TABLES = new Set([
  "roleless_members_by_day",
  "role_members_by_joined_at",
  "member_name_keys",
  "members_by_join_day",
]);
/** The PostgreSQL-only tables the migrated database has (each must be there: the list above is not stale). */
const postgresqlOnlyTables = new Set<string>();

interface Column {
  type: string;
  notNull: boolean;
  primaryKey: boolean;
}
type Schema = { tables: Record<string, Record<string, Column>>; indexes: Record<string, string> };

/** Declared SQLite types and PostgreSQL's types, as one vocabulary. */
function sameType(type: string): string {
  const t = type.toLowerCase();
  if (t === "integer" || t === "int4" || t === "int2") return "integer";
  if (t === "bigint" || t === "int8") return "bigint";
  if (t === "text" || t === "varchar") return "text";
  if (t === "boolean" || t === "bool") return "boolean";
  if (t === "datetime" || t.startsWith("timestamp")) return "timestamp";
  if (t === "blob" || t === "bytea") return "bytes";
  if (t === "real" || t === "float8" || t === "double precision") return "double";
  return `unknown ${t}`;
}

function sqliteSchema(file: string): Schema {
  const db = new Database(file, { readonly: true });
  try {
    const schema: Schema = { tables: {}, indexes: {} };
    const tables = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_prisma_migrations'",
      )
      .all() as Array<{ name: string }>;
    for (const { name } of tables) {
      if (SQLITE_ONLY_TABLES.test(name)) continue;
      const columns = db.prepare(`PRAGMA table_info("${name}")`).all() as Array<{
        name: string;
        type: string;
        notnull: number;
        pk: number;
      }>;
      schema.tables[name] = Object.fromEntries(
        columns.map((c) => [
          c.name,
          { type: sameType(c.type), notNull: c.notnull === 1 || c.pk > 0, primaryKey: c.pk > 0 },
        ]),
      );
      const indexes = db.prepare(`PRAGMA index_list("${name}")`).all() as Array<{ name: string; origin: string }>;
      for (const index of indexes) {
        if (index.origin === "pk") continue;
        const keys = db.prepare(`PRAGMA index_info("${index.name}")`).all() as Array<{ name: string | null }>;
        schema.indexes[index.name] = `${name}(${keys.map((k) => k.name ?? "<expression>").join(", ")})`;
      }
    }
    return schema;
  } finally {
    db.close();
  }
}

async function postgresqlSchema(url: string): Promise<Schema> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const schema: Schema = { tables: {}, indexes: {} };
    const { rows: columns } = await client.query<{
      table: string;
      column: string;
      type: string;
      not_null: boolean;
      primary_key: boolean;
    }>(`
      SELECT c.relname AS table, a.attname AS column, t.typname AS type, a.attnotnull AS not_null,
        coalesce(a.attnum = ANY (p.conkey), false) AS primary_key
      FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid JOIN pg_type t ON t.oid = a.atttypid
      LEFT JOIN pg_constraint p ON p.conrelid = c.oid AND p.contype = 'p'
      WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND c.relname <> '_prisma_migrations'
        AND a.attnum > 0 AND NOT a.attisdropped`);
    for (const c of columns) {
      if (POSTGRESQL_ONLY_TABLES.has(c.table)) postgresqlOnlyTables.add(c.table);
      else
        (schema.tables[c.table] ??= {})[c.column] = {
          type: sameType(c.type),
          notNull: c.not_null,
          primaryKey: c.primary_key,
        };
    }
    const { rows: indexes } = await client.query<{ table: string; index: string; keys: Array<string | null> }>(`
      SELECT t.relname AS table, i.relname AS index,
        array(SELECT a.attname::text FROM unnest(x.indkey) WITH ORDINALITY k(attnum, n)
              LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum AND k.attnum > 0 ORDER BY k.n) AS keys
      FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
      WHERE t.relnamespace = current_schema()::regnamespace AND NOT x.indisprimary AND t.relname <> '_prisma_migrations'`);
    // A PostgreSQL-only table's own indexes go with it.
    for (const index of indexes)
      if (!POSTGRESQL_ONLY_TABLES.has(index.table))
        schema.indexes[index.index] = `${index.table}(${index.keys.map((k) => k ?? "<expression>").join(", ")})`;
    return schema;
  } finally {
    await client.end();
  }
}

let sqlite: Schema;
let postgresql: Schema;
beforeAll(async () => {
  sqlite = sqliteSchema(newSqliteDatabase(inject("sqliteEmptyTemplate")));
  postgresql = await postgresqlSchema(await newPostgresDatabase());
});

test("both migrated schemas have the same tables", () => {
  expect(Object.keys(postgresql.tables).sort()).toEqual(Object.keys(sqlite.tables).sort());
  expect(Object.keys(sqlite.tables).length).toBeGreaterThan(30);
  expect([...postgresqlOnlyTables].sort()).toEqual([...POSTGRESQL_ONLY_TABLES].sort());
});

test("every table has the same columns, types, nullability and primary key on both", () => {
  for (const table of Object.keys(sqlite.tables))
    expect({ table, ...postgresql.tables[table] }).toEqual({ table, ...sqlite.tables[table] });
});

test("both have the same indexes, by name and keys", () => {
  expect(postgresql.indexes).toEqual(sqlite.indexes);
  // The hand-written ones are there (partial and expression indexes).
  expect(postgresql.indexes).toMatchObject({
    members_timed_out_idx: "members(guild_id, communication_disabled_until)",
    members_pending_idx: "members(guild_id, user_id)",
    users_bot_idx: "users(id)",
    users_global_name_key_idx: "users(<expression>)",
  });
});

let scratch: string | undefined;
afterAll(async () => {
  if (!scratch) return;
  const admin = new pg.Client({ connectionString: inject("postgresAdminUrl") });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${new URL(scratch).pathname.slice(1)}"`);
  await admin.end();
});

test("the PostgreSQL migrations give the schema prisma/schema.prisma describes (Prisma's own diff)", async () => {
  // migrate diff replays the migrations into a shadow database it creates next to DATABASE_URL's.
  scratch = await newPostgresDatabase(null);
  const { stdout } = await run(
    path.join(ROOT, "node_modules", ".bin", "prisma"),
    [
      "migrate",
      "diff",
      "--from-migrations",
      "prisma/postgresql/migrations",
      "--to-schema-datamodel",
      "prisma/postgresql/schema.prisma",
      "--script",
    ],
    { cwd: ROOT, env: { ...process.env, DATABASE_URL: scratch } },
  );
  // Prisma ignores partial and expression indexes and triggers; the PostgreSQL-only tables are all it would drop. Any
  // model change without its PostgreSQL migration shows here.
  const statements = stdout
    .split("\n")
    .filter((line) => line.trim() && !line.startsWith("--"))
    .sort();
  expect(statements).toEqual([...POSTGRESQL_ONLY_TABLES].map((table) => `DROP TABLE "${table}";`).sort());
});
