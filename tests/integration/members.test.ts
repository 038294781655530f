// Get Guild Member, List Guild Members and Search Guild Members.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DiscordAPIError } from "@discordjs/rest";
import { Routes } from "discord-api-types/v10";
import { startTestServer, type TestServer } from "./harness";
import { expectOperationResponse } from "./openapi";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

interface Member { user: { id: string; username: string }; nick: string | null; roles: string[] }
const fail = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => error as DiscordAPIError);
const q = (params: Record<string, string>) => ({ query: new URLSearchParams(params) });

describe("Get Guild Member", () => {
  test("answers the member with its roles", async () => {
    const member = (await server.rest("member").get(Routes.guildMember(server.world.guildId, server.world.users.mod))) as Member;
    expect(member.user.username).toBe("mod");
    expect(member.nick).toBe("Mod Max");
    expect(member.roles.sort()).toEqual([server.world.roles.moderator, server.world.roles.regular].sort());
    expectOperationResponse("GET", "/guilds/{guild_id}/members/{user_id}", 200, member);
  });

  test("a user who is not a member: 10007; no such user: 10013", async () => {
    expect(await fail(server.rest("mod").get(Routes.guildMember(server.world.guildId, server.world.users.outsider)))).toMatchObject({ status: 404, code: 10007 });
    expect(await fail(server.rest("mod").get(Routes.guildMember(server.world.guildId, "12345")))).toMatchObject({ status: 404, code: 10013 });
  });
});

describe("List Guild Members", () => {
  test("defaults to one member; pages ascending by user id with after", async () => {
    const [first] = (await server.rest("mod").get(Routes.guildMembers(server.world.guildId))) as Member[];
    const page = (await server.rest("mod").get(Routes.guildMembers(server.world.guildId), q({ limit: "1000" }))) as Member[];
    expect(page).toHaveLength(166);
    expect(page[0].user.id).toBe(first.user.id);
    const ids = page.map((m) => BigInt(m.user.id));
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : 1)));
    const next = (await server.rest("mod").get(Routes.guildMembers(server.world.guildId), q({ limit: "10", after: page[99].user.id }))) as Member[];
    expect(next.map((m) => m.user.id)).toEqual(page.slice(100, 110).map((m) => m.user.id));
    expectOperationResponse("GET", "/guilds/{guild_id}/members", 200, next);
  });

  test("limit 1000 is the edge; 0 and 1001 are field errors", async () => {
    for (const limit of ["0", "1001"]) {
      const error = await fail(server.rest("mod").get(Routes.guildMembers(server.world.guildId), q({ limit })));
      expect(error).toMatchObject({ status: 400, code: 50035 });
      expect(JSON.stringify((error as DiscordAPIError).rawError)).toContain(limit === "0" ? "NUMBER_TYPE_MIN" : "NUMBER_TYPE_MAX");
    }
  });

  test("outsiders get 403 Missing Access", async () => {
    expect(await fail(server.rest("outsider").get(Routes.guildMembers(server.world.guildId)))).toMatchObject({ status: 403, code: 50001 });
  });

  test("a bot needs its application's GUILD_MEMBERS intent flag", async () => {
    expect(await server.rest("bot").get(Routes.guildMembers(server.world.guildId))).toHaveLength(1);
    const { db } = await import("@/lib/guild-api/store/db");
    db().prepare("UPDATE applications SET flags = 0").run();
    try {
      expect(await fail(server.rest("bot").get(Routes.guildMembers(server.world.guildId)))).toMatchObject({ status: 403, code: 50001 });
    } finally {
      db().prepare("UPDATE applications SET flags = ?").run(1 << 14);
    }
  });
});

describe("Search Guild Members", () => {
  test("matches the start of the username or the nick, case-insensitively", async () => {
    const byName = (await server.rest("member").get(Routes.guildMembersSearch(server.world.guildId), q({ query: "MO", limit: "10" }))) as Member[];
    expect(byName.map((m) => m.user.username)).toContain("mod");
    const byNick = (await server.rest("member").get(Routes.guildMembersSearch(server.world.guildId), q({ query: "admin a", limit: "10" }))) as Member[];
    expect(byNick.map((m) => m.user.username)).toEqual(["admin"]);
    expectOperationResponse("GET", "/guilds/{guild_id}/members/search", 200, byName);
  });

  test("a prefix in the middle of a name does not match; limit defaults to 1", async () => {
    const none = (await server.rest("member").get(Routes.guildMembersSearch(server.world.guildId), q({ query: "od", limit: "50" }))) as Member[];
    expect(none.map((m) => m.user.username)).not.toContain("mod");
    const one = (await server.rest("member").get(Routes.guildMembersSearch(server.world.guildId), q({ query: "a" }))) as Member[];
    expect(one).toHaveLength(1);
  });

  test("query is required", async () => {
    const error = await fail(server.rest("member").get(Routes.guildMembersSearch(server.world.guildId)));
    expect((error as DiscordAPIError).rawError).toMatchObject({ code: 50035, errors: { query: { _errors: [{ code: "BASE_TYPE_REQUIRED" }] } } });
  });
});
