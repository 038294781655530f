// Bans and bulk ban: permissions, hierarchy, limits, events, audit entries and the 500000 error.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PermissionFlagsBits, Routes } from "discord-api-types/v10";
import { auditEntries, fail, eventsSince, lastEventId } from "./read-back";
import { serverDb, startTestServer, type TestServer } from "../harness";
import { expectOperationResponse, expectSchema } from "../openapi";

let server: TestServer;
const db = serverDb;
/** A member whose only role grants Ban Members (no Manage Server): may ban one by one, not in bulk. */
const BANNER = { userId: 5_100_000_000n, roleId: 5_100_000_001n };
beforeAll(async () => {
  // Hundreds of bans and prunes on purpose, in the strictest buckets: see TestServerOptions.rateLimits.
  server = await startTestServer({ rateLimits: { enabled: false } });
  const { insertMember } = await import("@/lib/guild-api/store/membership");
  db()
    .prepare("INSERT INTO users (id, username, discriminator, bot, created_at) VALUES (?, 'banner', '0', 0, 0)")
    .run(BANNER.userId);
  db()
    .prepare("INSERT INTO roles (id, guild_id, name, permissions, position) VALUES (?, ?, 'Banner', ?, 2)")
    .run(BANNER.roleId, BigInt(guild()), PermissionFlagsBits.BanMembers);
  await insertMember({ guildId: BigInt(guild()), userId: BANNER.userId, username: "banner", roleIds: [BANNER.roleId] });
});
afterAll(() => server?.close());

const guild = () => server.world.guildId;
/** Generated users that are neither members nor banned. */
const strangers = () =>
  (
    db()
      .prepare(
        "SELECT id FROM users WHERE bot = 0 AND id NOT IN (SELECT user_id FROM members) AND id NOT IN (SELECT user_id FROM bans) AND username LIKE '%\\_%' ESCAPE '\\' ORDER BY id",
      )
      .all() as Array<{ id: bigint }>
  ).map((r) => String(r.id));
/** Plain members with no roles, taken from the top of the id range so each call gets fresh ones after bans. */
const plainMembers = (n: number) =>
  (
    db()
      .prepare(
        "SELECT user_id FROM members WHERE guild_id = ? AND role_count = 0 AND user_id NOT IN (SELECT owner_id FROM guilds) ORDER BY user_id DESC LIMIT ?",
      )
      .all(BigInt(guild()), n) as Array<{ user_id: bigint }>
  ).map((r) => String(r.user_id));
/** Events fired after `after`, oldest first. */
const isMember = (userId: string) =>
  db().prepare("SELECT 1 FROM members WHERE guild_id = ? AND user_id = ?").get(BigInt(guild()), BigInt(userId)) !==
  undefined;
const banCount = () =>
  (db().prepare("SELECT COUNT(*) AS n FROM bans WHERE guild_id = ?").get(BigInt(guild())) as { n: bigint }).n;

type Ban = { user: { id: string }; reason: string | null };

