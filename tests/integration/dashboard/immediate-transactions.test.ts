// The dashboard's transactions on SQLite take the file's write lock from their first statement
// (lib/dashboard/immediate-transactions.ts): one that reads before it writes is not failed by another connection's
// write in between (the moderation scheduler's worker thread has a connection of its own, as another instance does);
// the other connection waits for its commit instead.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, expect, inject, test } from "vitest";

// PostgreSQL's transactions lock what they write, as its own tests show (tests/postgres).
const onSqlite = inject("integrationPostgres") === null;

let dir: string;
let prisma: typeof import("@/lib/dashboard/db").prisma;
let other: Database.Database;

beforeAll(async () => {
  if (!onSqlite) return;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "guildhall-immediate-"));
  const file = path.join(dir, "immediate.db");
  fs.copyFileSync(inject("templateDatabase"), file);
  process.env.DATABASE_URL = `file:${file}`;
  ({ prisma } = await import("@/lib/dashboard/db"));
  // Another connection to the file, giving up on a held lock after 50 ms.
  other = new Database(file, { timeout: 50 });
});

afterAll(async () => {
  other?.close();
  await prisma?.$disconnect();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test.runIf(onSqlite)(
  "a transaction that reads first holds the write lock: another connection's write waits for it",
  async () => {
    let otherWrite: unknown = null;
    await prisma.$transaction(async (tx) => {
      const counter = await tx.caseCounter.findUnique({ where: { guildId: "42" } });
      expect(counter).toBeNull();
      // Another connection writes between this transaction's read and its write.
      try {
        other.prepare("INSERT INTO case_counters (guildId, last) VALUES ('43', 7)").run();
      } catch (error) {
        otherWrite = error;
      }
      await tx.caseCounter.create({ data: { guildId: "42", last: 1 } });
    });
    // The other write could not come in between: it found the lock held (with a deferred BEGIN it would have, and the
    // transaction's own write would have failed with SQLITE_BUSY_SNAPSHOT).
    expect(otherWrite).toMatchObject({ code: "SQLITE_BUSY" });
    expect(await prisma.caseCounter.findUnique({ where: { guildId: "42" } })).toMatchObject({ last: 1 });
    // Once it committed, the other connection writes.
    other.prepare("INSERT INTO case_counters (guildId, last) VALUES ('43', 7)").run();
    expect(await prisma.caseCounter.findUnique({ where: { guildId: "43" } })).toMatchObject({ last: 7 });
  },
);

test.runIf(onSqlite)(
  "when the write lock stays taken past the busy timeout, the transaction fails alone and the next one runs",
  { timeout: 30_000 },
  async () => {
    // The other connection holds the write lock longer than Prisma's connection waits for it (5 s).
    other.exec("BEGIN IMMEDIATE");
    let failure: unknown = null;
    try {
      await prisma.$transaction(async (tx) => tx.caseCounter.create({ data: { guildId: "44", last: 1 } }));
    } catch (error) {
      failure = error;
    } finally {
      other.exec("ROLLBACK");
    }
    expect(failure).not.toBeNull();
    expect(await prisma.caseCounter.findUnique({ where: { guildId: "44" } })).toBeNull();
    // The client is not left waiting on the adapter's mutex: the next transaction runs.
    await prisma.$transaction(async (tx) => tx.caseCounter.create({ data: { guildId: "45", last: 2 } }), {
      maxWait: 2_000,
    });
    expect(await prisma.caseCounter.findUnique({ where: { guildId: "45" } })).toMatchObject({ last: 2 });
  },
);
