// The store's SQLite driver: one connection shared by every async context, transactions carried by the context that
// began them. What must hold for the store to be asynchronous without changing what a request can see.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, expect, test } from "vitest";
import { TransactionBodyError } from "@/lib/guild-api/store/driver";
import { SqliteDriver } from "@/lib/guild-api/store/sqlite-driver";

let dir: string;
let driver: SqliteDriver;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "guildhall-driver-"));
  const connection = new Database(path.join(dir, "store.db"));
  connection.pragma("journal_mode = WAL");
  connection.defaultSafeIntegers(true);
  connection.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)");
  connection.exec("CREATE TABLE counters (name TEXT PRIMARY KEY, n INTEGER NOT NULL)");
  connection.exec("INSERT INTO counters (name, n) VALUES ('hits', 0)");
  driver = new SqliteDriver(connection);
});

afterEach(() => {
  driver.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A promise and the function that settles it: a step one context waits on until the test lets it go on. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const countNotes = () => driver.value<bigint>("SELECT COUNT(*) FROM notes");

test("another context never reads a transaction's uncommitted row: not while it is open, not after it rolls back", async () => {
  const inside = gate();
  const proceed = gate();
  const events: string[] = [];
  const a = driver
    .transaction(async () => {
      await driver.run("INSERT INTO notes (text) VALUES ('uncommitted')");
      inside.open();
      await proceed.opened;
      events.push("A throws");
      throw new Error("A fails after its write");
    })
    .catch((error: Error) => error.message);
  await inside.opened;
  // B reads while A holds its row: the read waits for A to end.
  const b = countNotes().then((count) => {
    events.push(`B read ${count}`);
    return count;
  });
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(events).toEqual([]);
  proceed.open();
  expect(await a).toBe("A fails after its write");
  expect(await b).toBe(0n);
  expect(events).toEqual(["A throws", "B read 0"]);
  expect(await countNotes()).toBe(0n);
});

test("a read issued during another context's transaction sees its row only once committed", async () => {
  const inside = gate();
  const proceed = gate();
  const a = driver.transaction(async () => {
    await driver.run("INSERT INTO notes (text) VALUES ('committed')");
    inside.open();
    await proceed.opened;
    return "A committed";
  });
  await inside.opened;
  const b = driver.all<{ text: string }>("SELECT text FROM notes");
  proceed.open();
  expect(await a).toBe("A committed");
  expect(await b).toEqual([{ text: "committed" }]);
});

test("inside a transaction, its own writes read back at once, across awaits", async () => {
  const read = await driver.writeTransaction(async () => {
    await driver.run("INSERT INTO notes (text) VALUES (?)", "mine");
    await new Promise((resolve) => setImmediate(resolve));
    expect(driver.inTransaction()).toBe(true);
    return driver.values<string>("SELECT text FROM notes");
  });
  expect(read).toEqual(["mine"]);
  expect(driver.inTransaction()).toBe(false);
});

test("a failed nested transaction rolls back its own work only; the outer work commits", async () => {
  await driver.transaction(async () => {
    await driver.run("INSERT INTO notes (text) VALUES ('outer')");
    await expect(
      driver.transaction(async () => {
        await driver.run("INSERT INTO notes (text) VALUES ('inner')");
        expect(await countNotes()).toBe(2n);
        throw new Error("inner fails");
      }),
    ).rejects.toThrow("inner fails");
    await driver.writeTransaction(async () => {
      await driver.run("INSERT INTO notes (text) VALUES ('second inner')");
    });
  });
  expect(await driver.values("SELECT text FROM notes ORDER BY id")).toEqual(["outer", "second inner"]);
});

test("a failure after a nested transaction succeeded rolls everything back", async () => {
  await expect(
    driver.transaction(async () => {
      await driver.transaction(() => driver.run("INSERT INTO notes (text) VALUES ('inner')"));
      throw new Error("outer fails");
    }),
  ).rejects.toThrow("outer fails");
  expect(await countNotes()).toBe(0n);
});

test("50 concurrent write transactions that read, yield and write one counter end exact", async () => {
  const order: number[] = [];
  await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      driver.writeTransaction(async () => {
        const n = (await driver.value<bigint>("SELECT n FROM counters WHERE name = 'hits'"))!;
        await new Promise((resolve) => setImmediate(resolve));
        await driver.run("UPDATE counters SET n = ? WHERE name = 'hits'", n + 1n);
        order.push(i);
      }),
    ),
  );
  expect(await driver.value("SELECT n FROM counters WHERE name = 'hits'")).toBe(50n);
  // Serialized in the order they asked.
  expect(order).toEqual(Array.from({ length: 50 }, (_, i) => i));
});

