// Members: Get/List/Search, Modify Guild Member (every field's permission, hierarchy, limits), member roles,
// Modify Current Member and Nick, Add Guild Member (OAuth2 guilds.join flow), Remove Guild Member; events in the
// outbox and audit entries. Tests run in order on one database.
import { describe, expect, test } from "vitest";
import { DiscordAPIError } from "@discordjs/rest";
import { PermissionFlagsBits as P, Routes } from "discord-api-types/v10";
import { PNG } from "pngjs";
import { auditEntries, fail, eventsSince, lastEventId, fieldCodes } from "./read-back";
import { testServerForFile } from "../harness";
import { sql } from "@/lib/guild-api/store/db";
import { expectOperationResponse, expectSchema } from "../openapi";

const server = testServerForFile();

interface Member {
  user: { id: string; username: string };
  nick: string | null;
  roles: string[];
  mute: boolean;
  deaf: boolean;
  flags: number;
  pending: boolean;
  avatar: string | null;
  communication_disabled_until: string | null;
}
const DAY = 86_400_000;
const q = (params: Record<string, string>) => ({ query: new URLSearchParams(params) });
const guild = () => server.world.guildId;
const users = () => server.world.users;
const roles = () => server.world.roles;
const member = (as: string, userId: string) =>
  server.rest(as).get(Routes.guildMember(guild(), userId)) as Promise<Member>;
const patch = (as: string, userId: string, body: unknown, reason?: string) =>
  server.rest(as).patch(Routes.guildMember(guild(), userId), { body, reason }) as Promise<Member>;
const voiceChannelOf = async (userId: string) =>
  (
    (await sql.get(
      "SELECT channel_id FROM voice_states WHERE guild_id = ? AND user_id = ?",
      BigInt(guild()),
      BigInt(userId),
    )) as { channel_id: bigint } | undefined
  )?.channel_id;
const memberCount = async () =>
  Number(
    ((await sql.get("SELECT member_count FROM guilds WHERE id = ?", BigInt(guild()))) as { member_count: bigint })
      .member_count,
  );
/** Generated users who are neither members nor banned, with their usernames. */
const strangers = async () =>
  (await sql.all(
    "SELECT id, username FROM users WHERE bot = FALSE AND username LIKE '%\\_%' ESCAPE '\\' AND id NOT IN (SELECT user_id FROM members WHERE guild_id = ?) AND id NOT IN (SELECT user_id FROM bans WHERE guild_id = ?) ORDER BY id",
    BigInt(guild()),
    BigInt(guild()),
  )) as Array<{ id: bigint; username: string }>;
const setEveryonePermissions = async (permissions: bigint) =>
  await sql.run("UPDATE roles SET permissions = ? WHERE id = ?", permissions, BigInt(guild()));
const everyonePermissions = async () =>
  ((await sql.get("SELECT permissions FROM roles WHERE id = ?", BigInt(guild()))) as { permissions: bigint })
    .permissions;
const png = (size: number) => PNG.sync.write(new PNG({ width: size, height: size }));

describe("Get Guild Member", () => {
  test("answers the member with its roles", async () => {
    const found = await member("member", users().mod);
    expect(found.user.username).toBe("mod");
    expect(found.nick).toBe("Mod Max");
    expect(found.roles.sort()).toEqual([roles().moderator, roles().regular].sort());
    expectOperationResponse("GET", "/guilds/{guild_id}/members/{user_id}", 200, found);
  });

  test("a user who is not a member: 10007; no such user: 10013; outsiders: 50001", async () => {
    expect(await fail(member("mod", users().outsider))).toMatchObject({ status: 404, code: 10007 });
    expect(await fail(member("mod", "12345"))).toMatchObject({ status: 404, code: 10013 });
    expect(await fail(member("outsider", users().mod))).toMatchObject({ status: 403, code: 50001 });
  });
});

