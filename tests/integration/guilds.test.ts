// Get Guild, Get Guild Preview, Get Guild Channels, List Active Guild Threads, and the outbox reader.
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

const fail = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => error as DiscordAPIError);

describe("Get Guild", () => {
  test("a member gets the guild with its roles in order, emojis and stickers", async () => {
    const guild = (await server.rest("member").get(Routes.guild(server.world.guildId))) as { name: string; roles: Array<{ name: string; position: number }>; emojis: unknown[]; stickers: unknown[]; approximate_member_count?: number };
    expect(guild.name).toBe("Guildhall HQ");
    expect(guild.roles.map((r) => r.name)).toEqual(["@everyone", "Member", "Regular", "Helper", "Moderator", "Guildhall Demo", "Admin"]);
    expect(guild.emojis).toHaveLength(3);
    expect(guild.stickers).toHaveLength(1);
    expect(guild.approximate_member_count).toBeUndefined();
    expectOperationResponse("GET", "/guilds/{guild_id}", 200, guild);
  });

  test("with_counts adds approximate member and presence counts; the bot token works too", async () => {
    const guild = (await server.rest("bot").get(Routes.guild(server.world.guildId), { query: new URLSearchParams({ with_counts: "true" }) })) as Record<string, number>;
    expect(guild.approximate_member_count).toBe(166);
    expect(guild.approximate_presence_count).toBeGreaterThan(0);
    expectOperationResponse("GET", "/guilds/{guild_id}", 200, guild);
  });

  test("outsider: 403 Missing Access; unknown guild: 404 Unknown Guild; bad id: 50035 naming guild_id", async () => {
    expect(await fail(server.rest("outsider").get(Routes.guild(server.world.guildId)))).toMatchObject({ status: 403, code: 50001 });
    expect(await fail(server.rest("mod").get(Routes.guild("1")))).toMatchObject({ status: 404, code: 10004 });
    const bad = await server.api("mod", "GET", "/guilds/not-an-id");
    expect(await bad.json()).toMatchObject({ code: 50035, errors: { guild_id: { _errors: [{ code: "NUMBER_TYPE_COERCE" }] } } });
  });
});

describe("Get Guild Preview", () => {
  test("members see the preview; a non-member of a guild that is not discoverable gets 404", async () => {
    const preview = await server.rest("member").get(Routes.guildPreview(server.world.guildId));
    expect(preview).toMatchObject({ name: "Guildhall HQ", approximate_member_count: 166 });
    expectOperationResponse("GET", "/guilds/{guild_id}/preview", 200, preview);
    expect(await fail(server.rest("outsider").get(Routes.guildPreview(server.world.guildId)))).toMatchObject({ status: 404, code: 10004 });
  });
});

describe("channels", () => {
  test("Get Guild Channels lists every channel type but no threads, by position", async () => {
    const channels = (await server.rest("member").get(Routes.guildChannels(server.world.guildId))) as Array<{ name: string; type: number; bitrate?: number; available_tags?: unknown[] }>;
    expect(new Set(channels.map((c) => c.type))).toEqual(new Set([0, 2, 4, 5, 13, 15, 16]));
    expect(channels.some((c) => [10, 11, 12].includes(c.type))).toBe(false);
    expect(channels.find((c) => c.name === "Lounge")?.bitrate).toBe(64000);
    expect(channels.find((c) => c.name === "ideas")?.available_tags).toHaveLength(2);
    expectOperationResponse("GET", "/guilds/{guild_id}/channels", 200, channels);
  });

  test("List Active Guild Threads hides archived threads and private ones the caller can't see", async () => {
    const asMod = (await server.rest("mod").get(Routes.guildActiveThreads(server.world.guildId))) as { threads: Array<{ name: string }>; members: unknown[]; has_more: boolean };
    expect(asMod.threads.map((t) => t.name).sort()).toEqual(["Ban appeal review", "Dark mode for the widget", "Favourite keyboard?", "Welcome party planning"]);
    expect(asMod.members.length).toBeGreaterThan(0);
    expectOperationResponse("GET", "/guilds/{guild_id}/threads/active", 200, asMod);
    const asMember = (await server.rest("member").get(Routes.guildActiveThreads(server.world.guildId))) as { threads: Array<{ name: string }>; members: unknown[] };
    expect(asMember.threads.map((t) => t.name)).not.toContain("Ban appeal review");
    expect(asMember.members).toEqual([]);
  });
});

describe("events (Guildhall extension)", () => {
  test("needs Manage Server", async () => {
    expect(await server.rest("mod").get(`/guilds/${server.world.guildId}/events`)).toEqual([]);
    expect(await fail(server.rest("member").get(`/guilds/${server.world.guildId}/events`))).toMatchObject({ status: 403, code: 50013 });
  });
});