test("two nested transactions of one transaction at the same time are refused, and the outer one rolls back", async () => {
  await expect(
    driver.transaction(async () => {
      await driver.run("INSERT INTO notes (text) VALUES ('outer')");
      await Promise.all([
        driver.transaction(() => driver.run("INSERT INTO notes (text) VALUES ('first')")),
        driver.transaction(() => driver.run("INSERT INTO notes (text) VALUES ('second')")),
      ]);
    }),
  ).rejects.toBeInstanceOf(TransactionBodyError);
  expect(await countNotes()).toBe(0n);
});

test("work a transaction's body left running after it ended no longer belongs to it", async () => {
  let late: Promise<bigint | undefined> | undefined;
  const inside = gate();
  await driver.transaction(async () => {
    await driver.run("INSERT INTO notes (text) VALUES ('first')");
    late = inside.opened.then(() => countNotes());
  });
  const other = gate();
  const b = driver.transaction(async () => {
    await driver.run("INSERT INTO notes (text) VALUES ('held by B')");
    await other.opened;
    throw new Error("B rolls back");
  });
  inside.open();
  await new Promise((resolve) => setTimeout(resolve, 20));
  other.open();
  await expect(b).rejects.toThrow("B rolls back");
  // The late read waited for B like any outsider: it saw neither B's row nor a half of B.
  expect(await late).toBe(1n);
});

test("rows and row read columns as arrays; run reports the rows changed", async () => {
  const inserted = await driver.run("INSERT INTO notes (text) VALUES ('a'), ('b')");
  expect(inserted).toEqual({ changes: 2 });
  expect(await driver.rows("SELECT id, text FROM notes ORDER BY id")).toEqual([
    [1n, "a"],
    [2n, "b"],
  ]);
  expect(await driver.row("SELECT id, text FROM notes WHERE id = ?", 2n)).toEqual([2n, "b"]);
  // One text read in every mode keeps each caller's shape.
  const text = "SELECT id, text FROM notes WHERE id = ?";
  expect(await driver.value(text, 1n)).toBe(1n);
  expect(await driver.get(text, 1n)).toEqual({ id: 1n, text: "a" });
  expect(await driver.row(text, 1n)).toEqual([1n, "a"]);
  expect(await driver.get(text, 1n)).toEqual({ id: 1n, text: "a" });
  expect(await driver.get("SELECT * FROM notes WHERE id = 99")).toBeUndefined();
});

test("work a transaction body schedules runs as an outsider when told to: it waits for the transaction to end", async () => {
  const scheduled = gate();
  let seen: bigint | undefined;
  let ran: Promise<void> | undefined;
  const proceed = gate();
  const a = driver.transaction(async () => {
    await driver.run("INSERT INTO notes (text) VALUES ('not yet committed')");
    setImmediate(() =>
      driver.outside(() => {
        ran = countNotes().then((count) => {
          seen = count;
        });
        scheduled.open();
      }),
    );
    await scheduled.opened;
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Still open: the scheduled read waits instead of reading this transaction's row.
    expect(seen).toBeUndefined();
    await proceed.opened;
    throw new Error("A rolls back");
  });
  proceed.open();
  await expect(a).rejects.toThrow("A rolls back");
  await ran;
  expect(seen).toBe(0n);
});
