// The guild's own audit log imported into the dashboard's history (Prisma) through the api-client against a real
// server: newest first, paged backward into the log's past a bounded number of pages per sync, each entry imported
// once and at once, kept after the API no longer has it (Discord keeps 45 days), and a change the dashboard itself
// made matched to its guild entry instead of shown twice, whichever was written first. A ban by a bot reads as a
// sentence naming the bot.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../harness";
import { sql, transaction } from "@/lib/guild-api/store/db";
import { apiClientAs } from "./harness";

let server: TestServer;
let prisma: typeof import("@/lib/dashboard/db").prisma;
let sync: typeof import("@/lib/dashboard/audit/guild-log/import").syncGuildAuditLog;
let snowflakeAt: typeof import("@/lib/discord/snowflake").snowflakeAt;

const DAY = 86_400_000;

beforeAll(async () => {
  server = await startTestServer();
  ({ prisma } = await import("@/lib/dashboard/db"));
  ({ syncGuildAuditLog: sync } = await import("@/lib/dashboard/audit/guild-log/import"));
  ({ snowflakeAt } = await import("@/lib/discord/snowflake"));
});
afterAll(() => server?.close());

const guildLogRows = (guildId: string) =>
  prisma.auditHistoryEntry.count({ where: { guildId, auditLogId: { not: null } } });

/** Kicks recorded straight into the API's audit log, `count` of them from `startMs` on, `stepMs` apart. */
async function writeKicks(
  guildId: string,
  startMs: number,
  count: number,
  reason: string,
  stepMs = 1000,
): Promise<bigint[]> {
  const ids: bigint[] = [];
  await transaction(async () => {
    for (let i = 0; i < count; i++) {
      const id = snowflakeAt(startMs + i * stepMs);
      await sql.run(
        "INSERT INTO audit_log_entries (id, guild_id, user_id, action_type, target_id, reason) VALUES (?, ?, ?, 20, ?, ?)",
        id,
        BigInt(guildId),
        BigInt(server.world.users.mod),
        server.world.users.member,
        `${reason} ${i}`,
      );
      ids.push(id);
    }
  });
  return ids;
}

