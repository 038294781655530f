// Get Guild Roles, Get Guild Role, Get Guild Role Member Counts.
import { afterAll, beforeAll, expect, test } from "vitest";
import { DiscordAPIError } from "@discordjs/rest";
import { Routes } from "discord-api-types/v10";
import { startTestServer, type TestServer } from "./harness";
import { expectOperationResponse } from "./openapi";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

test("roles in position order, permissions as strings, colors consistent with color", async () => {
  const roles = (await server.rest("member").get(Routes.guildRoles(server.world.guildId))) as Array<{ name: string; permissions: string; color: number; colors: { primary_color: number } }>;
  expect(roles.map((r) => r.name)).toEqual(["@everyone", "Member", "Regular", "Helper", "Moderator", "Guildhall Demo", "Admin"]);
  for (const role of roles) expect(role.colors.primary_color).toBe(role.color);
  expect(roles.find((r) => r.name === "Admin")!.permissions).toBe("8");
  expectOperationResponse("GET", "/guilds/{guild_id}/roles", 200, roles);
});

test("one role; an unknown role is 10011", async () => {
  const role = await server.rest("member").get(Routes.guildRole(server.world.guildId, server.world.roles.moderator));
  expect(role).toMatchObject({ name: "Moderator", hoist: true, unicode_emoji: "🛡️" });
  expectOperationResponse("GET", "/guilds/{guild_id}/roles/{role_id}", 200, role);
  const error = (await server.rest("member").get(Routes.guildRole(server.world.guildId, "42")).catch((e: unknown) => e)) as DiscordAPIError;
  expect(error).toMatchObject({ status: 404, code: 10011 });
});

test("member counts per role, without @everyone, zero included", async () => {
  const counts = (await server.rest("mod").get(Routes.guildRoleMemberCounts(server.world.guildId))) as Record<string, number>;
  expect(counts[server.world.guildId]).toBeUndefined();
  expect(counts[server.world.roles.admin]).toBe(1);
  expect(counts[server.world.roles.moderator]).toBe(1);
  expect(counts[server.world.roles.bot]).toBe(1);
  expect(Object.keys(counts)).toHaveLength(6);
  expectOperationResponse("GET", "/guilds/{guild_id}/roles/member-counts", 200, counts);
});
