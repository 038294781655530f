// Temporary bans ending on PostgreSQL with several dashboard instances (issue #32): each instance runs the moderation
// scheduler (tests/postgres/scheduler-instance.ts, the loop every Guildhall process starts) against one database and
// one guild API process. Bans falling due at once are ended exactly once between two instances (FOR UPDATE SKIP
// LOCKED: one GUILD_BAN_REMOVE per user in the outbox, one unban case each); after both are killed, a new instance
// ends what came due meanwhile and what a dead instance had claimed once its claim lapses.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { snowflakeAt } from "@/lib/discord/snowflake";
import { copySqliteToPostgresql } from "@/scripts/copy-sqlite-to-postgresql";
import { startServerProcess, type ServerProcess } from "../integration/server-process";
import { newPostgresDatabase } from "./databases";

const ROOT = new URL("../..", import.meta.url).pathname;
const TSX = path.join(ROOT, "node_modules", ".bin", "tsx");

let url: string;
let api: ServerProcess;
let client: pg.Client;
let secrets: { botToken: string; guildId: string };
let botId: string;
let prisma: typeof import("@/lib/dashboard/db").prisma;
const schedulers: ChildProcess[] = [];

interface Scheduler {
  child: ChildProcess;
  output: () => string;
}

/** A scheduler instance, once it says it is running. */
async function startScheduler(): Promise<Scheduler> {
  const child = spawn(TSX, ["--conditions=react-server", "tests/postgres/scheduler-instance.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: url,
      GUILD_API_URL: `${api.url}/api`,
      GUILD_API_AUTH: "bot",
      GUILD_API_BOT_TOKEN: secrets.botToken,
      SCHEDULER_INTERVAL_MS: "100",
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  schedulers.push(child);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await until(
    () => output.includes("scheduler ready"),
    30_000,
    () => `scheduler not ready:\n${output}`,
  );
  return { child, output: () => output };
}

/** Kills a scheduler and everything tsx started for it, as a crash would. */
async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  process.kill(-child.pid!, "SIGKILL");
  await exited;
}

async function until(done: () => boolean | Promise<boolean>, timeoutMs: number, why: () => string): Promise<void> {
  const started = Date.now();
  while (!(await done())) {
    if (Date.now() - started > timeoutMs) throw new Error(why());
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

let nextUser = 0;
/** `count` users nobody has met, banned by the bot (through the API), each with a temporary ban's case and its end. */
async function temporaryBans(count: number, runAt: Date): Promise<string[]> {
  const base = snowflakeAt(Date.UTC(2025, 2, 1));
  const ids = Array.from({ length: count }, () => String(base + BigInt(++nextUser) * 4_194_304n));
  await client.query(
    "INSERT INTO users (id, username, created_at) SELECT id, 'temp_ban_' || id, 0 FROM unnest($1::bigint[]) AS t(id)",
    [ids],
  );
  const banned = await fetch(`${api.url}/api/v10/guilds/${secrets.guildId}/bulk-ban`, {
    method: "POST",
    headers: { authorization: `Bot ${secrets.botToken}`, "content-type": "application/json" },
    body: JSON.stringify({ user_ids: ids }),
  });
  expect(banned.status).toBe(200);
  const counter = await prisma.caseCounter.upsert({
    where: { guildId: secrets.guildId },
    create: { guildId: secrets.guildId, last: count },
    update: { last: { increment: count } },
  });
  const first = counter.last - count + 1;
  await prisma.moderationCase.createMany({
    data: ids.map((id, i) => ({
      id: `temp-ban-${id}`,
      guildId: secrets.guildId,
      number: first + i,
      type: "ban",
      targetId: id,
      targetName: `temp_ban_${id}`,
      moderatorId: botId,
      moderatorName: "Guildhall Bot",
      moderatorBot: true,
      reason: "raid",
      durationSeconds: 3600,
      endsAt: runAt,
      historyId: `temp-ban-history-${id}`,
    })),
  });
  await prisma.scheduledModeration.createMany({
    data: ids.map((id) => ({
      guildId: secrets.guildId,
      kind: "unban",
      userId: id,
      caseId: `temp-ban-${id}`,
      actorId: botId,
      runAt,
    })),
  });
  return ids;
}

const bansLeft = async (ids: string[]) =>
  Number(
    (
      await client.query<{ n: string }>(
        "SELECT count(*) AS n FROM bans WHERE guild_id = $1 AND user_id = ANY($2::bigint[])",
        [secrets.guildId, ids],
      )
    ).rows[0].n,
  );

/** GUILD_BAN_REMOVE events per user in the outbox (every instance's writes pass through it). */
async function unbanEvents(ids: string[]): Promise<number[]> {
  const events = await client.query<{ n: string }>(
    `SELECT count(*) AS n FROM gateway_events
     WHERE type = 'GUILD_BAN_REMOVE' AND payload::json->'user'->>'id' = ANY($1::text[]) GROUP BY payload::json->'user'->>'id'`,
    [ids],
  );
  return events.rows.map((row) => Number(row.n));
}

/** Whether every row is done and its unban filed as a case (an instance files a batch's cases after the batch). */
async function allEnded(ids: string[]): Promise<boolean> {
  const [done, unbans] = await Promise.all([
    prisma.scheduledModeration.count({ where: { userId: { in: ids }, status: "done" } }),
    prisma.moderationCase.count({ where: { guildId: secrets.guildId, type: "unban", targetId: { in: ids } } }),
  ]);
  return done === ids.length && unbans >= ids.length;
}

/** Every user's scheduled end done, one unban case each saying which ban it ended. */
async function expectEndedOnce(ids: string[]): Promise<void> {
  expect(await bansLeft(ids)).toBe(0);
  expect(await unbanEvents(ids)).toEqual(ids.map(() => 1));
  const rows = await prisma.scheduledModeration.findMany({ where: { userId: { in: ids } } });
  expect(rows.map((row) => row.status)).toEqual(ids.map(() => "done"));
  const unbans = await prisma.moderationCase.findMany({
    where: { guildId: secrets.guildId, type: "unban", targetId: { in: ids } },
  });
  expect(unbans).toHaveLength(ids.length);
  const bans = new Map(
    (await prisma.moderationCase.findMany({ where: { targetId: { in: ids }, type: "ban" } })).map((c) => [
      c.targetId,
      c.number,
    ]),
  );
  for (const unban of unbans) expect(unban.reason).toBe(`Temporary ban ended (case #${bans.get(unban.targetId)})`);
}

beforeAll(async () => {
  url = await newPostgresDatabase(null);
  const template = inject("sqliteDemoTemplate");
  await copySqliteToPostgresql({ from: template, to: url });
  process.env.GUILDHALL_SECRETS_DIR = fs.mkdtempSync(path.join(inject("scratchDirectory"), "scheduled-unbans-"));
  process.env.DATABASE_URL = url;
  const { secretsPathBase } = await import("@/lib/db/database-url");
  fs.copyFileSync(`${template}.secrets.json`, `${secretsPathBase(url)}.secrets.json`);
  secrets = JSON.parse(fs.readFileSync(`${template}.secrets.json`, "utf8")) as typeof secrets;
  client = new pg.Client({ connectionString: url });
  await client.connect();
  ({ prisma } = await import("@/lib/dashboard/db"));
  api = await startServerProcess(url, { RATE_LIMITS: "off", GUILDHALL_SECRETS_DIR: process.env.GUILDHALL_SECRETS_DIR });
  const me = await fetch(`${api.url}/api/v10/users/@me`, { headers: { authorization: `Bot ${secrets.botToken}` } });
  botId = ((await me.json()) as { id: string }).id;
}, 120_000);

afterAll(async () => {
  await Promise.all(schedulers.map(kill));
  await api?.stop();
  await client?.end();
  await prisma?.$disconnect();
});

test("two instances end 150 temporary bans falling due at once, each exactly once, both taking part", async () => {
  const [a, b] = await Promise.all([startScheduler(), startScheduler()]);
  try {
    // Due a moment from now: both instances are polling when the rows come due.
    const ids = await temporaryBans(150, new Date(Date.now() + 1_000));
    await until(
      () => allEnded(ids),
      60_000,
      () => `not all ended:\n${a.output()}\n${b.output()}`,
    );
    await expectEndedOnce(ids);
    // A claim's mark is its instance's, numbered ("pid-id/n"): both instances took some.
    const marks = await prisma.scheduledModeration.findMany({
      where: { userId: { in: ids } },
      select: { claimedBy: true },
    });
    expect(new Set(marks.map((row) => row.claimedBy?.split("/")[0])).size).toBe(2);
  } finally {
    await Promise.all([kill(a.child), kill(b.child)]);
  }
}, 120_000);

test("across a restart: a new instance ends the bans due while none ran, and a dead instance's claims once they lapse", async () => {
  const first = await startScheduler();
  const ids = await temporaryBans(60, new Date(Date.now() + 3_000));
  // The instance dies before they come due; they come due with no instance running.
  await kill(first.child);
  await new Promise((resolve) => setTimeout(resolve, 3_500));
  expect(await bansLeft(ids)).toBe(60);
  // Twenty of them were claimed by an instance that died holding the claim, whose claim has lapsed since.
  const claimed = ids.slice(0, 20);
  await prisma.scheduledModeration.updateMany({
    where: { userId: { in: claimed } },
    data: { status: "running", claimedBy: "dead-instance", claimedUntil: new Date(Date.now() - 1_000), attempts: 1 },
  });
  const second = await startScheduler();
  await until(
    () => allEnded(ids),
    60_000,
    () => `not all ended after the restart:\n${second.output()}`,
  );
  await expectEndedOnce(ids);
  const taken = await prisma.scheduledModeration.findMany({ where: { userId: { in: claimed } } });
  expect(taken.every((row) => row.claimedBy !== "dead-instance" && row.attempts === 2)).toBe(true);
}, 120_000);