describe("Get Guild Bans", () => {
  test("ascending by user id, with reasons; cursors page, and before wins over after", async () => {
    const bans = (await server.rest("mod").get(Routes.guildBans(guild()))) as Ban[];
    expect(bans).toHaveLength(25);
    const ids = bans.map((b) => BigInt(b.user.id));
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : 1)));
    expect(bans.some((b) => b.reason === null)).toBe(true);
    expect(bans.some((b) => b.reason === "Spam")).toBe(true);
    expectOperationResponse("GET", "/guilds/{guild_id}/bans", 200, bans);
    const after = (await server
      .rest("mod")
      .get(Routes.guildBans(guild()), { query: new URLSearchParams({ after: bans[9].user.id, limit: "5" }) })) as Ban[];
    expect(after.map((b) => b.user.id)).toEqual(bans.slice(10, 15).map((b) => b.user.id));
    // before: the `limit` bans just below it, still ascending.
    const before = (await server.rest("mod").get(Routes.guildBans(guild()), {
      query: new URLSearchParams({ before: bans[9].user.id, after: bans[0].user.id, limit: "3" }),
    })) as Ban[];
    expect(before.map((b) => b.user.id)).toEqual(bans.slice(6, 9).map((b) => b.user.id));
    expectOperationResponse("GET", "/guilds/{guild_id}/bans", 200, before);
    const last = (await server
      .rest("mod")
      .get(Routes.guildBans(guild()), { query: new URLSearchParams({ after: bans[24].user.id }) })) as Ban[];
    expect(last).toEqual([]);
  });

  test("the page (JSON built by SQLite) equals Get Guild Ban byte for byte, for every ban", async () => {
    const bans = (await server
      .rest("mod")
      .get(Routes.guildBans(guild()), { query: new URLSearchParams({ limit: "1000" }) })) as Ban[];
    for (const listed of bans)
      expect(JSON.stringify(listed)).toBe(
        JSON.stringify(await server.rest("mod").get(Routes.guildBan(guild(), listed.user.id))),
      );
  });

  test("limit 1 and 1000 ok; 0, 1001 and a non-snowflake cursor refused", async () => {
    expect(
      await server.rest("mod").get(Routes.guildBans(guild()), { query: new URLSearchParams({ limit: "1000" }) }),
    ).toHaveLength(25);
    expect(
      await server.rest("mod").get(Routes.guildBans(guild()), { query: new URLSearchParams({ limit: "1" }) }),
    ).toHaveLength(1);
    const tooMany = await fail(
      server.rest("mod").get(Routes.guildBans(guild()), { query: new URLSearchParams({ limit: "1001" }) }),
    );
    expect(tooMany?.rawError).toMatchObject({
      code: 50035,
      errors: { limit: { _errors: [{ code: "NUMBER_TYPE_MAX" }] } },
    });
    const zero = await fail(
      server.rest("mod").get(Routes.guildBans(guild()), { query: new URLSearchParams({ limit: "0" }) }),
    );
    expect(zero?.rawError).toMatchObject({
      code: 50035,
      errors: { limit: { _errors: [{ code: "NUMBER_TYPE_MIN" }] } },
    });
    const cursor = await fail(
      server
        .rest("mod")
        .get(Routes.guildBans(guild()), { query: new URLSearchParams({ after: "99999999999999999999" }) }),
    );
    expect(cursor?.rawError).toMatchObject({
      code: 50035,
      errors: { after: { _errors: [{ code: "NUMBER_TYPE_COERCE" }] } },
    });
  });

  test("needs Ban Members: helper (Kick only) and member 50013, outsider 50001", async () => {
    expect(await fail(server.rest("helper").get(Routes.guildBans(guild())))).toMatchObject({
      status: 403,
      code: 50013,
    });
    expect(await fail(server.rest("member").get(Routes.guildBans(guild())))).toMatchObject({
      status: 403,
      code: 50013,
    });
    expect(await fail(server.rest("outsider").get(Routes.guildBans(guild())))).toMatchObject({
      status: 403,
      code: 50001,
    });
  });
});

