// DATABASE_URL picks the provider, and the PostgreSQL schema is the SQLite schema with only its provider and client
// output changed (scripts/postgresql-schema.ts).
import fs from "node:fs";
import { afterEach, expect, test } from "vitest";
import { databaseProvider, databaseUrl } from "@/lib/db/database-url";
import { postgresqlSchemaText, SQLITE_SCHEMA } from "@/scripts/postgresql-schema";

const saved = process.env.DATABASE_URL;
afterEach(() => {
  if (saved === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = saved;
});

test("postgres:// and postgresql:// select PostgreSQL, file: and no URL SQLite, anything else is refused", () => {
  expect(databaseProvider("postgres://u:p@db.example:5432/guildhall")).toBe("postgresql");
  expect(databaseProvider("postgresql://localhost/guildhall?sslmode=require")).toBe("postgresql");
  expect(databaseProvider("file:/tmp/guildhall-provider-test/x.db")).toBe("sqlite");
  delete process.env.DATABASE_URL;
  expect(databaseUrl()).toMatch(/^file:.*\.data\/guildhall\.db$/);
  expect(databaseProvider()).toBe("sqlite");
  expect(() => databaseProvider("mysql://localhost/guildhall")).toThrow(
    "DATABASE_URL must be a file: URL (SQLite) or a postgres:// URL (PostgreSQL), got mysql:…",
  );
  process.env.DATABASE_URL = "postgresql://localhost/guildhall";
  expect(databaseUrl()).toBe("postgresql://localhost/guildhall");
});

const modelNames = (schema: string) => [...schema.matchAll(/^model (\w+) \{/gm)].map((match) => match[1]);

test("the PostgreSQL schema has the same models, the postgresql provider and its own client", () => {
  const sqlite = fs.readFileSync(SQLITE_SCHEMA, "utf8");
  const postgresql = postgresqlSchemaText(sqlite);
  expect(modelNames(postgresql)).toEqual(modelNames(sqlite));
  expect(modelNames(sqlite).length).toBeGreaterThan(30);
  expect(postgresql).toMatch(/datasource db \{\s*provider = "postgresql"/);
  expect(postgresql).toContain('output     = "../../lib/generated/prisma-postgresql"');
  expect(postgresql).not.toContain('"sqlite"');
  // Everything else is the SQLite schema as it is.
  const body = (schema: string) => schema.slice(schema.indexOf("// ───"));
  expect(body(postgresql)).toBe(body(sqlite));
});

test("a schema whose datasource or generator moved is refused, not half-derived", () => {
  expect(() => postgresqlSchemaText('datasource db {\n  provider = "postgresql"\n}')).toThrow(
    "update scripts/postgresql-schema.ts",
  );
});