describe("List Guild Members", () => {
  test("defaults to one member; pages ascending by user id with after", async () => {
    const [first] = (await server.rest("mod").get(Routes.guildMembers(guild()))) as Member[];
    const page = (await server.rest("mod").get(Routes.guildMembers(guild()), q({ limit: "1000" }))) as Member[];
    expect(page).toHaveLength(166);
    expect(page[0].user.id).toBe(first.user.id);
    const ids = page.map((m) => BigInt(m.user.id));
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : 1)));
    const next = (await server
      .rest("mod")
      .get(Routes.guildMembers(guild()), q({ limit: "10", after: page[99].user.id }))) as Member[];
    expect(next.map((m) => m.user.id)).toEqual(page.slice(100, 110).map((m) => m.user.id));
    expectOperationResponse("GET", "/guilds/{guild_id}/members", 200, next);
    expectOperationResponse("GET", "/guilds/{guild_id}/members", 200, page);
  });

  test("the page (stored wire JSON) equals Get Guild Member field for field, for every member, timeouts included", async () => {
    const [timedOut, expired] = (
      (await sql.all(
        "SELECT user_id FROM members WHERE guild_id = ? AND role_count = 0 AND user_id != ? ORDER BY user_id LIMIT 2",
        BigInt(guild()),
        BigInt(users().owner),
      )) as Array<{ user_id: bigint }>
    ).map((r) => r.user_id);
    const setTimeout = (until: bigint | null, guildId: bigint, userId: bigint) =>
      sql.run(
        "UPDATE members SET communication_disabled_until = ? WHERE guild_id = ? AND user_id = ?",
        until,
        guildId,
        userId,
      );
    await setTimeout(BigInt(Date.now() + DAY + 123), BigInt(guild()), timedOut);
    await setTimeout(BigInt(Date.now() - DAY), BigInt(guild()), expired);
    try {
      const page = (await server.rest("mod").get(Routes.guildMembers(guild()), q({ limit: "1000" }))) as Member[];
      expect(page.length).toBeGreaterThan(100);
      for (const listed of page) expect(listed).toEqual(await member("mod", listed.user.id));
      expect(page.find((m) => m.user.id === String(timedOut))!.communication_disabled_until).toMatch(/^\d{4}-.*Z$/);
      expect(page.find((m) => m.user.id === String(expired))!.communication_disabled_until).toBeNull();
    } finally {
      await setTimeout(null, BigInt(guild()), timedOut);
      await setTimeout(null, BigInt(guild()), expired);
    }
  });

  test("limit 1000 is the edge; 0 and 1001 are field errors; after must be a snowflake", async () => {
    for (const limit of ["0", "1001"]) {
      const error = await fail(server.rest("mod").get(Routes.guildMembers(guild()), q({ limit })));
      expect(error).toMatchObject({ status: 400, code: 50035 });
      expect(fieldCodes(error, "limit")).toEqual([limit === "0" ? "NUMBER_TYPE_MIN" : "NUMBER_TYPE_MAX"]);
    }
    expect(await fail(server.rest("mod").get(Routes.guildMembers(guild()), q({ after: "abc" })))).toMatchObject({
      status: 400,
      code: 50035,
    });
  });

  test("outsiders get 403 Missing Access", async () => {
    expect(await fail(server.rest("outsider").get(Routes.guildMembers(guild())))).toMatchObject({
      status: 403,
      code: 50001,
    });
  });

  test("a bot needs its application's GUILD_MEMBERS (or GUILD_MEMBERS_LIMITED) flag", async () => {
    expect(await server.rest("bot").get(Routes.guildMembers(guild()))).toHaveLength(1);
    try {
      await sql.run("UPDATE applications SET flags = 0");
      expect(await fail(server.rest("bot").get(Routes.guildMembers(guild())))).toMatchObject({
        status: 403,
        code: 50001,
        message: "Missing Access",
      });
      await sql.run("UPDATE applications SET flags = ?", 1 << 15);
      expect(await server.rest("bot").get(Routes.guildMembers(guild()))).toHaveLength(1);
    } finally {
      await sql.run("UPDATE applications SET flags = ?", 1 << 14);
    }
  });
});

describe("Search Guild Members", () => {
  test("matches the start of the username or the nick, case-insensitively", async () => {
    const byName = (await server
      .rest("member")
      .get(Routes.guildMembersSearch(guild()), q({ query: "MO", limit: "10" }))) as Member[];
    expect(byName.map((m) => m.user.username)).toContain("mod");
    const byNick = (await server
      .rest("member")
      .get(Routes.guildMembersSearch(guild()), q({ query: "admin a", limit: "10" }))) as Member[];
    expect(byNick.map((m) => m.user.username)).toEqual(["admin"]);
    expectOperationResponse("GET", "/guilds/{guild_id}/members/search", 200, byName);
  });

  test("a prefix in the middle of a name does not match; limit defaults to 1; limit 1000 is the edge", async () => {
    const none = (await server
      .rest("member")
      .get(Routes.guildMembersSearch(guild()), q({ query: "od", limit: "50" }))) as Member[];
    expect(none.map((m) => m.user.username)).not.toContain("mod");
    const one = (await server.rest("member").get(Routes.guildMembersSearch(guild()), q({ query: "a" }))) as Member[];
    expect(one).toHaveLength(1);
    const many = (await server
      .rest("member")
      .get(Routes.guildMembersSearch(guild()), q({ query: "a", limit: "1000" }))) as Member[];
    expect(new Set(many.map((m) => m.user.id)).size).toBe(many.length);
    expect(many.every((m) => m.user.username.startsWith("a") || m.nick?.toLowerCase().startsWith("a"))).toBe(true);
    expect(
      await fail(server.rest("member").get(Routes.guildMembersSearch(guild()), q({ query: "a", limit: "1001" }))),
    ).toMatchObject({ status: 400, code: 50035 });
  });

  test("nickname matches come first, then username matches, each member once", async () => {
    const search = async (query: string) =>
      (
        (await server.rest("member").get(Routes.guildMembersSearch(guild()), q({ query, limit: "10" }))) as Member[]
      ).map((m) => m.user.username);
    const [admin, mod] = [await member("admin", users().admin), await member("admin", users().mod)];
    try {
      // admin's nickname starts with "mod": admin comes first although "admin" sorts before "mod" by username.
      await patch("admin", users().admin, { nick: "Mod fan" });
      expect(await search("mod")).toEqual(["admin", "mod"]);
      // Both of mod's names start with "mod": mod comes once, among the nickname matches.
      await patch("admin", users().mod, { nick: "Moderator" });
      expect(await search("mod")).toEqual(["admin", "mod"]);
      expect(await search("moder")).toEqual(["mod"]);
    } finally {
      await patch("admin", users().admin, { nick: admin.nick });
      await patch("admin", users().mod, { nick: mod.nick });
    }
  });

  test("query is required", async () => {
    const error = await fail(server.rest("member").get(Routes.guildMembersSearch(guild())));
    expect((error as DiscordAPIError).rawError).toMatchObject({
      code: 50035,
      errors: { query: { _errors: [{ code: "BASE_TYPE_REQUIRED" }] } },
    });
  });
});

