// The dashboard's SQLite adapter (lib/dashboard/sqlite-adapter.ts). Its transactions take the file's write lock from
// their first statement: one that reads before it writes is not failed by another connection's write in between (the
// moderation scheduler's worker thread has a connection of its own, as another instance does); the other connection
// waits for its commit instead. Its other statements run one per turn of the event loop, so a burst of them does not
// hold the thread that answers the API.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { nextTurn } from "@/lib/server/next-turn";

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

test.runIf(onSqlite)(
  "a burst of reads outside a transaction runs one per turn: other work gets in between",
  async () => {
    await prisma.caseCounter.create({ data: { guildId: "50", last: 3 } });
    let done = 0;
    const reads = Array.from({ length: 20 }, () =>
      // findFirst: Prisma would batch findUnique calls of one tick into one statement.
      prisma.caseCounter.findFirst({ where: { guildId: "50" } }).then((row) => {
        done++;
        return row;
      }),
    );
    // What the burst had done at each of the next three turns: with every read answered in one go, 20 each time.
    const seen: number[] = [];
    for (let turn = 0; turn < 3; turn++) {
      await nextTurn();
      seen.push(done);
    }
    expect(seen.at(-1)).toBeLessThan(5);
    const rows = await Promise.all(reads);
    expect(rows.every((row) => row?.last === 3)).toBe(true);
  },
);

test.runIf(onSqlite)("a statement that fails in its turn fails alone: the next ones run", async () => {
  await prisma.caseCounter.create({ data: { guildId: "51", last: 1 } });
  const [duplicate, after] = await Promise.allSettled([
    prisma.caseCounter.create({ data: { guildId: "51", last: 2 } }),
    prisma.caseCounter.update({ where: { guildId: "51" }, data: { last: 5 } }),
  ]);
  expect(duplicate).toMatchObject({ status: "rejected", reason: { code: "P2002" } });
  expect(after).toMatchObject({ status: "fulfilled", value: { last: 5 } });
});
