// GET /users/@me/guilds (the caller's guilds with owner, permissions and counts) and
// GET /users/@me/guilds/{guild.id}/member (the caller's member object with its permissions).
import { describe, expect, test } from "vitest";
import { Routes } from "discord-api-types/v10";
import { ALL_PERMISSIONS } from "@/lib/discord/permissions";
import { MODERATOR_PERMISSIONS, EVERYONE_PERMISSIONS } from "@/lib/seed/demo-world";
import { testServerForFile } from "../harness";
import { sql } from "@/lib/guild-api/store/db";
import { expectOperationResponse, expectSchema } from "../openapi";

const server = testServerForFile();

interface MyGuild {
  id: string;
  name: string;
  owner: boolean;
  permissions: string;
  features: string[];
  approximate_member_count?: number;
  approximate_presence_count?: number;
}

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
const get = (path: string, token: string) => fetch(`${server.baseUrl}/api/v10${path}`, bearer(token));

describe("GET /users/@me/guilds", () => {
  test("mod sees both guilds, ascending by id, with its base permissions and no counts unless asked", async () => {
    const guilds = (await server.rest("mod").get(Routes.userGuilds())) as MyGuild[];
    expect(guilds.map((g) => g.name)).toEqual(["Guildhall HQ", "Side Project"]);
    expect(BigInt(guilds[0].id)).toBeLessThan(BigInt(guilds[1].id));
    expectOperationResponse("GET", "/users/@me/guilds", 200, guilds);
    for (const guild of guilds) expectSchema("MyGuildResponse", guild);
    const [hq, side] = guilds;
    expect(hq.owner).toBe(false);
    expect(BigInt(hq.permissions)).toBe(EVERYONE_PERMISSIONS | MODERATOR_PERMISSIONS);
    expect(hq.approximate_member_count).toBeUndefined();
    expect(side.owner).toBe(false);
  });

  test("the owner has every permission, an administrator too; the owner flag is per guild", async () => {
    const ownerGuilds = (await server.rest("owner").get(Routes.userGuilds())) as MyGuild[];
    const hq = ownerGuilds.find((g) => g.id === server.world.guildId)!;
    expect(hq.owner).toBe(true);
    expect(hq.permissions).toBe(String(ALL_PERMISSIONS));
    const adminGuilds = (await server.rest("admin").get(Routes.userGuilds())) as MyGuild[];
    expect(adminGuilds.map((g) => [g.name, g.owner])).toEqual([
      ["Guildhall HQ", false],
      ["Side Project", true],
    ]);
    expect(adminGuilds.every((g) => g.permissions === String(ALL_PERMISSIONS))).toBe(true);
  });

  test("with_counts adds the member count and the count of members not offline", async () => {
    const guilds = (await server
      .rest("owner")
      .get(Routes.userGuilds(), { query: new URLSearchParams({ with_counts: "true" }) })) as MyGuild[];
    const hq = guilds.find((g) => g.id === server.world.guildId)!;
    const stored = (await sql.get("SELECT member_count FROM guilds WHERE id = ?", BigInt(hq.id))) as {
      member_count: bigint;
    };
    const online = (await sql.get(
      "SELECT COUNT(*) AS n FROM members WHERE guild_id = ? AND status != 'offline'",
      BigInt(hq.id),
    )) as { n: bigint };
    expect(hq.approximate_member_count).toBe(Number(stored.member_count));
    expect(hq.approximate_member_count).toBe(166);
    expect(hq.approximate_presence_count).toBe(Number(online.n));
    expect(hq.approximate_presence_count).toBeGreaterThan(0);
    expect(hq.approximate_presence_count).toBeLessThan(166);
    for (const guild of guilds) expectSchema("MyGuildResponse", guild);
  });

  test("limit, after and before page by guild id", async () => {
    const [first, ...rest] = (await server
      .rest("mod")
      .get(Routes.userGuilds(), { query: new URLSearchParams({ limit: "1" }) })) as MyGuild[];
    expect(rest).toEqual([]);
    expect(first.id).toBe(server.world.guildId);
    const afterFirst = (await server
      .rest("mod")
      .get(Routes.userGuilds(), { query: new URLSearchParams({ after: first.id }) })) as MyGuild[];
    expect(afterFirst.map((g) => g.id)).toEqual([server.world.sideGuildId]);
    const beforeSide = (await server
      .rest("mod")
      .get(Routes.userGuilds(), { query: new URLSearchParams({ before: server.world.sideGuildId }) })) as MyGuild[];
    expect(beforeSide.map((g) => g.id)).toEqual([first.id]);
    // before takes the guilds just below it: limit 1 before "past everything" is the last guild.
    const last = (await server.rest("mod").get(Routes.userGuilds(), {
      query: new URLSearchParams({ before: String((1n << 63n) - 1n), limit: "1" }),
    })) as MyGuild[];
    expect(last.map((g) => g.id)).toEqual([server.world.sideGuildId]);
    const window = (await server.rest("mod").get(Routes.userGuilds(), {
      query: new URLSearchParams({ after: first.id, before: server.world.sideGuildId }),
    })) as MyGuild[];
    expect(window).toEqual([]);
  });

  test("bad paging is a field error; a token without the guilds scope is refused", async () => {
    const tooMany = await server.api("mod", "GET", "/users/@me/guilds?limit=201");
    expect(tooMany.status).toBe(400);
    expect(await tooMany.json()).toMatchObject({
      code: 50035,
      errors: { limit: { _errors: [{ code: "NUMBER_TYPE_MAX" }] } },
    });
    const zero = await server.api("mod", "GET", "/users/@me/guilds?limit=0");
    expect(zero.status).toBe(400);
    const notSnowflake = await server.api("mod", "GET", "/users/@me/guilds?after=abc");
    expect(await notSnowflake.json()).toMatchObject({ code: 50035, errors: { after: {} } });
    const past64Bits = await server.api("mod", "GET", `/users/@me/guilds?before=${"9".repeat(20)}`);
    expect(past64Bits.status).toBe(400);
    expect(await past64Bits.json()).toMatchObject({ code: 50035, errors: { before: {} } });
    const response = await get("/users/@me/guilds", await server.tokenFor("mod", ["identify"]));
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: 50026 });
  });

  test("the bot sees its guilds; an outsider is in none", async () => {
    const botGuilds = (await server.rest("bot").get(Routes.userGuilds())) as MyGuild[];
    expect(botGuilds.map((g) => g.id)).toContain(server.world.guildId);
    expect(await server.rest("outsider").get(Routes.userGuilds())).toEqual([]);
  });
});

