// Bans and bulk ban: permissions, hierarchy, limits, events, audit entries and the 500000 error.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PermissionFlagsBits, Routes } from "discord-api-types/v10";
import { auditEntries, fail, eventsSince, lastEventId } from "./read-back";
import { startTestServer, type TestServer } from "../harness";
import { sql } from "@/lib/guild-api/store/db";
import { idsInJson } from "@/lib/guild-api/store/users";
import { expectOperationResponse, expectSchema } from "../openapi";

let server: TestServer;
/** A member whose only role grants Ban Members (no Manage Server): may ban one by one, not in bulk. */
const BANNER = { userId: 5_100_000_000n, roleId: 5_100_000_001n };
beforeAll(async () => {
  // Hundreds of bans and prunes on purpose, in the strictest buckets: see TestServerOptions.rateLimits.
  server = await startTestServer({ rateLimits: { enabled: false } });
  const { insertMember } = await import("@/lib/guild-api/store/membership");
  await sql.run(
    "INSERT INTO users (id, username, discriminator, bot, created_at) VALUES (?, 'banner', '0', FALSE, 0)",
    BANNER.userId,
  );
  await sql.run(
    "INSERT INTO roles (id, guild_id, name, permissions, position) VALUES (?, ?, 'Banner', ?, 2)",
    BANNER.roleId,
    BigInt(guild()),
    PermissionFlagsBits.BanMembers,
  );
  await insertMember({ guildId: BigInt(guild()), userId: BANNER.userId, username: "banner", roleIds: [BANNER.roleId] });
});
afterAll(() => server?.close());

const guild = () => server.world.guildId;
/** Generated users that are neither members nor banned. */
const strangers = async () =>
  (
    (await sql.all(
      "SELECT id FROM users WHERE bot = FALSE AND id NOT IN (SELECT user_id FROM members) AND id NOT IN (SELECT user_id FROM bans) AND username LIKE '%\\_%' ESCAPE '\\' ORDER BY id",
    )) as Array<{ id: bigint }>
  ).map((r) => String(r.id));
/** Plain members with no roles, taken from the top of the id range so each call gets fresh ones after bans. */
const plainMembers = async (n: number) =>
  (
    (await sql.all(
      "SELECT user_id FROM members WHERE guild_id = ? AND role_count = 0 AND user_id NOT IN (SELECT owner_id FROM guilds) ORDER BY user_id DESC LIMIT ?",
      BigInt(guild()),
      n,
    )) as Array<{ user_id: bigint }>
  ).map((r) => String(r.user_id));
/** Events fired after `after`, oldest first. */
const isMember = async (userId: string) =>
  (await sql.get("SELECT 1 FROM members WHERE guild_id = ? AND user_id = ?", BigInt(guild()), BigInt(userId))) !==
  undefined;
const banCount = async () =>
  ((await sql.get("SELECT COUNT(*) AS n FROM bans WHERE guild_id = ?", BigInt(guild()))) as { n: bigint }).n;

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
    const [target] = await plainMembers(1);
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
    const [target] = await plainMembers(1);
    await server.rest("mod").put(Routes.guildBan(guild(), target), { reason: "first" });
    const count = await banCount();
    const since = await lastEventId();
    const response = await server.api(
      "mod",
      "PUT",
      `/guilds/${guild()}/bans/${target}`,
      {},
      { "x-audit-log-reason": "second" },
    );
    expect(response.status).toBe(204);
    expect(await banCount()).toBe(count);
    expect(await server.rest("mod").get(Routes.guildBan(guild(), target))).toMatchObject({ reason: "first" });
    expect(await eventsSince(since)).toEqual([]);
    expect(await auditEntries(guild(), 22, target)).toHaveLength(1);
  });

  test("a non-member can be banned (no GUILD_MEMBER_REMOVE); an unknown user is 10013; a non-snowflake is 50035", async () => {
    const [stranger] = await strangers();
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
      expect(await isMember(server.world.users[who])).toBe(true);
  });

  test("needs Ban Members for every operation: helper and member 50013, outsider 50001", async () => {
    const [target] = await plainMembers(1);
    const [banned] = (
      (await sql.all("SELECT user_id FROM bans WHERE guild_id = ? LIMIT 1", BigInt(guild()))) as Array<{
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
    expect(await isMember(target)).toBe(true);
    // Ban Members alone is enough for a single ban.
    await server.rest("banner").put(Routes.guildBan(guild(), target));
    expect(await isMember(target)).toBe(false);
  });

  test("delete_message_days 7 and delete_message_seconds 604800 are the edges", async () => {
    const [a, b] = await plainMembers(2);
    await server.rest("mod").put(Routes.guildBan(guild(), a), { body: { delete_message_days: 7 } });
    expect(await isMember(a)).toBe(false);
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
    expect(await isMember(b)).toBe(true);
  });
});

