// npm run bench:cases [-- --cases N] [-- --bans N]
// Issue #32's figures, measured, never asserted:
//   1. The Cases list's server time on a guild with N cases (default 100,000): the first page, filtered by type, by
//      moderator, by member, a search in the reasons, and a page far down (by case number), each 50 times in this
//      process through the same store the page reads (lib/dashboard/cases/store.ts). Goal: ≤ 50 ms.
//   2. N temporary bans (default 10,000) falling due at once in a Guildhall server (production build, bot mode, rate
//      limits off: Discord's per-token limits would make it minutes), ended by that server's own scheduler (started by
//      instrumentation.ts, lib/dashboard/cases/schedule.ts), while a paced probe times GET /users/@me in the same
//      process. Goals: all ended in ≤ 30 s from when they fall due; the probe's p99 ≤ 2 × idle meanwhile.
// Its own database under .data/bench-cases.db (the demo world), made again each run.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { GuildApiClient } from "@/lib/api-client";
import { summarize } from "./load";
import { stop } from "./processes";
import { argValue, fmt, hasFlag, startGuildhall } from "./setup";

const caseCount = Number(argValue("--cases") ?? 100_000);
const banCount = Number(argValue("--bans") ?? 10_000);
const databaseFile = path.resolve(".data", "bench-cases.db");
process.env.DATABASE_URL = `file:${databaseFile}`;

const GUILD = "100000000000000777";
const TYPES = ["ban", "unban", "kick", "timeout", "timeout_removed", "role_change", "warning", "note"];
const WORDS = ["spam", "raid", "links", "slurs", "alt", "scam", "nsfw", "ads", "flood", "impersonation"];

/** A time as Prisma writes the dashboard's in SQLite (ISO text), so its queries compare seeded rows as their own. */
const prismaTime = (ms: number) => new Date(ms).toISOString().replace("Z", "+00:00");

/** N cases for GUILD written straight into the table (as many history entries would make them). */
function seedCases(count: number): void {
  const db = new Database(databaseFile);
  db.exec("DELETE FROM moderation_cases; DELETE FROM case_counters;");
  const insert = db.prepare(
    `INSERT INTO moderation_cases (id, guildId, number, type, targetId, targetName, moderatorId, moderatorName,
       moderatorBot, reason, historyId, source, createdAt)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, 'dashboard', ?)`,
  );
  const start = Date.UTC(2025, 0, 1);
  db.transaction(() => {
    for (let i = 1; i <= count; i++)
      insert.run(
        `bench-case-${i}`,
        GUILD,
        i,
        TYPES[i % TYPES.length],
        String(300_000_000_000_000_000n + BigInt(i % 20_000)),
        `member ${i % 20_000}`,
        String(200_000_000_000_000_000n + BigInt(i % 25)),
        `moderator ${i % 25}`,
        `${WORDS[i % WORDS.length]} in #channel-${i % 50}`,
        `bench-history-${i}`,
        prismaTime(start + i * 60_000),
      );
    db.prepare("INSERT INTO case_counters (guildId, last) VALUES (?, ?)").run(GUILD, count);
  })();
  db.close();
}

async function timeIt(runs: number, read: () => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  for (let i = 0; i < runs + 5; i++) {
    const started = performance.now();
    await read();
    if (i >= 5) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(runs * 0.5)], p99: times[Math.min(runs - 1, Math.ceil(runs * 0.99) - 1)] };
}

async function listSpeed(): Promise<void> {
  console.log(`\n1. The Cases list on ${fmt(caseCount)} cases (server time, 50 runs each; goal ≤ 50 ms)\n`);
  seedCases(caseCount);
  const { listCases } = await import("@/lib/dashboard/cases/store");
  const rows: Array<[string, () => Promise<unknown>]> = [
    ["first page", () => listCases(GUILD, {})],
    ["type: warning", () => listCases(GUILD, { types: ["warning"] })],
    ["moderator", () => listCases(GUILD, { moderatorId: String(200_000_000_000_000_000n + 7n) })],
    ["member", () => listCases(GUILD, { targetId: String(300_000_000_000_000_000n + 1234n) })],
    ["search: a reason word", () => listCases(GUILD, { search: "impersonation" })],
    ["search: #number", () => listCases(GUILD, { search: `#${Math.floor(caseCount / 2)}` })],
    ["page far down", () => listCases(GUILD, {}, { before: Math.floor(caseCount / 10) })],
  ];
  for (const [name, read] of rows) {
    const { p50, p99 } = await timeIt(50, read);
    console.log(
      `  ${name.padEnd(24)} p50 ${fmt(p50, 1).padStart(7)} ms  p99 ${fmt(p99, 1).padStart(7)} ms  ${p99 <= 50 ? "met" : "MISSED"}`,
    );
  }
}