describe("GET /users/@me/guilds/{guild.id}/member", () => {
  test("the member object with roles and base permissions (scope guilds.members.read)", async () => {
    const token = await server.tokenFor("mod", ["guilds.members.read"]);
    const response = await get(`/users/@me/guilds/${server.world.guildId}/member`, token);
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      user: { id: string };
      roles: string[];
      permissions: string;
      joined_at: string;
    };
    expect(body.user.id).toBe(server.world.users.mod);
    expect(body.roles.sort()).toEqual([server.world.roles.moderator, server.world.roles.regular].sort());
    expect(BigInt(body.permissions)).toBe(EVERYONE_PERMISSIONS | MODERATOR_PERMISSIONS);
    expectOperationResponse("GET", "/users/@me/guilds/{guild_id}/member", 200, body);
    expectSchema("PrivateGuildMemberResponse", body);

    const owner = (await (
      await get(
        `/users/@me/guilds/${server.world.guildId}/member`,
        await server.tokenFor("owner", ["guilds.members.read"]),
      )
    ).json()) as { permissions: string };
    expect(owner.permissions).toBe(String(ALL_PERMISSIONS));
  });

  test("without the scope 403 50026; bots can't use it; not a member or no such guild is Unknown Guild", async () => {
    const noScope = await get(
      `/users/@me/guilds/${server.world.guildId}/member`,
      await server.tokenFor("mod", ["identify", "guilds"]),
    );
    expect(noScope.status).toBe(403);
    expect(await noScope.json()).toMatchObject({ code: 50026 });
    const bot = await server.api("bot", "GET", `/users/@me/guilds/${server.world.guildId}/member`);
    expect(bot.status).toBe(403);
    expect(await bot.json()).toMatchObject({ code: 20001 });
    const outsider = await get(
      `/users/@me/guilds/${server.world.guildId}/member`,
      await server.tokenFor("outsider", ["guilds.members.read"]),
    );
    expect(outsider.status).toBe(404);
    expect(await outsider.json()).toMatchObject({ code: 10004 });
    const missing = await get("/users/@me/guilds/123/member", await server.tokenFor("mod", ["guilds.members.read"]));
    expect(await missing.json()).toMatchObject({ code: 10004 });
    const bad = await get("/users/@me/guilds/abc/member", await server.tokenFor("mod", ["guilds.members.read"]));
    expect(bad.status).toBe(400);
  });
});
