// The guild's own audit log imported into the dashboard's history (Prisma) through the api-client against a real
// server: paged backward on the first sync and forward after it, bounded per sync, each entry imported once, kept
// after the API no longer has it (Discord keeps 45 days), and a change the dashboard itself made matched to its
// guild entry instead of shown twice. A ban by a bot reads as a sentence naming the bot.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverDb, startTestServer, type TestServer } from "../harness";
import { apiClientAs } from "./harness";

let server: TestServer;
let prisma: typeof import("@/lib/dashboard/db").prisma;
let sync: typeof import("@/lib/dashboard/audit/guild-log/import").syncGuildAuditLog;
const db = serverDb;
let snowflakeAt: typeof import("@/lib/discord/snowflake").snowflakeAt;

const DAY = 86_400_000;
// Far enough ahead that every entry written during the test has settled.
const later = () => Date.now() + 60_000;

beforeAll(async () => {
  server = await startTestServer();
  ({ prisma } = await import("@/lib/dashboard/db"));
  ({ syncGuildAuditLog: sync } = await import("@/lib/dashboard/audit/guild-log/import"));
  ({ snowflakeAt } = await import("@/lib/discord/snowflake"));
});
afterAll(() => server?.close());

const guildLogRows = (guildId: string) =>
  prisma.auditHistoryEntry.count({ where: { guildId, auditLogId: { not: null } } });

/** Kicks recorded straight into the API's audit log, `count` of them from `startMs` on, one second apart. */
function writeKicks(guildId: string, startMs: number, count: number, reason: string): bigint[] {
  const insert = db().prepare(
    "INSERT INTO audit_log_entries (id, guild_id, user_id, action_type, target_id, reason) VALUES (?, ?, ?, 20, ?, ?)",
  );
  const ids: bigint[] = [];
  db().transaction(() => {
    for (let i = 0; i < count; i++) {
      const id = snowflakeAt(startMs + i * 1000);
      insert.run(id, BigInt(guildId), BigInt(server.world.users.mod), server.world.users.member, `${reason} ${i}`);
      ids.push(id);
    }
  })();
  return ids;
}

describe("importing the guild's audit log", () => {
  it("pages back through everything over several bounded syncs, imports each entry once, and keeps entries older than 45 days after the API drops them", async () => {
    const guildId = server.world.guildId;
    const api = await apiClientAs(server, "bot");
    const old = writeKicks(guildId, Date.now() - 60 * DAY, 230, "old");
    const total = Number(
      (
        db().prepare("SELECT COUNT(*) AS n FROM audit_log_entries WHERE guild_id = ?").get(BigInt(guildId)) as {
          n: bigint;
        }
      ).n,
    );
    expect(total).toBeGreaterThanOrEqual(230);

    // One page back from the newest, then one more page backward: 200 of them, not yet the start of the log.
    const first = await sync(api, guildId, { maxPages: 1, now: later });
    expect(first).toMatchObject({ imported: 200, backfilled: false });
    expect(await guildLogRows(guildId)).toBe(200);

    const second = await sync(api, guildId, { maxPages: 10, now: later });
    expect(second).toMatchObject({ imported: total - 200, backfilled: true });
    expect(await guildLogRows(guildId)).toBe(total);

    // Nothing new: nothing imported twice.
    expect(await sync(api, guildId, { now: later })).toMatchObject({ imported: 0, matched: 0 });
    expect(await guildLogRows(guildId)).toBe(total);

    // Discord forgets entries after 45 days; the history does not.
    db()
      .prepare("DELETE FROM audit_log_entries WHERE id IN (SELECT value FROM json_each(?))")
      .run(`[${old.join(",")}]`);
    expect(await sync(api, guildId, { now: later })).toMatchObject({ imported: 0 });
    const kept = await prisma.auditHistoryEntry.findUniqueOrThrow({ where: { auditLogId: String(old[0]) } });
    expect(kept).toMatchObject({
      guildId,
      source: "guild-log",
      action: "Remove Guild Member",
      actorId: server.world.users.mod,
      targetId: server.world.users.member,
      reason: "old 0",
      status: "success",
    });
    expect(Date.now() - kept.createdAt.getTime()).toBeGreaterThan(59 * DAY);

    // New entries come forward from the newest imported, a page of 100 at a time.
    const fresh = writeKicks(guildId, Date.now() - 10 * 60_000, 150, "fresh");
    expect(await sync(api, guildId, { now: later })).toMatchObject({ imported: 150 });
    expect(await guildLogRows(guildId)).toBe(total + 150);
    expect(await prisma.auditHistoryEntry.count({ where: { auditLogId: { in: fresh.map(String) } } })).toBe(150);
  });

  it("leaves entries younger than a few seconds for the next sync", async () => {
    const guildId = server.world.guildId;
    const api = await apiClientAs(server, "bot");
    const [young] = writeKicks(guildId, Date.now(), 1, "young");
    await sync(api, guildId, { now: Date.now });
    expect(await prisma.auditHistoryEntry.count({ where: { auditLogId: String(young) } })).toBe(0);
    await sync(api, guildId, { now: later });
    expect(await prisma.auditHistoryEntry.count({ where: { auditLogId: String(young) } })).toBe(1);
  });

  it("a bot's ban arrives as its own entry naming the bot; the dashboard's own ban is matched, not repeated", async () => {
    const { guildId, users, botUserId } = server.world;
    const { recordAuditEntry } = await import("@/lib/dashboard/audit/history");
    const { describeEntry } = await import("@/lib/dashboard/audit/sentences");

    const botBan = await server.api(
      "bot",
      "PUT",
      `/guilds/${guildId}/bans/${users.outsider}`,
      {},
      {
        "x-audit-log-reason": "raid cleanup",
      },
    );
    expect(botBan.status).toBe(204);
    // The dashboard's ban: the API call as the moderator, then the history entry the action client writes.
    const modBan = await server.api(
      "mod",
      "PUT",
      `/guilds/${guildId}/bans/${users.member}`,
      {},
      {
        "x-audit-log-reason": "spam",
      },
    );
    expect(modBan.status).toBe(204);
    await recordAuditEntry({
      guildId,
      actor: { id: users.mod, name: "Mod" },
      action: "Create Guild Ban",
      target: { type: "user", id: users.member, name: "member" },
      reason: "spam",
      status: "success",
      httpStatus: 200,
    });

    const result = await sync(await apiClientAs(server, "bot"), guildId, { now: later });
    expect(result.matched).toBe(1);

    const bans = await prisma.auditHistoryEntry.findMany({
      where: { guildId, action: "Create Guild Ban" },
      orderBy: { createdAt: "asc" },
    });
    expect(bans.filter((b) => b.targetId === users.member)).toHaveLength(1);
    expect(bans.find((b) => b.targetId === users.member)).toMatchObject({ source: "dashboard", actorName: "Mod" });
    expect(bans.find((b) => b.targetId === users.member)?.auditLogId).toMatch(/^\d+$/);

    const byBot = bans.find((b) => b.targetId === users.outsider)!;
    expect(byBot).toMatchObject({ source: "guild-log", actorId: botUserId, actorBot: true, reason: "raid cleanup" });
    const view = {
      ...byBot,
      createdAt: byBot.createdAt.toISOString(),
      request: null,
      before: null,
      after: null,
    };
    const sentence = describeEntry(view);
    expect(sentence.text).toBe(`${byBot.actorName} banned ${byBot.targetName} — reason: raid cleanup`);
    expect(sentence.source).toBe(`bot ${byBot.actorName}`);
  });
});
