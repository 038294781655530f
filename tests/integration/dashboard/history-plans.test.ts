// The audit history's reads that run on every Bans and Cases render must seek, whatever the size of the history: asked
// to order by createdAt, SQLite's planner preferred walking (guildId, createdAt) to skip a sort, reading the guild's
// whole history (the soak's p99 drift: 17 and 20 ms at 46,000 entries, growing by 13,000 an hour). This captures the
// SQL Prisma sends for them and asks SQLite for its plan. SQLite only: PostgreSQL plans from its statistics.
import Database from "better-sqlite3";
import { afterAll, beforeAll, expect, test } from "vitest";
import { testServerForFile } from "../harness";

testServerForFile();

const onSqlite = process.env.INTEGRATION_DATABASE !== "postgresql";
const GUILD = "100000000000000001";

// Every statement a better-sqlite3 connection of this process prepares, while `recording`. Installed before the
// dashboard's Prisma client connects: its adapter keeps the prepare it finds then.
let recording: string[] | null = null;
const prepare = Database.prototype.prepare;
Database.prototype.prepare = function (this: Database.Database, source: string) {
  recording?.push(source);
  return prepare.call(this, source);
} as typeof prepare;
afterAll(() => {
  Database.prototype.prepare = prepare;
});

async function preparedDuring(run: () => Promise<unknown>): Promise<string[]> {
  recording = [];
  try {
    await run();
    return recording;
  } finally {
    recording = null;
  }
}

let direct: Database.Database;
/** SQLite's plan for `sql`, its steps' details joined ("SEARCH … USING INDEX …"). */
const planOf = (sql: string) =>
  direct
    .prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .all(
      ...sql
        .split("?")
        .slice(1)
        .map(() => null),
    ) // a plan needs its parameters bound, whatever their values
    .map((step) => (step as { detail: string }).detail)
    .join("; ");

beforeAll(() => {
  if (!onSqlite) return;
  direct = new Database(process.env.DATABASE_URL!.replace(/^file:/, ""), { readonly: true });
});
afterAll(() => direct?.close());

const historyReads = (statements: string[]) =>
  statements.filter((sql) => /^SELECT .* FROM `main`\.`audit_history_entries` WHERE/s.test(sql));

test.runIf(onSqlite)("the Bans page's 'banned by' seeks each target's entries", async () => {
  const { latestActionsOn } = await import("@/lib/dashboard/audit/history");
  const [read, ...more] = historyReads(
    await preparedDuring(() => latestActionsOn(GUILD, ["Create Guild Ban", "Bulk Guild Ban"], ["500", "501"])),
  );
  expect(more).toEqual([]);
  expect(planOf(read)).toMatch(
    /USING INDEX audit_history_entries_guildId_targetId_createdAt_idx \(guildId=\? AND targetId=\?\)/,
  );
});

test.runIf(onSqlite)("the cases' sync seeks the entries not yet made into cases, oldest first", async () => {
  const { syncCases } = await import("@/lib/dashboard/cases/store");
  const [read] = historyReads(await preparedDuring(() => syncCases(GUILD)));
  expect(read).toMatch(/casesDerived/);
  expect(planOf(read)).toMatch(
    /USING INDEX audit_history_entries_guildId_casesDerived_createdAt_idx \(guildId=\? AND casesDerived=\?\)/,
  );
});
