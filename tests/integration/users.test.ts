// GET /users/@me/guilds: the caller's guilds with owner, permissions and counts.
import { afterAll, beforeAll, expect, test } from "vitest";
import { Routes } from "discord-api-types/v10";
import { ALL_PERMISSIONS } from "@/lib/discord/permissions";
import { MODERATOR_PERMISSIONS, EVERYONE_PERMISSIONS } from "@/lib/seed/demo-world";
import { startTestServer, type TestServer } from "./harness";
import { expectOperationResponse } from "./openapi";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

interface MyGuild { id: string; name: string; owner: boolean; permissions: string; approximate_member_count?: number; approximate_presence_count?: number }

test("mod sees both guilds, ascending by id, with its permissions", async () => {
  const guilds = (await server.rest("mod").get(Routes.userGuilds())) as MyGuild[];
  expect(guilds.map((g) => g.name)).toEqual(["Guildhall HQ", "Side Project"]);
  expectOperationResponse("GET", "/users/@me/guilds", 200, guilds);
  const hq = guilds[0];
  expect(hq.owner).toBe(false);
  expect(BigInt(hq.permissions)).toBe(EVERYONE_PERMISSIONS | MODERATOR_PERMISSIONS);
  expect(hq.approximate_member_count).toBeUndefined();
});

test("the owner has every permission; with_counts adds member and presence counts", async () => {
  const guilds = (await server.rest("owner").get(Routes.userGuilds(), { query: new URLSearchParams({ with_counts: "true" }) })) as MyGuild[];
  const hq = guilds.find((g) => g.id === server.world.guildId)!;
  expect(hq.owner).toBe(true);
  expect(hq.permissions).toBe(String(ALL_PERMISSIONS));
  expect(hq.approximate_member_count).toBe(166);
  expect(hq.approximate_presence_count).toBeGreaterThan(0);
  expect(hq.approximate_presence_count).toBeLessThan(166);
  expectOperationResponse("GET", "/users/@me/guilds", 200, guilds);
});

test("limit, after and before page by guild id", async () => {
  const [first] = (await server.rest("mod").get(Routes.userGuilds(), { query: new URLSearchParams({ limit: "1" }) })) as MyGuild[];
  expect(first.id).toBe(server.world.guildId);
  const afterFirst = (await server.rest("mod").get(Routes.userGuilds(), { query: new URLSearchParams({ after: first.id }) })) as MyGuild[];
  expect(afterFirst.map((g) => g.id)).toEqual([server.world.sideGuildId]);
  const beforeSide = (await server.rest("mod").get(Routes.userGuilds(), { query: new URLSearchParams({ before: server.world.sideGuildId }) })) as MyGuild[];
  expect(beforeSide.map((g) => g.id)).toEqual([first.id]);
});

test("limit past 200 is a field error; a token without the guilds scope is refused", async () => {
  const tooMany = await server.api("mod", "GET", "/users/@me/guilds?limit=201");
  expect(tooMany.status).toBe(400);
  expect(await tooMany.json()).toMatchObject({ code: 50035, errors: { limit: { _errors: [{ code: "NUMBER_TYPE_MAX" }] } } });
  const response = await fetch(`${server.baseUrl}/api/v10/users/@me/guilds`, { headers: { authorization: `Bearer ${server.tokenFor("mod", ["identify"])}` } });
  expect(response.status).toBe(403);
  expect(await response.json()).toMatchObject({ code: 50026 });
});

test("outsider is in no guild", async () => {
  expect(await server.rest("outsider").get(Routes.userGuilds())).toEqual([]);
});