describe("Create, get and remove a ban", () => {
  test("banning a member removes them, stores the reason, fires GUILD_MEMBER_REMOVE then GUILD_BAN_ADD, audits MEMBER_BAN_ADD", async () => {
    const [target] = plainMembers(1);
    const since = await lastEventId();
    await server.rest("mod").put(Routes.guildBan(guild(), target), {
      body: { delete_message_seconds: 604800 },
      reason: "spam links ünïcode",
    });
    const ban = await server.rest("mod").get(Routes.guildBan(guild(), target));
    expect(ban).toMatchObject({ reason: "spam links ünïcode", user: { id: target } });
    expectOperationResponse("GET", "/guilds/{guild_id}/bans/{user_id}", 200, ban);
    expect(await fail(server.rest("mod").get(Routes.guildMember(guild(), target)))).toMatchObject({
      status: 404,
      code: 10007,
    });
    const fired = await eventsSince<{ guild_id: string; user: { id: string } }>(since);
    expect(fired.map((e) => e.type)).toEqual(["GUILD_MEMBER_REMOVE", "GUILD_BAN_ADD"]);
    for (const event of fired) {
      expect(Object.keys(event.d).sort()).toEqual(["guild_id", "user"]);
      expect(event.d).toMatchObject({ guild_id: guild(), user: { id: target } });
      expectSchema("UserResponse", event.d.user);
    }
    expect(await auditEntries(guild(), 22, target)).toMatchObject([
      { userId: server.world.users.mod, reason: "spam links ünïcode" },
    ]);

    const beforeUnban = await lastEventId();
    await server.rest("mod").delete(Routes.guildBan(guild(), target), { reason: "appeal accepted" });
    expect(await fail(server.rest("mod").get(Routes.guildBan(guild(), target)))).toMatchObject({
      status: 404,
      code: 10026,
    });
    expect(await eventsSince(beforeUnban)).toEqual([
      {
        type: "GUILD_BAN_REMOVE",
        d: expect.objectContaining({ guild_id: guild(), user: expect.objectContaining({ id: target }) }),
      },
    ]);
    expect(await auditEntries(guild(), 23, target)).toMatchObject([
      { userId: server.world.users.mod, reason: "appeal accepted" },
    ]);
    expect(await fail(server.rest("mod").delete(Routes.guildBan(guild(), target)))).toMatchObject({
      status: 404,
      code: 10026,
    });
  });

  test("banning someone already banned answers 204 and keeps the one ban as it was", async () => {
    const [target] = plainMembers(1);
    await server.rest("mod").put(Routes.guildBan(guild(), target), { reason: "first" });
    const count = banCount();
    const since = await lastEventId();
    const response = await server.api(
      "mod",
      "PUT",
      `/guilds/${guild()}/bans/${target}`,
      {},
      { "x-audit-log-reason": "second" },
    );
    expect(response.status).toBe(204);
    expect(banCount()).toBe(count);
    expect(await server.rest("mod").get(Routes.guildBan(guild(), target))).toMatchObject({ reason: "first" });
    expect(await eventsSince(since)).toEqual([]);
    expect(await auditEntries(guild(), 22, target)).toHaveLength(1);
  });

  test("a non-member can be banned (no GUILD_MEMBER_REMOVE); an unknown user is 10013; a non-snowflake is 50035", async () => {
    const [stranger] = strangers();
    const since = await lastEventId();
    await server.rest("mod").put(Routes.guildBan(guild(), stranger));
    expect(await server.rest("mod").get(Routes.guildBan(guild(), stranger))).toMatchObject({
      reason: null,
      user: { id: stranger },
    });
    expect((await eventsSince(since)).map((e) => e.type)).toEqual(["GUILD_BAN_ADD"]);
    expect(await fail(server.rest("mod").put(Routes.guildBan(guild(), "77777")))).toMatchObject({
      status: 404,
      code: 10013,
    });
    expect(await fail(server.rest("mod").get(Routes.guildBan(guild(), "77777")))).toMatchObject({
      status: 404,
      code: 10026,
    });
    expect(await fail(server.rest("mod").put(Routes.guildBan(guild(), "not-an-id")))).toMatchObject({
      status: 400,
      code: 50035,
    });
  });

  test("hierarchy: mod can't ban admin, nobody bans the owner or themselves, a lower role can't ban a higher one", async () => {
    const refused = [
      ["mod", "admin"],
      ["admin", "owner"],
      ["mod", "mod"],
      // banner's highest role (position 2) is not above Helper (3); the owner may ban anyone but themselves.
      ["banner", "helper"],
      ["owner", "owner"],
    ] as const;
    for (const [who, target] of refused)
      expect(
        await fail(server.rest(who).put(Routes.guildBan(guild(), server.world.users[target]))),
        `${who} bans ${target}`,
      ).toMatchObject({ status: 403, code: 50013 });
    for (const who of ["admin", "owner", "mod", "helper"] as const)
      expect(isMember(server.world.users[who])).toBe(true);
  });

  test("needs Ban Members for every operation: helper and member 50013, outsider 50001", async () => {
    const [target] = plainMembers(1);
    const [banned] = (
      db().prepare("SELECT user_id FROM bans WHERE guild_id = ? LIMIT 1").all(BigInt(guild())) as Array<{
        user_id: bigint;
      }>
    ).map((r) => String(r.user_id));
    for (const who of ["helper", "member", "outsider"]) {
      const code = who === "outsider" ? 50001 : 50013;
      expect(await fail(server.rest(who).put(Routes.guildBan(guild(), target)))).toMatchObject({ status: 403, code });
      expect(await fail(server.rest(who).get(Routes.guildBan(guild(), banned)))).toMatchObject({ status: 403, code });
      expect(await fail(server.rest(who).delete(Routes.guildBan(guild(), banned)))).toMatchObject({
        status: 403,
        code,
      });
    }
    expect(isMember(target)).toBe(true);
    // Ban Members alone is enough for a single ban.
    await server.rest("banner").put(Routes.guildBan(guild(), target));
    expect(isMember(target)).toBe(false);
  });

  test("delete_message_days 7 and delete_message_seconds 604800 are the edges", async () => {
    const [a, b] = plainMembers(2);
    await server.rest("mod").put(Routes.guildBan(guild(), a), { body: { delete_message_days: 7 } });
    expect(isMember(a)).toBe(false);
    const days = await fail(server.rest("mod").put(Routes.guildBan(guild(), b), { body: { delete_message_days: 8 } }));
    expect(days?.rawError).toMatchObject({
      code: 50035,
      errors: { delete_message_days: { _errors: [{ code: "NUMBER_TYPE_MAX" }] } },
    });
    const seconds = await fail(
      server.rest("mod").put(Routes.guildBan(guild(), b), { body: { delete_message_seconds: 604801 } }),
    );
    expect(seconds?.rawError).toMatchObject({
      errors: { delete_message_seconds: { _errors: [{ code: "NUMBER_TYPE_MAX" }] } },
    });
    const negative = await fail(
      server.rest("mod").put(Routes.guildBan(guild(), b), { body: { delete_message_seconds: -1 } }),
    );
    expect(negative?.rawError).toMatchObject({
      errors: { delete_message_seconds: { _errors: [{ code: "NUMBER_TYPE_MIN" }] } },
    });
    expect(isMember(b)).toBe(true);
  });
});

