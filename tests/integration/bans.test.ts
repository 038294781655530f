// Bans and bulk ban: permissions, hierarchy, limits, events and the 500000 error.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DiscordAPIError } from "@discordjs/rest";
import { Routes } from "discord-api-types/v10";
import { startTestServer, type TestServer } from "./harness";
import { expectOperationResponse } from "./openapi";

let server: TestServer;
let db: () => import("better-sqlite3").Database;
beforeAll(async () => {
  server = await startTestServer();
  ({ db } = await import("@/lib/guild-api/store/db"));
});
afterAll(() => server?.close());

const fail = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => error as DiscordAPIError);
const guild = () => server.world.guildId;
/** Generated users that are neither members nor banned. */
const strangers = () =>
  (db().prepare("SELECT id FROM users WHERE bot = 0 AND id NOT IN (SELECT user_id FROM members) AND id NOT IN (SELECT user_id FROM bans) AND username LIKE '%\\_%' ESCAPE '\\' ORDER BY id").all() as Array<{ id: bigint }>).map((r) => String(r.id));
/** Plain members with no roles. */
const plainMembers = (n: number) =>
  (db().prepare("SELECT user_id FROM members WHERE guild_id = ? AND role_count = 0 AND user_id NOT IN (SELECT owner_id FROM guilds) ORDER BY user_id DESC LIMIT ?").all(BigInt(guild()), n) as Array<{ user_id: bigint }>).map((r) => String(r.user_id));
const eventsOf = (type: string) => (db().prepare("SELECT payload FROM gateway_events WHERE type = ? ORDER BY id").all(type) as Array<{ payload: string }>).map((r) => JSON.parse(r.payload) as { user: { id: string } });

describe("Get Guild Bans", () => {
  test("ascending by user id, with reasons; cursors page, and before wins over after", async () => {
    const bans = (await server.rest("mod").get(Routes.guildBans(guild()))) as Array<{ user: { id: string }; reason: string | null }>;
    expect(bans).toHaveLength(25);
    const ids = bans.map((b) => BigInt(b.user.id));
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : 1)));
    expect(bans.some((b) => b.reason === null)).toBe(true);
    expectOperationResponse("GET", "/guilds/{guild_id}/bans", 200, bans);
    const after = (await server.rest("mod").get(Routes.guildBans(guild()), { query: new URLSearchParams({ after: bans[9].user.id, limit: "5" }) })) as typeof bans;
    expect(after.map((b) => b.user.id)).toEqual(bans.slice(10, 15).map((b) => b.user.id));
    const before = (await server.rest("mod").get(Routes.guildBans(guild()), { query: new URLSearchParams({ before: bans[9].user.id, after: bans[0].user.id, limit: "3" }) })) as typeof bans;
    expect(before.map((b) => b.user.id)).toEqual(bans.slice(6, 9).map((b) => b.user.id));
  });

  test("limit 1000 ok, 1001 refused; needs Ban Members", async () => {
    expect(await server.rest("mod").get(Routes.guildBans(guild()), { query: new URLSearchParams({ limit: "1000" }) })).toHaveLength(25);
    expect(await fail(server.rest("mod").get(Routes.guildBans(guild()), { query: new URLSearchParams({ limit: "1001" }) }))).toMatchObject({ status: 400, code: 50035 });
    expect(await fail(server.rest("helper").get(Routes.guildBans(guild())))).toMatchObject({ status: 403, code: 50013 });
    expect(await fail(server.rest("outsider").get(Routes.guildBans(guild())))).toMatchObject({ status: 403, code: 50001 });
  });
});

