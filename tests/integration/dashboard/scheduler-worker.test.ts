// The moderation scheduler in its worker thread (lib/dashboard/cases/scheduler-thread.ts), in a real server process
// (tests/integration/dashboard/scheduler-server.ts: server.ts and the scheduler, as `npm start` runs them) on a real
// SQLite file, over real HTTP: a due temporary ban is ended by the worker (its lines say so, and the server's line for
// the unban carries the pass's request id), filed, and made a case; a SIGTERM in the middle of a pass lets the batch it
// is running finish and be written, claims no other, and only then does the process exit.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { startServerProcess, type ServerProcess } from "../server-process";

// The seeding writes the SQLite file below the API; the PostgreSQL run has tests/postgres/scheduled-unbans.test.ts.
const onSqlite = inject("integrationPostgres") === null;

const SERVER = ["--conditions=react-server", "--import", "tsx", "tests/integration/dashboard/scheduler-server.ts"];
/** A batch of the scheduler (schedule.ts CLAIM_BATCH). */
const BATCH = 50;

let dir: string;
let file: string;
let server: ServerProcess;
let botToken: string;
let guildId: string;
let botUserId: string;
let db: Database.Database;

/** A time as Prisma writes the dashboard's in SQLite (ISO text). */
const prismaTime = (ms: number) => new Date(ms).toISOString().replace("Z", "+00:00");

let seeded = 0;
/**
 * `count` users banned by the bot with a temporary ban that fell due a second ago: the users and bans in the API's
 * tables, the ban cases (numbered from 1,000,000 up) and their scheduled ends in the dashboard's. Answers the rows'
 * ids.
 */
function seedDueBans(count: number): string[] {
  const now = Date.now();
  const rows: string[] = [];
  const user = db.prepare("INSERT INTO users (id, username, created_at) VALUES (?, ?, ?)");
  const ban = db.prepare("INSERT INTO bans (guild_id, user_id, reason, created_at) VALUES (?, ?, ?, ?)");
  const kase = db.prepare(
    `INSERT INTO moderation_cases (id, guildId, number, type, targetId, targetName, moderatorId, moderatorName,
       moderatorBot, reason, durationSeconds, endsAt, historyId, source, createdAt)
     VALUES (?, ?, ?, 'ban', ?, ?, ?, 'Guildhall Demo', 1, 'raid', 60, ?, ?, 'dashboard', ?)`,
  );
  const row = db.prepare(
    `INSERT INTO scheduled_moderations (id, guildId, kind, userId, caseId, actorId, runAt, status, attempts, createdAt)
     VALUES (?, ?, 'unban', ?, ?, ?, ?, 'pending', 0, ?)`,
  );
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const n = ++seeded;
      const userId = String(900_000_000_000_000_000n + BigInt(n));
      user.run(BigInt(userId), `temporarily_banned_${n}`, BigInt(now));
      ban.run(BigInt(guildId), BigInt(userId), "raid", BigInt(now));
      kase.run(
        `case-${n}`,
        guildId,
        1_000_000 + n,
        userId,
        `temporarily_banned_${n}`,
        botUserId,
        prismaTime(now - 1000),
        `history-${n}`,
        prismaTime(now - 61_000),
      );
      row.run(`row-${n}`, guildId, userId, `case-${n}`, botUserId, prismaTime(now - 1000), prismaTime(now - 61_000));
      rows.push(`row-${n}`);
    }
  })();
  return rows;
}

const statuses = (rows: readonly string[]) =>
  db
    .prepare(
      `SELECT id, status, attempts, userId FROM scheduled_moderations WHERE id IN (${rows.map(() => "?").join(",")})`,
    )
    .all(...rows) as Array<{ id: string; status: string; attempts: bigint; userId: string }>;

const stillBanned = (userIds: readonly string[]) =>
  new Set(
    (
      db
        .prepare(
          `SELECT user_id AS id FROM bans WHERE guild_id = ? AND user_id IN (${userIds.map(() => "?").join(",")})`,
        )
        .all(BigInt(guildId), ...userIds.map(BigInt)) as Array<{ id: bigint }>
    ).map((ban) => String(ban.id)),
  );

async function until(check: () => boolean, timeoutMs: number, what: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The server's log lines (JSON), parsed. */
const lines = () =>
  server
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

beforeAll(async () => {
  if (!onSqlite) return;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "guildhall-scheduler-"));
  file = path.join(dir, "scheduler.db");
  const template = inject("templateDatabase");
  fs.copyFileSync(template, file);
  fs.copyFileSync(`${template}.secrets.json`, `${file}.secrets.json`);
  ({ botToken, guildId } = JSON.parse(fs.readFileSync(`${file}.secrets.json`, "utf8")) as {
    botToken: string;
    guildId: string;
  });
  db = new Database(file);
  db.pragma("busy_timeout = 5000");
  db.defaultSafeIntegers(true);
  botUserId = String(
    (db.prepare("SELECT bot_user_id AS id FROM applications WHERE name = 'Guildhall Demo'").get() as { id: bigint }).id,
  );
  server = await startServerProcess(
    file,
    {
      GUILD_API_AUTH: "bot",
      GUILD_API_BOT_TOKEN: botToken,
      SCHEDULER_INTERVAL_MS: "200",
      LOG_FORMAT: "json",
      RATE_LIMITS: "off",
    },
    SERVER,
  );
});