/** N banned users with a temporary ban each, due now: users and bans in the API's tables, cases and rows in the dashboard's. */
function seedDueBans(guildId: string, botUserId: string, count: number): string[] {
  const db = new Database(databaseFile);
  db.defaultSafeIntegers(true);
  const base = (BigInt(Date.UTC(2025, 5, 1)) - 1420070400000n) << 22n;
  const ids = Array.from({ length: count }, (_, i) => String(base + BigInt(i + 1) * 4_194_304n));
  const now = Date.now();
  const user = db.prepare("INSERT OR IGNORE INTO users (id, username, created_at) VALUES (?, ?, ?)");
  const ban = db.prepare("INSERT INTO bans (guild_id, user_id, reason, created_at) VALUES (?, ?, ?, ?)");
  const kase = db.prepare(
    `INSERT INTO moderation_cases (id, guildId, number, type, targetId, targetName, moderatorId, moderatorName,
       moderatorBot, reason, durationSeconds, endsAt, historyId, source, createdAt)
     VALUES (?, ?, ?, 'ban', ?, ?, ?, 'Bench', 1, 'bench', 60, ?, ?, 'dashboard', ?)`,
  );
  const row = db.prepare(
    `INSERT INTO scheduled_moderations (id, guildId, kind, userId, caseId, actorId, runAt, status, attempts, createdAt)
     VALUES (?, ?, 'unban', ?, ?, ?, ?, 'pending', 0, ?)`,
  );
  db.transaction(() => {
    ids.forEach((id, i) => {
      user.run(BigInt(id), `bench_temp_${i}`, BigInt(now));
      ban.run(BigInt(guildId), BigInt(id), "bench temporary ban", BigInt(now));
      kase.run(
        `bench-temp-${i}`,
        guildId,
        1_000_000 + i,
        id,
        `bench_temp_${i}`,
        botUserId,
        prismaTime(now),
        `bench-temp-h-${i}`,
        prismaTime(now - 60_000),
      );
      const [due, made] = [prismaTime(now - 1_000), prismaTime(now - 60_000)];
      row.run(`bench-row-${i}`, guildId, id, `bench-temp-${i}`, botUserId, due, made);
    });
  })();
  db.close();
  return ids;
}

/** GET /users/@me every 40 ms until `until` says stop (at least `min` samples): each answer's time, in ms. */
async function probeWhile(url: string, authorization: string, until: () => boolean, min = 0): Promise<number[]> {
  const times: number[] = [];
  while (times.length < min || !until()) {
    const t0 = performance.now();
    const answer = await fetch(url, { headers: { authorization } });
    await answer.arrayBuffer();
    if (answer.status !== 200) throw new Error(`probe answered ${answer.status}`);
    times.push(performance.now() - t0);
    const wait = t0 + 40 - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  return times;
}

async function endingBans(): Promise<void> {
  console.log(`\n2. ${fmt(banCount)} temporary bans falling due at once (goals: ≤ 30 s; probe p99 ≤ 2 × idle)\n`);
  const secrets = JSON.parse(fs.readFileSync(`${databaseFile}.secrets.json`, "utf8")) as { botToken: string };
  // Bot mode: the server's scheduler acts as the bot (in user mode, as the moderator's stored grant, which a bench
  // has no browser to make).
  const app = await startGuildhall("127.0.0.1", {
    RATE_LIMITS: "off",
    DATABASE_URL: `file:${databaseFile}`,
    GUILD_API_AUTH: "bot",
    GUILD_API_BOT_TOKEN: secrets.botToken,
  });
  try {
    const bot = new GuildApiClient({
      baseUrl: `http://127.0.0.1:${app.port}/api`,
      token: secrets.botToken,
      authPrefix: "Bot",
    });
    const me = await bot.users.getCurrent();
    const guildId = (await bot.users.getGuilds())[0].id;
    const probeUrl = `http://127.0.0.1:${app.port}/api/v10/users/@me`;
    const authorization = `Bot ${secrets.botToken}`;
    // The idle figure after a warm-up (the server's first requests load code): the probe's own cost, not start-up's.
    await probeWhile(probeUrl, authorization, () => true, 25);
    const idle = summarize(await probeWhile(probeUrl, authorization, () => true, 400), 1);
    const db = new Database(databaseFile, { readonly: true });
    db.pragma("busy_timeout = 5000");
    const pending = db.prepare(
      "SELECT COUNT(*) AS n FROM scheduled_moderations WHERE id LIKE 'bench-row-%' AND status IN ('pending', 'running')",
    );
    const left = db.prepare("SELECT COUNT(*) AS n FROM bans WHERE reason = 'bench temporary ban'");
    const count = (statement: typeof pending) => (statement.get() as { n: number }).n;
    seedDueBans(guildId, me.id, banCount);
    const started = performance.now();
    let done = false;
    const watcher = (async () => {
      while (!done && performance.now() - started < 120_000) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        done = count(pending) === 0 && count(left) === 0;
      }
      done = true;
    })();
    const during = summarize(await probeWhile(probeUrl, authorization, () => done), 1);
    await watcher;
    const seconds = (performance.now() - started) / 1000;
    const stillBanned = count(left);
    const failed = (
      db
        .prepare("SELECT COUNT(*) AS n FROM scheduled_moderations WHERE id LIKE 'bench-row-%' AND status = 'failed'")
        .get() as { n: number }
    ).n;
    db.close();
    console.log(
      `  ended ${fmt(banCount - stillBanned)} in ${fmt(seconds, 1)} s (${fmt((banCount - stillBanned) / seconds)} a second, the server's own scheduler): ${seconds <= 30 && stillBanned === 0 ? "met" : "MISSED"}; still banned ${fmt(stillBanned)}, failed ${fmt(failed)}`,
    );
    console.log(
      `  probe p50 idle ${fmt(idle.p50, 2)} ms, meanwhile ${fmt(during.p50, 2)} ms; p99 idle ${fmt(idle.p99, 2)} ms, meanwhile ${fmt(during.p99, 2)} ms (${fmt(during.p99 / idle.p99, 2)}×): ${during.p99 <= 2 * idle.p99 ? "met" : "MISSED"}`,
    );
  } finally {
    stop(app.child);
  }
}

async function main(): Promise<void> {
  fs.mkdirSync(".data", { recursive: true });
  fs.rmSync(databaseFile, { force: true });
  const { seed } = await import("../scripts/seed");
  seed({ members: 0, quiet: true });
  if (!hasFlag("--bans-only")) await listSpeed();
  if (!hasFlag("--list-only")) await endingBans();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