describe("Modify Guild Member", () => {
  test("nick: MANAGE_NICKNAMES; 32 characters ok, 33 refused; null clears; search follows the nick; event and audit", async () => {
    const nick = "Quokka".padEnd(32, "!");
    const before = await lastEventId();
    const updated = await patch("mod", users().member, { nick }, "nickname policy");
    expectOperationResponse("PATCH", "/guilds/{guild_id}/members/{user_id}", 200, updated);
    expect(updated.nick).toBe(nick);
    const [event] = await eventsSince(before);
    expect(event).toMatchObject({
      type: "GUILD_MEMBER_UPDATE",
      d: { guild_id: guild(), nick, user: { id: users().member }, roles: [roles().member] },
    });
    expect((await auditEntries(guild(), 24, users().member)).at(-1)).toMatchObject({
      userId: users().mod,
      reason: "nickname policy",
      changes: [{ key: "nick", old_value: null, new_value: nick }],
    });
    const found = (await server
      .rest("member")
      .get(Routes.guildMembersSearch(guild()), q({ query: "QUOK", limit: "5" }))) as Member[];
    expect(found.map((m) => m.user.id)).toEqual([users().member]);
    expect(found[0]).toEqual(updated); // the stored wire JSON follows the write

    const tooLong = await fail(patch("mod", users().member, { nick: "x".repeat(33) }));
    expect(tooLong).toMatchObject({ status: 400, code: 50035 });
    expect(fieldCodes(tooLong, "nick")).toEqual(["BASE_TYPE_MAX_LENGTH"]);

    expect((await patch("mod", users().member, { nick: null })).nick).toBeNull();
    expect(
      await server.rest("member").get(Routes.guildMembersSearch(guild()), q({ query: "quok", limit: "5" })),
    ).toEqual([]);
  });

  test("hierarchy: nobody acts on a member at or above their highest role, nor on the owner; the owner may act on anyone else", async () => {
    expect(await fail(patch("helper", users().member, { nick: "x" }))).toMatchObject({ status: 403, code: 50013 });
    expect(await fail(patch("mod", users().admin, { nick: "x" }))).toMatchObject({ status: 403, code: 50013 });
    expect(await fail(patch("mod", users().owner, { nick: "x" }))).toMatchObject({ status: 403, code: 50013 });
    expect(await fail(patch("admin", users().owner, { nick: "x" }))).toMatchObject({ status: 403, code: 50013 });
    expect(await fail(patch("outsider", users().member, { nick: "x" }))).toMatchObject({ status: 403, code: 50001 });
    expect((await patch("owner", users().admin, { nick: "Alice" })).nick).toBe("Alice");
    expect((await patch("owner", users().admin, { nick: "Admin Alice" })).nick).toBe("Admin Alice");
    // Acting on yourself is not acting on a member: the owner and members may change their own nick.
    expect((await patch("owner", users().owner, { nick: "The Boss" })).nick).toBe("The Boss");
    expect((await patch("member", users().member, { nick: "Just Me" })).nick).toBe("Just Me");
    expect(await fail(patch("mod", users().outsider, { nick: "x" }))).toMatchObject({ status: 404, code: 10007 });
    expect(await fail(patch("mod", "12345", { nick: "x" }))).toMatchObject({ status: 404, code: 10013 });
  });

  test("roles: MANAGE_ROLES; only roles below the caller's highest, never managed ones; unknown roles are field errors", async () => {
    const before = await lastEventId();
    const updated = await patch("mod", users().member, { roles: [roles().member, roles().regular] }, "promotion");
    expect(updated.roles.sort()).toEqual([roles().member, roles().regular].sort());
    expect((await eventsSince(before)).map((e) => e.type)).toEqual(["GUILD_MEMBER_UPDATE"]);
    expect((await auditEntries(guild(), 25, users().member)).at(-1)).toMatchObject({
      reason: "promotion",
      changes: [{ key: "$add", new_value: [{ id: roles().regular, name: "Regular" }] }],
    });
    const roleCount = async () =>
      Number(
        (
          (await sql.get(
            "SELECT role_count FROM members WHERE guild_id = ? AND user_id = ?",
            BigInt(guild()),
            BigInt(users().member),
          )) as { role_count: bigint }
        ).role_count,
      );
    expect(await roleCount()).toBe(2);

    expect(await fail(patch("mod", users().member, { roles: [roles().member, roles().moderator] }))).toMatchObject({
      status: 403,
      code: 50013,
    });
    expect(await fail(patch("owner", users().member, { roles: [roles().member, roles().bot] }))).toMatchObject({
      status: 403,
      code: 50013,
    });
    expect(await fail(patch("helper", users().member, { roles: [] }))).toMatchObject({ status: 403, code: 50013 });
    const unknown = await fail(patch("mod", users().member, { roles: [roles().member, "42"] }));
    expect(unknown).toMatchObject({ status: 400, code: 50035 });
    expect(fieldCodes(unknown, "roles", 1)).toEqual(["ROLE_INVALID"]);
    expect(fieldCodes(await fail(patch("mod", users().member, { roles: ["x"] })), "roles", 0)).toHaveLength(1);

    expect((await patch("mod", users().member, { roles: [roles().member] })).roles).toEqual([roles().member]);
    expect(await roleCount()).toBe(1);
    expect((await auditEntries(guild(), 25, users().member)).at(-1)!.changes).toEqual([
      { key: "$remove", new_value: [{ id: roles().regular, name: "Regular" }] },
    ]);
  });

  test("mute and deaf need voice; moving needs MOVE_MEMBERS and CONNECT on the target channel; null disconnects", async () => {
    const { townHall, lounge, general, afk } = {
      townHall: server.world.channels["Town Hall"],
      lounge: server.world.channels.Lounge,
      general: server.world.channels.general,
      afk: server.world.channels.AFK,
    };
    expect(String(await voiceChannelOf(users().member))).toBe(townHall);
    let before = await lastEventId();
    const muted = await patch("mod", users().member, { mute: true, deaf: true });
    expect(muted).toMatchObject({ mute: true, deaf: true });
    expect((await eventsSince(before)).map((e) => e.type).sort()).toEqual([
      "GUILD_MEMBER_UPDATE",
      "VOICE_STATE_UPDATE",
    ]);
    expect((await eventsSince(before)).find((e) => e.type === "VOICE_STATE_UPDATE")!.d).toMatchObject({
      guild_id: guild(),
      channel_id: townHall,
      user_id: users().member,
      mute: true,
      deaf: true,
    });

    expect(await fail(patch("mod", users().helper, { mute: true }))).toMatchObject({
      status: 400,
      code: 40032,
      message: "Target user is not connected to voice.",
    });
    expect(await fail(patch("mod", users().helper, { channel_id: lounge }))).toMatchObject({
      status: 400,
      code: 40032,
    });
    expect(await fail(patch("helper", users().member, { mute: false }))).toMatchObject({ status: 403, code: 50013 });
    expect(await fail(patch("helper", users().member, { deaf: false }))).toMatchObject({ status: 403, code: 50013 });
    expect(await fail(patch("helper", users().member, { channel_id: lounge }))).toMatchObject({
      status: 403,
      code: 50013,
    });
    expect(fieldCodes(await fail(patch("mod", users().member, { channel_id: general })), "channel_id")).toEqual([
      "CHANNEL_INVALID",
    ]);

    before = await lastEventId();
    await patch("mod", users().member, { channel_id: lounge }, "move to lounge");
    expect(String(await voiceChannelOf(users().member))).toBe(lounge);
    expect((await eventsSince(before)).find((e) => e.type === "VOICE_STATE_UPDATE")!.d).toMatchObject({
      channel_id: lounge,
      user_id: users().member,
    });
    expect((await auditEntries(guild(), 26)).at(-1)).toMatchObject({
      userId: users().mod,
      reason: "move to lounge",
      options: { channel_id: lounge, count: "1" },
    });

    // Without CONNECT on the target channel, no move.
    const denyConnect = [{ id: roles().moderator, type: 0, allow: "0", deny: String(P.Connect) }];
    await sql.run(
      "UPDATE channels SET permission_overwrites = ? WHERE id = ?",
      JSON.stringify(denyConnect),
      BigInt(afk),
    );
    expect(await fail(patch("mod", users().member, { channel_id: afk }))).toMatchObject({ status: 403, code: 50013 });
    expect(String(await voiceChannelOf(users().member))).toBe(lounge);

    before = await lastEventId();
    await patch("mod", users().member, { channel_id: null });
    expect(await voiceChannelOf(users().member)).toBeUndefined();
    expect((await eventsSince(before)).find((e) => e.type === "VOICE_STATE_UPDATE")!.d).toMatchObject({
      channel_id: null,
      user_id: users().member,
    });
    expect((await auditEntries(guild(), 27)).at(-1)).toMatchObject({ userId: users().mod, options: { count: "1" } });
    expect(await fail(patch("mod", users().member, { mute: false }))).toMatchObject({ status: 400, code: 40032 });
  });

  test("timeouts: MODERATE_MEMBERS; up to 28 days ahead; null removes; never an administrator, the owner or yourself", async () => {
    const until = new Date(Date.now() + 28 * DAY).toISOString();
    const timedOut = await patch("mod", users().member, { communication_disabled_until: until }, "cool down");
    expect(timedOut.communication_disabled_until).toBe(until);
    expect((await auditEntries(guild(), 24, users().member)).at(-1)).toMatchObject({
      reason: "cool down",
      changes: [{ key: "communication_disabled_until", old_value: null, new_value: until }],
    });
    // A timed-out member loses their permissions (changing their own nick included).
    expect(await fail(patch("member", users().member, { nick: "x" }))).toMatchObject({ status: 403, code: 50013 });

    const tooFar = await fail(
      patch("mod", users().member, {
        communication_disabled_until: new Date(Date.now() + 28 * DAY + 60_000).toISOString(),
      }),
    );
    expect(tooFar).toMatchObject({ status: 400, code: 50035 });
    expect(fieldCodes(tooFar, "communication_disabled_until")).toEqual(["TIMEOUT_TOO_LONG"]);
    expect(
      fieldCodes(
        await fail(patch("mod", users().member, { communication_disabled_until: "tomorrow" })),
        "communication_disabled_until",
      ),
    ).toEqual(["DATE_TIME_TYPE_PARSE"]);
    expect(
      (await patch("mod", users().member, { communication_disabled_until: null })).communication_disabled_until,
    ).toBeNull();

    const soon = new Date(Date.now() + DAY).toISOString();
    expect(await fail(patch("owner", users().admin, { communication_disabled_until: soon }))).toMatchObject({
      status: 403,
      code: 50013,
    });
    expect(await fail(patch("admin", users().owner, { communication_disabled_until: soon }))).toMatchObject({
      status: 403,
      code: 50013,
    });
    expect(await fail(patch("mod", users().mod, { communication_disabled_until: soon }))).toMatchObject({
      status: 403,
      code: 50013,
    });
    expect(await fail(patch("helper", users().member, { communication_disabled_until: soon }))).toMatchObject({
      status: 403,
      code: 50013,
    });
  });

  test("flags: MANAGE_GUILD, MANAGE_ROLES or MODERATE+KICK+BAN; only BYPASSES_VERIFICATION changes, other bits are kept", async () => {
    expect((await patch("mod", users().member, { flags: 1 | 4 | 8 })).flags).toBe(4);
    await sql.run(
      "UPDATE members SET flags = 1 | 4 WHERE guild_id = ? AND user_id = ?",
      BigInt(guild()),
      BigInt(users().member),
    );
    expect((await patch("mod", users().member, { flags: 0 })).flags).toBe(1);
    expect(await fail(patch("helper", users().member, { flags: 4 }))).toMatchObject({ status: 403, code: 50013 });
    expect(await fail(patch("member", users().member, { flags: 4 }))).toMatchObject({ status: 403, code: 50013 });
    await sql.run(
      "UPDATE members SET flags = 0 WHERE guild_id = ? AND user_id = ?",
      BigInt(guild()),
      BigInt(users().member),
    );
  });
});