afterAll(async () => {
  await server?.stop();
  db?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe.runIf(onSqlite)("the moderation scheduler's worker thread", () => {
  test("ends a due temporary ban over HTTP from its worker, files it and makes it a case", async () => {
    const [row] = seedDueBans(1);
    const [{ userId }] = statuses([row]);
    await until(
      () => statuses([row])[0].status === "done",
      30_000,
      () => `the row is ${statuses([row])[0].status}:\n${server.output()}`,
    );
    expect(stillBanned([userId]).size).toBe(0);
    expect(
      (
        await fetch(`${server.url}/api/v10/guilds/${guildId}/bans/${userId}`, {
          headers: { authorization: `Bot ${botToken}` },
        })
      ).status,
    ).toBe(404);

    // Started in its thread, not fallen back to the server's.
    expect(lines().some((line) => line.msg === "the moderation scheduler runs in its worker thread")).toBe(true);
    expect(lines().filter((line) => /could not start|died/.test(String(line.msg)))).toEqual([]);
    // The pass's line comes from the worker; the unban's line from the server's thread, under the pass's request id.
    await until(
      () => lines().some((line) => line.msg === "scheduled moderation ran"),
      5_000,
      () => server.output(),
    );
    const pass = lines().find((line) => line.msg === "scheduled moderation ran")!;
    expect(pass).toMatchObject({ thread: "scheduler", component: "cases", ran: 1 });
    expect(String(pass.request_id)).toMatch(/^scheduler-/);
    const unban = lines().find((line) => line.operation === "Remove Guild Ban");
    expect(unban).toMatchObject({ status: 204, request_id: pass.request_id });
    expect(unban).not.toHaveProperty("thread");

    // Filed in the history and made a case, as the dashboard's own unban would be.
    const entry = db
      .prepare("SELECT action, reason FROM audit_history_entries WHERE guildId = ? AND targetId = ?")
      .get(guildId, userId);
    expect(entry).toEqual({ action: "Remove Guild Ban", reason: "Temporary ban ended (case #1000001)" });
    const unbanCase = db
      .prepare("SELECT type, reason FROM moderation_cases WHERE guildId = ? AND targetId = ? AND type = 'unban'")
      .get(guildId, userId);
    expect(unbanCase).toEqual({ type: "unban", reason: "Temporary ban ended (case #1000001)" });
  }, 60_000);

  test("a SIGTERM mid-pass: the running batch finishes and is written, no other is claimed, then it exits 0", async () => {
    const rows = seedDueBans(20 * BATCH);
    // The pass has claimed its first batch.
    await until(
      () => statuses(rows).some((row) => row.status !== "pending"),
      30_000,
      () => `no batch claimed:\n${server.output()}`,
    );
    const exited = new Promise<number | null>((resolve) => server.child.once("exit", (code) => resolve(code)));
    server.signal("SIGTERM");
    expect(await exited).toBe(0);

    const after = statuses(rows);
    const byStatus = (status: string) => after.filter((row) => row.status === status);
    // Nothing left half done: every claimed row was run and written before the process exited.
    expect(byStatus("running")).toEqual([]);
    const done = byStatus("done");
    const pending = byStatus("pending");
    expect(done.length + pending.length).toBe(rows.length);
    // Whole batches, and not all of them: the pass stopped claiming once told to stop.
    expect(done.length).toBeGreaterThan(0);
    expect(done.length % BATCH).toBe(0);
    expect(pending.length).toBeGreaterThan(0);
    expect(pending.filter((row) => Number(row.attempts) !== 0)).toEqual([]);
    // What the rows say is what the guild has: the done ones unbanned, the rest still banned.
    const banned = stillBanned(after.map((row) => row.userId));
    expect(done.filter((row) => banned.has(row.userId))).toEqual([]);
    expect(pending.filter((row) => !banned.has(row.userId))).toEqual([]);
    // Each unban made is filed (in the batch's transaction, before the exit).
    const filed = db
      .prepare(
        `SELECT COUNT(*) AS n FROM audit_history_entries WHERE guildId = ? AND action = 'Remove Guild Ban'
           AND reason LIKE 'Temporary ban ended (case #%'`,
      )
      .get(guildId) as { n: bigint };
    expect(Number(filed.n)).toBe(done.length + 1);
    // The worker's pass ended after the signal, having run exactly those rows, and the server's shutdown waited for it.
    const afterSignal = lines().slice(lines().findIndex((line) => line.msg === "signal received"));
    const passEnds = afterSignal.filter((line) => line.msg === "scheduled moderation ran");
    expect(passEnds.map((line) => line.ran)).toEqual([done.length]);
    expect(afterSignal.indexOf(passEnds[0])).toBeLessThan(afterSignal.findIndex((line) => line.msg === "shut down"));
  }, 90_000);
});