describe("Bulk Guild Ban", () => {
  test("200 ids where some fail: the owner, a higher role, the caller, already banned, unknown users", async () => {
    const banned = (
      db()
        .prepare("SELECT user_id FROM bans WHERE guild_id = ? ORDER BY user_id LIMIT 3")
        .all(BigInt(guild())) as Array<{ user_id: bigint }>
    ).map((r) => String(r.user_id));
    const unknown = ["11111", "22222"];
    const refused = [server.world.users.owner, server.world.users.admin, server.world.users.mod, ...banned, ...unknown];
    const members = plainMembers(50);
    // Non-members are bannable too: fill the rest with fresh users.
    const insert = db().prepare(
      "INSERT INTO users (id, username, discriminator, bot, created_at) VALUES (?, ?, '0', 0, 0)",
    );
    const fresh = Array.from({ length: 200 - refused.length - members.length }, (_, i) => {
      insert.run(5_000_000_000n + BigInt(i), `bulk_fresh_${i}`);
      return String(5_000_000_000n + BigInt(i));
    });
    // Interleave refused ids with bannable ones: both lists keep the request's order.
    const bannable = [...members, ...fresh];
    const ids = [...bannable.slice(0, 100), ...refused, ...bannable.slice(100)];
    expect(ids).toHaveLength(200);
    const bansBefore = banCount();
    const since = await lastEventId();
    const memberCount = () =>
      db().prepare("SELECT member_count FROM guilds WHERE id = ?").pluck().get(BigInt(guild())) as bigint;
    const countBefore = memberCount();

    const result = (await server.rest("mod").post(Routes.guildBulkBan(guild()), {
      body: { user_ids: ids, delete_message_seconds: 604800 },
      reason: "raid",
    })) as {
      banned_users: string[];
      failed_users: string[];
    };
    expectOperationResponse("POST", "/guilds/{guild_id}/bulk-ban", 200, result);
    expect(result).toEqual({ banned_users: bannable, failed_users: refused });
    expect(banCount()).toBe(bansBefore + BigInt(bannable.length));
    for (const id of members) expect(isMember(id)).toBe(false);
    expect(memberCount()).toBe(countBefore - BigInt(members.length));
    const rolesLeft = db()
      .prepare("SELECT COUNT(*) FROM member_roles WHERE guild_id = ? AND user_id IN (SELECT value FROM json_each(?))")
      .pluck()
      .get(BigInt(guild()), `[${members.join(",")}]`);
    expect(rolesLeft).toBe(0n);
    for (const who of ["owner", "admin", "mod"] as const) expect(isMember(server.world.users[who])).toBe(true);
    const fired = await eventsSince<{ guild_id: string; user: { id: string } }>(since);
    expect(fired.filter((e) => e.type === "GUILD_BAN_ADD").map((e) => e.d.user.id)).toEqual(bannable);
    expect(fired.filter((e) => e.type === "GUILD_MEMBER_REMOVE").map((e) => e.d.user.id)).toEqual(members);
    expect(fired).toHaveLength(bannable.length + members.length);
    expect(await auditEntries(guild(), 22, members[0])).toMatchObject([
      { userId: server.world.users.mod, reason: "raid" },
    ]);
  });

  test("when nobody can be banned: 400 500000 Failed to ban users, nothing changes", async () => {
    const before = banCount();
    const since = await lastEventId();
    const [alreadyBanned] = (
      db().prepare("SELECT user_id FROM bans WHERE guild_id = ? LIMIT 1").all(BigInt(guild())) as Array<{
        user_id: bigint;
      }>
    ).map((r) => String(r.user_id));
    const error = await fail(
      server.rest("mod").post(Routes.guildBulkBan(guild()), {
        body: {
          user_ids: [
            server.world.users.owner,
            server.world.users.admin,
            server.world.users.mod,
            alreadyBanned,
            "11111",
          ],
        },
      }),
    );
    expect(error).toMatchObject({ status: 400, code: 500000, message: "Failed to ban users" });
    expect(banCount()).toBe(before);
    expect(await eventsSince(since)).toEqual([]);
  });

  test("needs Ban Members and Manage Server", async () => {
    const [target] = plainMembers(1);
    expect(
      await fail(server.rest("banner").post(Routes.guildBulkBan(guild()), { body: { user_ids: [target] } })),
    ).toMatchObject({ status: 403, code: 50013 });
    expect(
      await fail(server.rest("helper").post(Routes.guildBulkBan(guild()), { body: { user_ids: [target] } })),
    ).toMatchObject({ status: 403, code: 50013 });
    expect(
      await fail(server.rest("member").post(Routes.guildBulkBan(guild()), { body: { user_ids: [target] } })),
    ).toMatchObject({ status: 403, code: 50013 });
    expect(
      await fail(server.rest("outsider").post(Routes.guildBulkBan(guild()), { body: { user_ids: [target] } })),
    ).toMatchObject({ status: 403, code: 50001 });
    expect(isMember(target)).toBe(true);
  });

  test("user_ids: required, 1 to 200, unique snowflakes; delete_message_seconds 0 to 604800", async () => {
    const post = (body: unknown) => fail(server.rest("mod").post(Routes.guildBulkBan(guild()), { body }));
    const tooMany = await post({ user_ids: Array.from({ length: 201 }, (_, i) => String(100000 + i)) });
    expect(tooMany?.rawError).toMatchObject({
      code: 50035,
      errors: { user_ids: { _errors: [{ code: "BASE_TYPE_MAX_LENGTH" }] } },
    });
    expect((await post({ user_ids: [] }))?.rawError).toMatchObject({
      code: 50035,
      errors: { user_ids: { _errors: [{ code: "BASE_TYPE_MIN_LENGTH" }] } },
    });
    expect((await post({}))?.rawError).toMatchObject({
      errors: { user_ids: { _errors: [{ code: "BASE_TYPE_REQUIRED" }] } },
    });
    expect((await post({ user_ids: ["12345", "abc"] }))?.rawError).toMatchObject({
      errors: { user_ids: { 1: { _errors: [{ code: "NUMBER_TYPE_COERCE" }] } } },
    });
    const [a] = plainMembers(1);
    expect((await post({ user_ids: [a, "12345", a] }))?.rawError).toMatchObject({
      errors: { user_ids: { 2: { _errors: [{ code: "SET_TYPE_ALREADY_CONTAINS_VALUE" }] } } },
    });
    expect((await post({ user_ids: [a], delete_message_seconds: 604801 }))?.rawError).toMatchObject({
      errors: { delete_message_seconds: { _errors: [{ code: "NUMBER_TYPE_MAX" }] } },
    });
    expect(isMember(a)).toBe(true);
  });
});