describe("Add Guild Member Role / Remove Guild Member Role", () => {
  test("MANAGE_ROLES; 204; idempotent; one GUILD_MEMBER_UPDATE per change; audited", async () => {
    let before = await lastEventId();
    await server
      .rest("mod")
      .put(Routes.guildMemberRole(guild(), users().member, roles().regular), { reason: "helpful" });
    expect((await member("mod", users().member)).roles.sort()).toEqual([roles().member, roles().regular].sort());
    const listed = (await server
      .rest("mod")
      .get(Routes.guildMembers(guild()), q({ limit: "1", after: String(BigInt(users().member) - 1n) }))) as Member[];
    expect(listed[0].roles.sort()).toEqual([roles().member, roles().regular].sort()); // the stored wire JSON follows
    expect(await eventsSince(before)).toMatchObject([
      { type: "GUILD_MEMBER_UPDATE", d: { guild_id: guild(), user: { id: users().member } } },
    ]);
    expect((await auditEntries(guild(), 25, users().member)).at(-1)).toMatchObject({
      reason: "helpful",
      changes: [{ key: "$add", new_value: [{ id: roles().regular, name: "Regular" }] }],
    });
    before = await lastEventId();
    const again = await server.api(
      "mod",
      "PUT",
      `/guilds/${guild()}/members/${users().member}/roles/${roles().regular}`,
    );
    expect(again.status).toBe(204);
    expect(await again.text()).toBe("");
    expect(await eventsSince(before)).toEqual([]);
    await server.rest("mod").delete(Routes.guildMemberRole(guild(), users().member, roles().regular));
    expect((await member("mod", users().member)).roles).toEqual([roles().member]);
    expect((await eventsSince(before)).map((e) => e.type)).toEqual(["GUILD_MEMBER_UPDATE"]);
  });

  test("the events carry the member as Get Guild Member answers it: a timeout, then roles in id order with role_count in step", async () => {
    const userId = users().member;
    const roleCount = async () =>
      Number(
        (
          (await sql.get(
            "SELECT role_count FROM members WHERE guild_id = ? AND user_id = ?",
            BigInt(guild()),
            BigInt(userId),
          )) as { role_count: bigint }
        ).role_count,
      );
    const until = new Date(Date.now() + DAY).toISOString();
    const beforeTimeout = await lastEventId();
    const timedOut = await patch("mod", userId, { communication_disabled_until: until });
    expect(timedOut.communication_disabled_until).toBe(until);
    expect(await eventsSince(beforeTimeout)).toMatchObject([
      { type: "GUILD_MEMBER_UPDATE", d: { guild_id: guild(), ...(await member("mod", userId)) } },
    ]);
    try {
      for (const [change, roleId] of [
        ["add", roles().regular],
        ["add", roles().helper],
        ["remove", roles().regular],
        ["remove", roles().helper],
      ] as const) {
        const before = await lastEventId();
        const count = await roleCount();
        const route = Routes.guildMemberRole(guild(), userId, roleId);
        await (change === "add" ? server.rest("mod").put(route) : server.rest("mod").delete(route));
        const now = await member("mod", userId);
        expect(now.communication_disabled_until).toBe(until);
        expect(now.roles).toEqual([...now.roles].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)));
        expect(now.roles.includes(roleId)).toBe(change === "add");
        expect(await eventsSince(before)).toMatchObject([
          { type: "GUILD_MEMBER_UPDATE", d: { guild_id: guild(), ...now } },
        ]);
        expect(await roleCount()).toBe(count + (change === "add" ? 1 : -1));
        expect(await roleCount()).toBe(now.roles.length);
      }
    } finally {
      await patch("mod", userId, { communication_disabled_until: null });
    }
  });

  test("hierarchy, managed roles, unknown roles and members, missing permission", async () => {
    const put = (as: string, userId: string, roleId: string) =>
      fail(server.rest(as).put(Routes.guildMemberRole(guild(), userId, roleId)));
    expect(await put("mod", users().member, roles().admin)).toMatchObject({ status: 403, code: 50013 });
    expect(await put("mod", users().member, roles().moderator)).toMatchObject({ status: 403, code: 50013 });
    expect(await put("mod", users().admin, roles().member)).toMatchObject({ status: 403, code: 50013 });
    expect(await put("owner", users().member, roles().bot)).toMatchObject({ status: 403, code: 50013 });
    expect(await put("helper", users().member, roles().regular)).toMatchObject({ status: 403, code: 50013 });
    expect(await put("mod", users().member, "42")).toMatchObject({ status: 404, code: 10011 });
    expect(await put("mod", users().member, guild())).toMatchObject({ status: 404, code: 10011 });
    expect(await put("mod", users().outsider, roles().regular)).toMatchObject({ status: 404, code: 10007 });
    expect(
      await fail(server.rest("mod").delete(Routes.guildMemberRole(guild(), users().admin, roles().admin))),
    ).toMatchObject({ status: 403, code: 50013 });
    // The owner may give anyone any unmanaged role.
    await server.rest("owner").put(Routes.guildMemberRole(guild(), users().helper, roles().admin));
    expect((await member("mod", users().helper)).roles).toContain(roles().admin);
    await server.rest("owner").delete(Routes.guildMemberRole(guild(), users().helper, roles().admin));
  });
});

