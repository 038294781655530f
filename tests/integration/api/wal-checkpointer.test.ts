// The WAL is checkpointed by a worker thread, not inside the server's commits: after a large write the server's
// own connection has automatic checkpoints off, and the rows still reach the database file within a second.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, inject, test } from "vitest";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "guildhall-wal-"));
const file = path.join(dir, "wal.db");
process.env.DATABASE_URL = `file:${file}`;
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// About SQLite's own WAL file: the PostgreSQL run (which would only run it on SQLite again) skips it. PostgreSQL's
// write-ahead log is checkpointed by its own server; nothing of Guildhall's runs there to test.
const onSqlite = inject("integrationPostgres") === null;

test.runIf(onSqlite)("commits only append to the log; the worker copies it into the database file", async () => {
  const { db, closeDatabase } = await import("@/lib/guild-api/store/db");
  const { startWalCheckpointer } = await import("@/lib/guild-api/store/wal-checkpointer");
  db().exec("CREATE TABLE filler (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
  db().pragma("wal_checkpoint(TRUNCATE)");
  const checkpointer = startWalCheckpointer(100);
  try {
    expect(db().pragma("wal_autocheckpoint", { simple: true })).toBe(0n);
    const sizeBefore = fs.statSync(file).size;
    const insert = db().prepare("INSERT INTO filler (body) VALUES (?)");
    db().transaction(() => {
      for (let i = 0; i < 3_000; i++) insert.run("x".repeat(2_000)); // about 6 MB: well past 1,000 pages
    })();
    expect(fs.statSync(file).size).toBe(sizeBefore); // SQLite's own checkpoint would have grown the file by now
    await expect.poll(() => fs.statSync(file).size, { timeout: 5_000 }).toBeGreaterThan(sizeBefore + 5_000_000);
  } finally {
    await checkpointer.stop();
    closeDatabase();
  }
});
