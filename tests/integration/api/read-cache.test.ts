// The read cache answers from memory only while the database cannot have changed: after a write on this connection,
// after a rollback (rows read inside the rolled-back transaction must not survive it), after another connection's
// commit, and after the connection is replaced. It is shared by every async context, so it must never hand one
// context another's uncommitted rows.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, expect, test } from "vitest";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "guildhall-read-cache-"));
const file = path.join(dir, "cache.db");
process.env.DATABASE_URL = `file:${file}`;
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test("cached rows follow writes, rollbacks, other connections and a new connection", async () => {
  const { db, sql, transaction, closeDatabase } = await import("@/lib/guild-api/store/db");
  const { readCache } = await import("@/lib/guild-api/store/read-cache");
  db().exec("CREATE TABLE things (id INTEGER PRIMARY KEY, name TEXT NOT NULL); INSERT INTO things VALUES (1, 'first')");
  let loads = 0;
  const nameOf = readCache(async (id: bigint) => {
    loads++;
    return (await sql.get<{ name: string }>("SELECT name FROM things WHERE id = ?", id))?.name;
  });

  expect(await nameOf(1n)).toBe("first");
  expect(await nameOf(1n)).toBe("first");
  expect(loads).toBe(1); // the second read came from memory
  // A hit is the value itself, not a promise of it: the API's hot path answers Get Guild without one.
  expect(nameOf(1n)).toBe("first");

  await sql.run("UPDATE things SET name = 'second' WHERE id = 1");
  const afterWrite = nameOf(1n);
  expect(afterWrite).toBeInstanceOf(Promise); // a miss loads again
  expect(await afterWrite).toBe("second");

  await expect(
    transaction(async () => {
      await sql.run("UPDATE things SET name = 'rolled back' WHERE id = 1");
      expect(await nameOf(1n)).toBe("rolled back"); // read inside the transaction, after its write
      throw new Error("abort");
    }),
  ).rejects.toThrow("abort");
  expect(await nameOf(1n)).toBe("second");

  const other = new Database(file);
  other.prepare("UPDATE things SET name = 'from elsewhere' WHERE id = 1").run();
  other.close();
  expect(await nameOf(1n)).toBe("from elsewhere");

  closeDatabase();
  const replacement = new Database(file);
  replacement.prepare("UPDATE things SET name = 'after reopen' WHERE id = 1").run();
  replacement.close();
  expect(await nameOf(1n)).toBe("after reopen");
  closeDatabase();
});

test("another context never gets a transaction's uncommitted row from the cache, before or after its rollback", async () => {
  const { sql, transaction } = await import("@/lib/guild-api/store/db");
  const { readCache } = await import("@/lib/guild-api/store/read-cache");
  const nameOf = readCache(
    async (id: bigint) => (await sql.get<{ name: string }>("SELECT name FROM things WHERE id = ?", id))?.name,
  );
  const committed = await nameOf(1n);
  let written!: () => void;
  const wrote = new Promise<void>((resolve) => (written = resolve));
  let proceed!: () => void;
  const proceeding = new Promise<void>((resolve) => (proceed = resolve));
  const a = transaction(async () => {
    await sql.run("UPDATE things SET name = 'uncommitted' WHERE id = 1");
    expect(await nameOf(1n)).toBe("uncommitted"); // now in the cache, for this transaction
    written();
    await proceeding;
    throw new Error("abort");
  });
  await wrote;
  const b = nameOf(1n); // another context: waits for A to end
  proceed();
  await expect(a).rejects.toThrow("abort");
  expect(await b).toBe(committed);
  expect(await nameOf(1n)).toBe(committed);
});

test("cached values are frozen: a caller cannot change what later requests see", async () => {
  const { sql } = await import("@/lib/guild-api/store/db");
  const { readCache } = await import("@/lib/guild-api/store/read-cache");
  const rows = readCache((_: string) => sql.all<{ id: bigint; name: string }>("SELECT id, name FROM things"));
  const first = await rows("all");
  expect(() => first.push({ id: 2n, name: "intruder" })).toThrow(TypeError);
  expect(() => {
    first[0].name = "changed";
  }).toThrow(TypeError);
  expect(await rows("all")).toHaveLength(1);
});

test("a cache with a generation outlives writes to other tables, and follows writes, rollbacks and other connections to its own", async () => {
  const { db, sql, transaction, closeDatabase } = await import("@/lib/guild-api/store/db");
  const { readCache } = await import("@/lib/guild-api/store/read-cache");
  db().exec(`CREATE TABLE watched (id INTEGER PRIMARY KEY, name TEXT NOT NULL); INSERT INTO watched VALUES (1, 'first');
    CREATE TABLE elsewhere (id INTEGER PRIMARY KEY);
    CREATE TABLE stamps (name TEXT PRIMARY KEY, value INTEGER NOT NULL); INSERT INTO stamps VALUES ('watched', random());
    CREATE TRIGGER watched_stamp AFTER UPDATE ON watched BEGIN UPDATE stamps SET value = random() WHERE name = 'watched'; END;`);
  let loads = 0;
  const nameOf = readCache(
    async (id: bigint) => {
      loads++;
      return (await sql.get<{ name: string }>("SELECT name FROM watched WHERE id = ?", id))!.name;
    },
    {
      generation: () => {
        stampReads++;
        return sql.value("SELECT value FROM stamps WHERE name = 'watched'");
      },
    },
  );
  let stampReads = 0;
  expect(await nameOf(1n)).toBe("first");
  // No write since the stamp was read: answered from memory without reading the stamp again.
  for (let i = 0; i < 3; i++) expect(await nameOf(1n)).toBe("first");
  expect(stampReads).toBe(1);
  for (let i = 0; i < 3; i++) {
    await sql.run("INSERT INTO elsewhere DEFAULT VALUES");
    expect(await nameOf(1n)).toBe("first");
  }
  expect(loads).toBe(1); // writes to other tables left it in memory
  expect(stampReads).toBe(4); // each after a write: the stamp read again, the value kept

  await sql.run("UPDATE watched SET name = 'second' WHERE id = 1");
  expect(await nameOf(1n)).toBe("second");
  expect(loads).toBe(2);

  await expect(
    transaction(async () => {
      await sql.run("UPDATE watched SET name = 'rolled back' WHERE id = 1");
      expect(await nameOf(1n)).toBe("rolled back");
      throw new Error("abort");
    }),
  ).rejects.toThrow("abort");
  expect(await nameOf(1n)).toBe("second");
  await sql.run("UPDATE watched SET name = 'third' WHERE id = 1");
  expect(await nameOf(1n)).toBe("third");

  const other = new Database(file);
  other.prepare("UPDATE watched SET name = 'from elsewhere' WHERE id = 1").run();
  other.close();
  expect(await nameOf(1n)).toBe("from elsewhere");
  closeDatabase();
});