describe("Modify Current Member / Modify Current User Nick", () => {
  test("nick with CHANGE_NICKNAME; avatar as a data URI; @me (as sent, or percent-encoded as Routes does) wins over :userId", async () => {
    const raw = await server.api("member", "PATCH", `/guilds/${guild()}/members/@me`, { nick: "Raw" });
    expect(raw.status).toBe(200);
    expect(((await raw.json()) as Member).nick).toBe("Raw");
    expect(Routes.guildMember(guild(), "@me")).toContain("%40me");
    const before = await lastEventId();
    const me = (await server
      .rest("member")
      .patch(Routes.guildMember(guild(), "@me"), { body: { nick: "Me Myself", bio: "hi" } })) as Member;
    expectOperationResponse("PATCH", "/guilds/{guild_id}/members/@me", 200, me);
    expect(me).toMatchObject({ nick: "Me Myself", user: { id: users().member } });
    expect(await eventsSince(before)).toMatchObject([
      { type: "GUILD_MEMBER_UPDATE", d: { guild_id: guild(), nick: "Me Myself" } },
    ]);

    const image = png(128);
    const withAvatar = (await server.rest("member").patch(Routes.guildMember(guild(), "@me"), {
      body: { avatar: `data:image/png;base64,${image.toString("base64")}` },
    })) as Member;
    expect(withAvatar.avatar).toMatch(/^[0-9a-f]{32}$/);
    expect(withAvatar.nick).toBe("Me Myself");
    const served = await fetch(`${server.baseUrl}/cdn/avatars/${users().member}/${withAvatar.avatar}.png`);
    expect(served.status).toBe(200);
    expect(
      ((await server.rest("member").patch(Routes.guildMember(guild(), "@me"), { body: { avatar: null } })) as Member)
        .avatar,
    ).toBeNull();
    expect(
      fieldCodes(
        await fail(
          server.rest("member").patch(Routes.guildMember(guild(), "@me"), { body: { avatar: "not an image" } }),
        ),
        "avatar",
      ),
    ).toEqual(["IMAGE_INVALID"]);
    expect(
      fieldCodes(
        await fail(server.rest("member").patch(Routes.guildMember(guild(), "@me"), { body: { nick: "y".repeat(33) } })),
        "nick",
      ),
    ).toEqual(["BASE_TYPE_MAX_LENGTH"]);
  });

  test("Modify Current User Nick answers {nick}; both need CHANGE_NICKNAME", async () => {
    const answer = await server
      .rest("member")
      .patch(`/guilds/${guild()}/members/@me/nick`, { body: { nick: "Shorty" } });
    expect(
      await server.rest("member").patch(`/guilds/${guild()}/members/%40me/nick`, { body: { nick: "Shorty" } }),
    ).toEqual({ nick: "Shorty" });
    expect(
      await fail(
        server.rest("member").patch(`/guilds/${guild()}/members/${users().member}/nick`, { body: { nick: "x" } }),
      ),
    ).toMatchObject({ status: 404 });
    expect(answer).toEqual({ nick: "Shorty" });
    expect((await member("mod", users().member)).nick).toBe("Shorty");
    const permissions = await everyonePermissions();
    await setEveryonePermissions(permissions & ~P.ChangeNickname);
    try {
      expect(
        await fail(server.rest("member").patch(`/guilds/${guild()}/members/@me/nick`, { body: { nick: "x" } })),
      ).toMatchObject({ status: 403, code: 50013 });
      expect(
        await fail(server.rest("member").patch(Routes.guildMember(guild(), "@me"), { body: { nick: "x" } })),
      ).toMatchObject({ status: 403, code: 50013 });
      // Other fields still work without it.
      expect(
        ((await server.rest("member").patch(Routes.guildMember(guild(), "@me"), { body: { banner: null } })) as Member)
          .nick,
      ).toBe("Shorty");
    } finally {
      await setEveryonePermissions(permissions);
    }
    expect(await server.rest("member").patch(`/guilds/${guild()}/members/@me/nick`, { body: { nick: null } })).toEqual({
      nick: null,
    });
  });
});

