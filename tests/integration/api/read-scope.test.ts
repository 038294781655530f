// A read scope (store/read-cache.ts) reads other connections' commits once, when it opens: inside it, cached rows are
// as of that moment, but this connection's own writes and rollbacks are still seen on the very next read; the next
// scope, and any read outside a scope, sees what other connections committed meanwhile.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, expect, test } from "vitest";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "guildhall-read-scope-"));
const file = path.join(dir, "scope.db");
process.env.DATABASE_URL = `file:${file}`;
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test("inside a scope: own writes and rollbacks at once, other connections' commits from the next scope", async () => {
  const { db, sql, transaction, closeDatabase } = await import("@/lib/guild-api/store/db");
  const { readCache, readScope } = await import("@/lib/guild-api/store/read-cache");
  db().exec("CREATE TABLE things (id INTEGER PRIMARY KEY, name TEXT NOT NULL); INSERT INTO things VALUES (1, 'first')");
  const nameOf = readCache((id: bigint) => sql.value<string>("SELECT name FROM things WHERE id = ?", id));
  const other = new Database(file);

  await readScope(async () => {
    expect(await nameOf(1n)).toBe("first");
    await sql.run("UPDATE things SET name = 'own write' WHERE id = 1");
    expect(await nameOf(1n)).toBe("own write");
    await expect(
      transaction(async () => {
        await sql.run("UPDATE things SET name = 'rolled back' WHERE id = 1");
        expect(await nameOf(1n)).toBe("rolled back");
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    expect(await nameOf(1n)).toBe("own write");

    other.prepare("UPDATE things SET name = 'from elsewhere' WHERE id = 1").run();
    expect(await nameOf(1n)).toBe("own write"); // the scope's moment
  });
  expect(await nameOf(1n)).toBe("from elsewhere"); // outside a scope: every read checks

  await readScope(async () => expect(await nameOf(1n)).toBe("from elsewhere"));
  other.prepare("UPDATE things SET name = 'between scopes' WHERE id = 1").run();
  await readScope(async () => expect(await nameOf(1n)).toBe("between scopes"));

  other.close();
  closeDatabase();
});

test("unknown keys the cache is told not to keep are looked up again", async () => {
  const { sql } = await import("@/lib/guild-api/store/db");
  const { readCache } = await import("@/lib/guild-api/store/read-cache");
  let loads = 0;
  const nameOf = readCache(
    (id: bigint) => {
      loads++;
      return sql.value<string>("SELECT name FROM things WHERE id = ?", id);
    },
    { keep: (name) => name !== undefined },
  );
  expect(await nameOf(404n)).toBeUndefined();
  expect(await nameOf(404n)).toBeUndefined();
  expect(loads).toBe(2);
  expect(await nameOf(1n)).toBe("between scopes");
  expect(await nameOf(1n)).toBe("between scopes");
  expect(loads).toBe(3);
});
