// `npm start` with a postgres:// DATABASE_URL applies the PostgreSQL migrations to an empty database, then stops with
// a plain statement that the built-in API's store does not run on PostgreSQL yet (it never pretends to serve).
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { expect, test } from "vitest";
import { newPostgresDatabase } from "./databases";

const run = promisify(execFile);
const ROOT = new URL("../..", import.meta.url).pathname;
const TSX = path.join(ROOT, "node_modules", ".bin", "tsx");

async function start(url: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(TSX, ["scripts/start.ts"], { cwd: ROOT, env: { ...process.env, DATABASE_URL: url, PORT: "1" } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

test("npm start migrates an empty PostgreSQL database, then says the store does not run on it yet", async () => {
  const url = await newPostgresDatabase(null);
  const first = await start(url);
  expect(first.code).toBe(1);
  expect(first.stdout).toContain(
    "Applied the PostgreSQL migrations (prisma/postgresql/migrations) to postgres@127.0.0.1",
  );
  expect(first.stderr).toContain("Guildhall cannot serve from PostgreSQL yet");

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const applied = await client.query<{ name: string }>(
      "SELECT migration_name AS name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name",
    );
    const folder = fs
      .readdirSync(path.join(ROOT, "prisma", "postgresql", "migrations"))
      .filter((name) => /^\d{14}_/.test(name))
      .sort();
    expect(applied.rows.map((row) => row.name)).toEqual(folder);
    const triggers = await client.query(
      "SELECT tgname FROM pg_trigger WHERE tgrelid = 'members'::regclass AND NOT tgisinternal",
    );
    expect(triggers.rowCount).toBeGreaterThanOrEqual(5);
  } finally {
    await client.end();
  }

  // Started again: nothing left to apply, the same plain answer.
  const second = await start(url);
  expect(second.code).toBe(1);
  expect(second.stderr).toContain("Guildhall cannot serve from PostgreSQL yet");
});