describe("importing the guild's audit log", () => {
  it("pages back through everything over several bounded syncs, imports each entry once, and keeps entries older than 45 days after the API drops them", async () => {
    const guildId = server.world.guildId;
    const api = await apiClientAs(server, "bot");
    const old = await writeKicks(guildId, Date.now() - 60 * DAY, 230, "old");
    const total = Number(
      (
        (await sql.get("SELECT COUNT(*) AS n FROM audit_log_entries WHERE guild_id = ?", BigInt(guildId))) as {
          n: bigint;
        }
      ).n,
    );
    expect(total).toBeGreaterThanOrEqual(230);

    // One page back from the newest, then one more page backward: 200 of them, not yet the start of the log.
    const first = await sync(api, guildId, { maxPages: 1 });
    expect(first).toMatchObject({ imported: 200, backfilled: false });
    expect(await guildLogRows(guildId)).toBe(200);

    const second = await sync(api, guildId, { maxPages: 10 });
    expect(second).toMatchObject({ imported: total - 200, backfilled: true });
    expect(await guildLogRows(guildId)).toBe(total);

    // Nothing new: nothing imported twice.
    expect(await sync(api, guildId)).toMatchObject({ imported: 0, matched: 0 });
    expect(await guildLogRows(guildId)).toBe(total);

    // Discord forgets entries after 45 days; the history does not.
    // The ids are this test's own bigints, written into the text so one statement serves both engines.
    await sql.run(`DELETE FROM audit_log_entries WHERE id IN (${old.join(",")})`);
    expect(await sync(api, guildId)).toMatchObject({ imported: 0 });
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
    const fresh = await writeKicks(guildId, Date.now() - 10 * 60_000, 150, "fresh");
    expect(await sync(api, guildId)).toMatchObject({ imported: 150 });
    expect(await guildLogRows(guildId)).toBe(total + 150);
    expect(await prisma.auditHistoryEntry.count({ where: { auditLogId: { in: fresh.map(String) } } })).toBe(150);
  });

  it("imports an entry the moment it is read, and reads newest first: a sync that stops early has the newest", async () => {
    const guildId = server.world.guildId;
    const api = await apiClientAs(server, "bot");
    await sync(api, guildId);
    const youngAt = Date.now() - 1000;
    const [young] = await writeKicks(guildId, youngAt, 1, "young");
    await sync(api, guildId);
    expect(await prisma.auditHistoryEntry.count({ where: { auditLogId: String(young) } })).toBe(1);

    // 250 newer entries (a bulk job's): the top page is imported first, whatever happens to the pages below it.
    const burst = await writeKicks(guildId, youngAt + 1, 250, "burst", 1);
    let reads = 0;
    const failing = new Proxy(api, {
      get: (target, key) =>
        key === "guilds"
          ? new Proxy(target.guilds, {
              get: (guilds, name) =>
                name === "getAuditLogs"
                  ? (...args: Parameters<typeof guilds.getAuditLogs>) => {
                      if (++reads > 1) throw new Error("the API went away");
                      return guilds.getAuditLogs(...args);
                    }
                  : Reflect.get(guilds, name),
            })
          : Reflect.get(target, key),
    });
    await expect(sync(failing, guildId)).rejects.toThrow("the API went away");
    const imported = async () =>
      new Set(
        (
          await prisma.auditHistoryEntry.findMany({
            where: { auditLogId: { in: burst.map(String) } },
            select: { auditLogId: true },
          })
        ).map((row) => row.auditLogId),
      );
    const newestHundred = burst.slice(-100).map(String);
    expect([...(await imported())].sort()).toEqual([...newestHundred].sort());
    // The next sync starts again from the top and fills the gap down to what was imported before.
    expect(await sync(api, guildId)).toMatchObject({ imported: 150 });
    expect((await imported()).size).toBe(250);
  });

  it("a dashboard change recorded after its guild entry was imported shows once, with the dashboard's reason and before/after", async () => {
    const { guildId, users } = server.world;
    const { recordAuditEntry } = await import("@/lib/dashboard/audit/history");
    await sync(await apiClientAs(server, "bot"), guildId);
    // The moderator's nickname change through the API; the import reads its guild entry before the dashboard records.
    const response = await server.api(
      "mod",
      "PATCH",
      `/guilds/${guildId}/members/${users.member}`,
      { nick: "Imported first" },
      { "x-audit-log-reason": "tidy names" },
    );
    expect(response.status).toBe(200);
    expect(await sync(await apiClientAs(server, "bot"), guildId)).toMatchObject({ imported: 1 });
    const imported = await prisma.auditHistoryEntry.findFirstOrThrow({
      where: { guildId, source: "guild-log", action: "Modify Guild Member", targetId: users.member },
      orderBy: { createdAt: "desc" },
    });

    await recordAuditEntry({
      guildId,
      actor: { id: users.mod, name: "Mod" },
      action: "Modify Guild Member",
      target: { type: "member", id: users.member, name: "member" },
      reason: "tidy names",
      before: { nick: null },
      after: { nick: "Imported first" },
      status: "success",
      httpStatus: 200,
    });
    const rows = await prisma.auditHistoryEntry.findMany({
      where: { guildId, action: "Modify Guild Member", targetId: users.member, status: "success" },
    });
    const shown = rows.filter((row) => row.source !== "part" && Date.now() - row.createdAt.getTime() < 60_000);
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({
      source: "dashboard",
      actorName: "Mod",
      reason: "tidy names",
      auditLogId: imported.auditLogId,
      before: JSON.stringify({ nick: null }),
      after: JSON.stringify({ nick: "Imported first" }),
    });
    // Read again, the entry is known: nothing is added back.
    expect(await sync(await apiClientAs(server, "bot"), guildId)).toMatchObject({ imported: 0 });
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

    const result = await sync(await apiClientAs(server, "bot"), guildId);
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

  it("in bot mode a bulk ban's guild entries name the bot, and become the bulk ban's parts naming the moderator who asked, whichever is written first", async () => {
    const { guildId, users, botUserId } = server.world;
    const { recordAuditEntry, latestActionsOn } = await import("@/lib/dashboard/audit/history");
    const { insertStrangers } = await import("../harness");
    const bulkBan = async (userIds: string[]) => {
      // As the dashboard in bot mode makes it: the bot's call, the moderator named in the reason.
      const response = await server.api(
        "bot",
        "POST",
        `/guilds/${guildId}/bulk-ban`,
        { user_ids: userIds },
        { "x-audit-log-reason": encodeURIComponent(`Mod (${users.mod}): raid wave`) },
      );
      expect(response.status).toBe(200);
    };
    const record = (userIds: string[]) =>
      recordAuditEntry({
        guildId,
        actor: { id: users.mod, name: "Mod" },
        action: "Bulk Guild Ban",
        target: { type: "guild", id: guildId, name: "guild" },
        reason: "raid wave",
        request: { user_ids: userIds },
        status: "success",
        httpStatus: 200,
      });
    const importedFirst = await insertStrangers(2, Date.UTC(2025, 3, 1), "bulk_imported_first");
    const recordedFirst = await insertStrangers(2, Date.UTC(2025, 3, 2), "bulk_recorded_first");
    const bot = await apiClientAs(server, "bot");
    await sync(bot, guildId);

    await bulkBan(importedFirst);
    await sync(bot, guildId);
    const beforeRecord = await prisma.auditHistoryEntry.findMany({
      where: { guildId, targetId: { in: importedFirst } },
    });
    expect(beforeRecord.map((row) => [row.source, row.actorId]).sort()).toEqual([
      ["guild-log", botUserId],
      ["guild-log", botUserId],
    ]);
    await record(importedFirst);

    await bulkBan(recordedFirst);
    await record(recordedFirst);
    await sync(bot, guildId);

    for (const userIds of [importedFirst, recordedFirst]) {
      const parts = await prisma.auditHistoryEntry.findMany({ where: { guildId, targetId: { in: userIds } } });
      expect(parts.map((row) => [row.source, row.action, row.actorId, row.actorName, row.actorBot])).toEqual([
        ["part", "Create Guild Ban", users.mod, "Mod", false],
        ["part", "Create Guild Ban", users.mod, "Mod", false],
      ]);
      // Who banned each (the Bans page and its CSV): the moderator, not the bot that carried it out.
      const latest = await latestActionsOn(guildId, ["Create Guild Ban", "Bulk Guild Ban"], userIds);
      expect(userIds.map((id) => latest.get(id)?.actorId)).toEqual([users.mod, users.mod]);
    }

    // Another moderator's unban of one of them a moment later, quoting Mod's stamp in its reason, is theirs (the first
    // stamp counts), not a part of Mod's bulk ban: it keeps the guild's actor until its own record claims it.
    const unban = await server.api("bot", "DELETE", `/guilds/${guildId}/bans/${recordedFirst[0]}`, undefined, {
      "x-audit-log-reason": encodeURIComponent(`Admin (${users.admin}): per Mod (${users.mod})`),
    });
    expect(unban.status).toBe(204);
    await sync(bot, guildId);
    expect(
      await prisma.auditHistoryEntry.findFirst({
        where: { guildId, action: "Remove Guild Ban", targetId: recordedFirst[0] },
        select: { source: true, actorId: true },
      }),
    ).toEqual({ source: "guild-log", actorId: botUserId });
  });
});