describe("Add Guild Member", () => {
  const put = (as: string | null, userId: string, body: unknown) =>
    server.api(as, "PUT", `/guilds/${guild()}/members/${userId}`, body);

  test("a bot adds a user who granted guilds.join to its application: 201, then 204; GUILD_MEMBER_ADD", async () => {
    const [stranger] = await strangers();
    const token = await server.tokenFor(stranger.username, ["guilds.join"]);
    const count = await memberCount();
    const before = await lastEventId();
    const added = (await server
      .rest("bot")
      .put(Routes.guildMember(guild(), String(stranger.id)), { body: { access_token: token } })) as Member;
    expectOperationResponse("PUT", "/guilds/{guild_id}/members/{user_id}", 201, added);
    expect(added).toMatchObject({ user: { id: String(stranger.id) }, roles: [], pending: false, nick: null });
    expect(await memberCount()).toBe(count + 1);
    const [event] = await eventsSince(before);
    expect(event).toMatchObject({
      type: "GUILD_MEMBER_ADD",
      d: { guild_id: guild(), user: { id: String(stranger.id) }, pending: false },
    });
    const { guild_id: _guildId, ...eventMember } = event.d;
    expectSchema("GuildMemberResponse", eventMember);

    const response = await put("bot", String(stranger.id), { access_token: token, nick: "ignored" });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    expect(await memberCount()).toBe(count + 1);
    expect((await member("mod", String(stranger.id))).nick).toBeNull();
  });

  test("with nick, roles, mute and deaf; Bearer callers are refused", async () => {
    const token = await server.tokenFor("outsider", ["guilds.join"]);
    const refused = await put("mod", users().outsider, { access_token: token });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 20002 });
    const added = (await server.rest("bot").put(Routes.guildMember(guild(), users().outsider), {
      body: { access_token: token, nick: "Newbie", roles: [roles().member], mute: true, deaf: false },
    })) as Member;
    expect(added).toMatchObject({ nick: "Newbie", roles: [roles().member], mute: true, deaf: false });
    expectSchema("GuildMemberResponse", added);
  });

  test("the token must be valid, for that user, of the bot's application, with guilds.join", async () => {
    const [first, second] = await strangers();
    expect(
      await (
        await put("bot", String(first.id), {
          access_token: await server.tokenFor(first.username, ["identify", "guilds"]),
        })
      ).json(),
    ).toMatchObject({ code: 50026 });
    const wrongUser = await put("bot", String(second.id), {
      access_token: await server.tokenFor(first.username, ["guilds.join"]),
    });
    expect(wrongUser.status).toBe(403);
    expect(await wrongUser.json()).toMatchObject({ code: 50025, message: "Invalid OAuth2 access token" });
    expect(await (await put("bot", String(first.id), { access_token: "not-a-token" })).json()).toMatchObject({
      code: 50025,
    });
    // Another application's token: move the token to a new application.
    const token = await server.tokenFor(first.username, ["guilds.join"]);
    await sql.run("UPDATE oauth2_tokens SET application_id = 42 WHERE id = (SELECT MAX(id) FROM oauth2_tokens)");
    expect(await (await put("bot", String(first.id), { access_token: token })).json()).toMatchObject({ code: 50025 });
    const missing = await put("bot", String(first.id), {});
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({
      code: 50035,
      errors: { access_token: { _errors: [{ code: "BASE_TYPE_REQUIRED" }] } },
    });
  });

  test("banned users are refused with 40007; with Membership Screening the new member is pending", async () => {
    const banned = (await sql.get(
      "SELECT u.id, u.username FROM bans b JOIN users u ON u.id = b.user_id WHERE b.guild_id = ? ORDER BY u.id LIMIT 1",
      BigInt(guild()),
    )) as { id: bigint; username: string };
    const response = await put("bot", String(banned.id), {
      access_token: await server.tokenFor(banned.username, ["guilds.join"]),
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: 40007, message: "The user is banned from this guild." });

    const [stranger] = await strangers();
    const features = (
      (await sql.get("SELECT features FROM guilds WHERE id = ?", BigInt(guild()))) as { features: string }
    ).features;
    await sql.run(
      "UPDATE guilds SET features = ? WHERE id = ?",
      JSON.stringify([...(JSON.parse(features) as string[]), "MEMBER_VERIFICATION_GATE_ENABLED"]),
      BigInt(guild()),
    );
    try {
      const before = await lastEventId();
      const added = (await server.rest("bot").put(Routes.guildMember(guild(), String(stranger.id)), {
        body: { access_token: await server.tokenFor(stranger.username, ["guilds.join"]) },
      })) as Member;
      expect(added.pending).toBe(true);
      expect((await eventsSince(before))[0]).toMatchObject({ type: "GUILD_MEMBER_ADD", d: { pending: true } });
    } finally {
      await sql.run("UPDATE guilds SET features = ? WHERE id = ?", features, BigInt(guild()));
    }
  });
});