describe("Bulk Guild Ban", () => {
  test("200 ids where some fail: the owner, a higher role, the caller, already banned, unknown users", async () => {
    const banned = (
      (await sql.all(
        "SELECT user_id FROM bans WHERE guild_id = ? ORDER BY user_id LIMIT 3",
        BigInt(guild()),
      )) as Array<{
        user_id: bigint;
      }>
    ).map((r) => String(r.user_id));
    const unknown = ["11111", "22222"];
    const refused = [server.world.users.owner, server.world.users.admin, server.world.users.mod, ...banned, ...unknown];
    const members = await plainMembers(50);
    // Non-members are bannable too: fill the rest with fresh users.
    const fresh = Array.from({ length: 200 - refused.length - members.length }, (_, i) =>
      String(5_000_000_000n + BigInt(i)),
    );
    for (const [i, id] of fresh.entries())
      await sql.run(
        "INSERT INTO users (id, username, discriminator, bot, created_at) VALUES (?, ?, '0', FALSE, 0)",
        BigInt(id),
        `bulk_fresh_${i}`,
      );
    // Interleave refused ids with bannable ones: both lists keep the request's order.
    const bannable = [...members, ...fresh];
    const ids = [...bannable.slice(0, 100), ...refused, ...bannable.slice(100)];
    expect(ids).toHaveLength(200);
    const bansBefore = await banCount();
    const since = await lastEventId();
    const memberCount = async () =>
      (await sql.value("SELECT member_count FROM guilds WHERE id = ?", BigInt(guild()))) as bigint;
    const countBefore = await memberCount();

    const result = (await server.rest("mod").post(Routes.guildBulkBan(guild()), {
      body: { user_ids: ids, delete_message_seconds: 604800 },
      reason: "raid",
    })) as {
      banned_users: string[];
      failed_users: string[];
    };
    expectOperationResponse("POST", "/guilds/{guild_id}/bulk-ban", 200, result);
    expect(result).toEqual({ banned_users: bannable, failed_users: refused });
    expect(await banCount()).toBe(bansBefore + BigInt(bannable.length));
    for (const id of members) expect(await isMember(id)).toBe(false);
    expect(await memberCount()).toBe(countBefore - BigInt(members.length));
    const rolesLeft = await sql.value(
      `SELECT COUNT(*) FROM member_roles WHERE guild_id = ? AND user_id IN (${idsInJson()})`,
      BigInt(guild()),
      `[${members.join(",")}]`,
    );
    expect(rolesLeft).toBe(0n);
    for (const who of ["owner", "admin", "mod"] as const) expect(await isMember(server.world.users[who])).toBe(true);
    const fired = await eventsSince<{ guild_id: string; user: { id: string } }>(since);
    expect(fired.filter((e) => e.type === "GUILD_BAN_ADD").map((e) => e.d.user.id)).toEqual(bannable);
    expect(fired.filter((e) => e.type === "GUILD_MEMBER_REMOVE").map((e) => e.d.user.id)).toEqual(members);
    expect(fired).toHaveLength(bannable.length + members.length);
    expect(await auditEntries(guild(), 22, members[0])).toMatchObject([
      { userId: server.world.users.mod, reason: "raid" },
    ]);
  });

  test("when nobody can be banned: 400 500000 Failed to ban users, nothing changes", async () => {
    const before = await banCount();
    const since = await lastEventId();
    const [alreadyBanned] = (
      (await sql.all("SELECT user_id FROM bans WHERE guild_id = ? LIMIT 1", BigInt(guild()))) as Array<{
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
    expect(await banCount()).toBe(before);
    expect(await eventsSince(since)).toEqual([]);
  });

  test("needs Ban Members and Manage Server", async () => {
    const [target] = await plainMembers(1);
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
    expect(await isMember(target)).toBe(true);
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
    const [a] = await plainMembers(1);
    expect((await post({ user_ids: [a, "12345", a] }))?.rawError).toMatchObject({
      errors: { user_ids: { 2: { _errors: [{ code: "SET_TYPE_ALREADY_CONTAINS_VALUE" }] } } },
    });
    expect((await post({ user_ids: [a], delete_message_seconds: 604801 }))?.rawError).toMatchObject({
      errors: { delete_message_seconds: { _errors: [{ code: "NUMBER_TYPE_MAX" }] } },
    });
    expect(await isMember(a)).toBe(true);
  });
});