describe("Create, get and remove a ban", () => {
  test("banning a member removes them, records the reason, and fires GUILD_MEMBER_REMOVE and GUILD_BAN_ADD", async () => {
    const [target] = plainMembers(1);
    await server.rest("mod").put(Routes.guildBan(guild(), target), { body: { delete_message_seconds: 604800 }, reason: "spam links ünïcode" });
    const ban = await server.rest("mod").get(Routes.guildBan(guild(), target));
    expect(ban).toMatchObject({ reason: "spam links ünïcode", user: { id: target } });
    expectOperationResponse("GET", "/guilds/{guild_id}/bans/{user_id}", 200, ban);
    expect(await fail(server.rest("mod").get(Routes.guildMember(guild(), target)))).toMatchObject({ code: 10007 });
    expect(eventsOf("GUILD_MEMBER_REMOVE").map((e) => e.user.id)).toContain(target);
    expect(eventsOf("GUILD_BAN_ADD").map((e) => e.user.id)).toContain(target);

    await server.rest("mod").delete(Routes.guildBan(guild(), target), { reason: "appeal accepted" });
    expect(await fail(server.rest("mod").get(Routes.guildBan(guild(), target)))).toMatchObject({ status: 404, code: 10026 });
    expect(eventsOf("GUILD_BAN_REMOVE").map((e) => e.user.id)).toContain(target);
    expect(await fail(server.rest("mod").delete(Routes.guildBan(guild(), target)))).toMatchObject({ status: 404, code: 10026 });
  });

  test("a non-member can be banned; an unknown user is 10013", async () => {
    const [stranger] = strangers();
    await server.rest("mod").put(Routes.guildBan(guild(), stranger));
    expect(await server.rest("mod").get(Routes.guildBan(guild(), stranger))).toMatchObject({ user: { id: stranger } });
    expect(await fail(server.rest("mod").put(Routes.guildBan(guild(), "77777")))).toMatchObject({ status: 404, code: 10013 });
  });

  test("hierarchy: mod can't ban admin, nobody bans the owner, helper can't ban at all", async () => {
    expect(await fail(server.rest("mod").put(Routes.guildBan(guild(), server.world.users.admin)))).toMatchObject({ status: 403, code: 50013 });
    expect(await fail(server.rest("admin").put(Routes.guildBan(guild(), server.world.users.owner)))).toMatchObject({ status: 403, code: 50013 });
    expect(await fail(server.rest("helper").put(Routes.guildBan(guild(), plainMembers(1)[0])))).toMatchObject({ status: 403, code: 50013 });
  });

  test("delete_message_days 7 and delete_message_seconds 604800 are the edges", async () => {
    const [a, b] = plainMembers(2);
    await server.rest("mod").put(Routes.guildBan(guild(), a), { body: { delete_message_days: 7 } });
    const days = await fail(server.rest("mod").put(Routes.guildBan(guild(), b), { body: { delete_message_days: 8 } }));
    expect(days?.rawError).toMatchObject({ code: 50035, errors: { delete_message_days: { _errors: [{ code: "NUMBER_TYPE_MAX" }] } } });
    const seconds = await fail(server.rest("mod").put(Routes.guildBan(guild(), b), { body: { delete_message_seconds: 604801 } }));
    expect(seconds?.rawError).toMatchObject({ errors: { delete_message_seconds: { _errors: [{ code: "NUMBER_TYPE_MAX" }] } } });
    expect(await server.rest("mod").get(Routes.guildMember(guild(), b))).toBeTruthy();
  });
});

describe("Bulk Guild Ban", () => {
  test("200 ids where some fail: the owner, a higher role, already banned, unknown users", async () => {
    const banned = (db().prepare("SELECT user_id FROM bans WHERE guild_id = ? LIMIT 3").all(BigInt(guild())) as Array<{ user_id: bigint }>).map((r) => String(r.user_id));
    const unknown = ["11111", "22222"];
    const refused = [server.world.users.owner, server.world.users.admin, ...banned, ...unknown];
    const members = plainMembers(50);
    // Non-members are bannable too: fill the rest with fresh users.
    const insert = db().prepare("INSERT INTO users (id, username, discriminator, bot, created_at) VALUES (?, ?, '0', 0, 0)");
    const fresh = Array.from({ length: 200 - refused.length - members.length }, (_, i) => {
      insert.run(5_000_000_000n + BigInt(i), `bulk_fresh_${i}`);
      return String(5_000_000_000n + BigInt(i));
    });
    const bannable = [...members, ...fresh];
    const ids = [...bannable, ...refused];
    expect(ids).toHaveLength(200);
    const result = (await server.rest("mod").post(Routes.guildBulkBan(guild()), { body: { user_ids: ids }, reason: "raid" })) as { banned_users: string[]; failed_users: string[] };
    expect(result.banned_users.sort()).toEqual([...bannable].sort());
    expect(result.failed_users.sort()).toEqual([...refused].sort());
    expectOperationResponse("POST", "/guilds/{guild_id}/bulk-ban", 200, result);
    const count = db().prepare("SELECT COUNT(*) AS n FROM members WHERE guild_id = ? AND user_id IN (SELECT user_id FROM bans WHERE guild_id = ?)").get(BigInt(guild()), BigInt(guild())) as { n: bigint };
    expect(count.n).toBe(0n);
  });

  test("when nobody can be banned: 500000 Failed to ban users, nothing changes", async () => {
    const before = db().prepare("SELECT COUNT(*) AS n FROM bans").get() as { n: bigint };
    const error = await fail(server.rest("mod").post(Routes.guildBulkBan(guild()), { body: { user_ids: [server.world.users.owner, "11111"] } }));
    expect(error).toMatchObject({ status: 400, code: 500000 });
    expect(db().prepare("SELECT COUNT(*) AS n FROM bans").get()).toEqual(before);
  });

  test("needs Ban Members and Manage Server; 200 ids at most", async () => {
    expect(await fail(server.rest("helper").post(Routes.guildBulkBan(guild()), { body: { user_ids: ["11111"] } }))).toMatchObject({ status: 403, code: 50013 });
    const ids = Array.from({ length: 201 }, (_, i) => String(100000 + i));
    const error = await fail(server.rest("mod").post(Routes.guildBulkBan(guild()), { body: { user_ids: ids } }));
    expect(error?.rawError).toMatchObject({ code: 50035, errors: { user_ids: { _errors: [{ code: "BASE_TYPE_MAX_LENGTH" }] } } });
    const missing = await fail(server.rest("mod").post(Routes.guildBulkBan(guild()), { body: {} }));
    expect(missing?.rawError).toMatchObject({ errors: { user_ids: { _errors: [{ code: "BASE_TYPE_REQUIRED" }] } } });
  });
});