describe("Remove Guild Member", () => {
  test("KICK_MEMBERS + hierarchy: 204, GUILD_MEMBER_REMOVE {guild_id, user}, audited with the reason", async () => {
    const target = (await sql.get(
      "SELECT user_id FROM members WHERE guild_id = ? AND role_count = 0 AND user_id != ? ORDER BY user_id DESC LIMIT 1",
      BigInt(guild()),
      BigInt(users().owner),
    )) as { user_id: bigint };
    const userId = String(target.user_id);
    const count = await memberCount();
    const before = await lastEventId();
    await server.rest("helper").delete(Routes.guildMember(guild(), userId), { reason: "spam" });
    expect(await fail(member("mod", userId))).toMatchObject({ status: 404, code: 10007 });
    expect(await memberCount()).toBe(count - 1);
    const [event] = await eventsSince(before);
    expect(event.type).toBe("GUILD_MEMBER_REMOVE");
    expect(Object.keys(event.d).sort()).toEqual(["guild_id", "user"]);
    expect(event.d).toMatchObject({ guild_id: guild(), user: { id: userId } });
    expectSchema("UserResponse", event.d.user);
    expect((await auditEntries(guild(), 20, userId)).at(-1)).toMatchObject({ userId: users().helper, reason: "spam" });
    expect(await fail(server.rest("helper").delete(Routes.guildMember(guild(), userId)))).toMatchObject({
      status: 404,
      code: 10007,
    });
  });

  test("nobody kicks someone at or above them, the owner, or themselves; members without KICK_MEMBERS cannot kick", async () => {
    const kick = (as: string, userId: string) => fail(server.rest(as).delete(Routes.guildMember(guild(), userId)));
    expect(await kick("helper", users().mod)).toMatchObject({ status: 403, code: 50013 });
    expect(await kick("mod", users().admin)).toMatchObject({ status: 403, code: 50013 });
    expect(await kick("admin", users().owner)).toMatchObject({ status: 403, code: 50013 });
    expect(await kick("mod", users().mod)).toMatchObject({ status: 403, code: 50013 });
    expect(await kick("member", users().helper)).toMatchObject({ status: 403, code: 50013 });
    expect(await kick("owner", "12345")).toMatchObject({ status: 404, code: 10013 });
    // The owner can kick anyone else.
    await server.rest("owner").delete(Routes.guildMember(guild(), users().outsider));
    expect(await fail(member("mod", users().outsider))).toMatchObject({ status: 404, code: 10007 });
  });
});
