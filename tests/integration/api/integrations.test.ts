// Get Guild Voice Regions, Get Guild Integrations, Delete Guild Integration, Get Guild Vanity URL.
// The last tests delete the demo bot's integration (the bot is kicked), so they run last.
import { describe, expect, test } from "vitest";
import { Routes } from "discord-api-types/v10";
import { fail } from "./read-back";
import { testServerForFile } from "../harness";
import { sql } from "@/lib/guild-api/store/db";
import { expectOperationResponse, expectSchema } from "../openapi";

const server = testServerForFile();

const guild = () => server.world.guildId;
const guildBig = () => BigInt(guild());
const events = async (type: string) =>
  (
    (await sql.all(
      "SELECT payload FROM gateway_events WHERE guild_id = ? AND type = ? ORDER BY id",
      guildBig(),
      type,
    )) as Array<{ payload: string }>
  ).map((r) => JSON.parse(r.payload) as Record<string, unknown>);
const integrationId = async (type: string) =>
  String(
    (
      (await sql.get("SELECT id FROM integrations WHERE guild_id = ? AND type = ?", guildBig(), type)) as {
        id: bigint;
      }
    ).id,
  );

interface Integration {
  id: string;
  name: string;
  type: string;
  enabled: boolean;
  account: { id: string; name: string };
  user?: { id: string };
  application?: {
    id: string;
    name: string;
    icon: string | null;
    description: string;
    bot?: { id: string; bot: boolean };
  };
  scopes?: string[];
  [key: string]: unknown;
}

const SUBSCRIPTION_FIELDS = [
  "syncing",
  "role_id",
  "enable_emoticons",
  "expire_behavior",
  "expire_grace_period",
  "synced_at",
  "subscriber_count",
  "revoked",
];

describe("Get Guild Voice Regions", () => {
  test("any member sees the regions, one optimal, without VIP regions", async () => {
    const regions = (await server.rest("member").get(Routes.guildVoiceRegions(guild()))) as Array<{
      id: string;
      optimal: boolean;
      deprecated: boolean;
      custom: boolean;
    }>;
    expectOperationResponse("GET", "/guilds/{guild_id}/regions", 200, regions);
    expect(regions.map((r) => r.id)).toEqual(
      expect.arrayContaining(["us-east", "us-west", "rotterdam", "japan", "brazil"]),
    );
    expect(regions.filter((r) => r.optimal)).toHaveLength(1);
    expect(regions.some((r) => r.id.startsWith("vip-"))).toBe(false);
  });

  test("VIP regions appear when the guild has VIP_REGIONS", async () => {
    const features = ((await sql.get("SELECT features FROM guilds WHERE id = ?", guildBig())) as { features: string })
      .features;
    await sql.run(
      "UPDATE guilds SET features = ? WHERE id = ?",
      JSON.stringify([...(JSON.parse(features) as string[]), "VIP_REGIONS"]),
      guildBig(),
    );
    try {
      const regions = (await server.rest("member").get(Routes.guildVoiceRegions(guild()))) as Array<{ id: string }>;
      expectOperationResponse("GET", "/guilds/{guild_id}/regions", 200, regions);
      expect(regions.map((r) => r.id)).toEqual(
        expect.arrayContaining(["vip-us-east", "vip-us-west", "vip-amsterdam", "us-east"]),
      );
    } finally {
      await sql.run("UPDATE guilds SET features = ? WHERE id = ?", features, guildBig());
    }
  });

  test("an outsider is 50001, an unknown guild 10004", async () => {
    expect(await fail(server.rest("outsider").get(Routes.guildVoiceRegions(guild())))).toMatchObject({
      status: 403,
      code: 50001,
    });
    expect(await fail(server.rest("member").get(Routes.guildVoiceRegions("12345")))).toMatchObject({
      status: 404,
      code: 10004,
    });
  });
});

describe("Get Guild Vanity URL", () => {
  test("Manage Server reads the code and its uses", async () => {
    const vanity = await server.rest("mod").get(Routes.guildVanityUrl(guild()));
    expect(vanity).toEqual({ code: "guildhall", uses: 37 });
    expectOperationResponse("GET", "/guilds/{guild_id}/vanity-url", 200, vanity);
  });

  test("code is null when the guild has none", async () => {
    const vanity = await server.rest("admin").get(Routes.guildVanityUrl(server.world.sideGuildId));
    expect(vanity).toEqual({ code: null, uses: 0 });
    expectOperationResponse("GET", "/guilds/{guild_id}/vanity-url", 200, vanity);
  });

  test("without Manage Server: 403 50013; outsider 50001", async () => {
    expect(await fail(server.rest("helper").get(Routes.guildVanityUrl(guild())))).toMatchObject({
      status: 403,
      code: 50013,
    });
    expect(await fail(server.rest("member").get(Routes.guildVanityUrl(guild())))).toMatchObject({
      status: 403,
      code: 50013,
    });
    expect(await fail(server.rest("outsider").get(Routes.guildVanityUrl(guild())))).toMatchObject({
      status: 403,
      code: 50001,
    });
  });
});

describe("Get Guild Integrations", () => {
  test("oldest first; the bot integration has application and scopes and no subscription fields", async () => {
    const integrations = (await server.rest("mod").get(Routes.guildIntegrations(guild()))) as Integration[];
    expectOperationResponse("GET", "/guilds/{guild_id}/integrations", 200, integrations);
    expect(integrations.map((i) => i.type)).toEqual(["discord", "twitch"]);
    const [bot, twitch] = integrations;
    expectSchema("DiscordIntegrationResponse", bot);
    expect(bot).toMatchObject({
      name: "Guildhall Demo",
      enabled: true,
      account: { id: server.world.botUserId, name: "Guildhall Demo" },
      user: { id: server.world.users.owner },
      application: {
        id: server.world.applicationId,
        name: "Guildhall Demo",
        icon: null,
        bot: { id: server.world.botUserId, bot: true },
      },
      scopes: ["bot", "applications.commands"],
    });
    for (const field of SUBSCRIPTION_FIELDS) expect(bot, field).not.toHaveProperty(field);

    expectSchema("ExternalConnectionIntegrationResponse", twitch);
    expect(twitch).toMatchObject({
      name: "guildhall_live",
      enabled: true,
      syncing: false,
      role_id: server.world.roles.regular,
      enable_emoticons: true,
      expire_behavior: 0,
      expire_grace_period: 7,
      subscriber_count: 42,
      revoked: false,
      account: { id: "4815162342", name: "guildhall_live" },
      user: { id: server.world.users.admin },
    });
    expect(new Date(twitch.synced_at as string).toISOString()).toBe(twitch.synced_at);
    expect(twitch).not.toHaveProperty("application");
  });

  test("at most 50, the oldest ones", async () => {
    const insert = (...params: unknown[]) =>
      sql.run(
        "INSERT INTO integrations (id, guild_id, name, type, enabled, account_id, account_name, user_id, scopes, created_at) VALUES (?, ?, ?, 'youtube', TRUE, ?, ?, ?, '[]', ?)",
        ...params,
      );
    // Created after the seeded two, with ids falling as creation times rise (and below the seeded snowflakes),
    // so id order would give the opposite answer: "oldest first" must come from created_at.
    for (let i = 0; i < 55; i++) {
      await insert(
        6_000_000_054n - BigInt(i),
        guildBig(),
        `channel ${i}`,
        `acct${i}`,
        `channel ${i}`,
        BigInt(server.world.users.admin),
        BigInt(Date.now() - (55 - i) * 1000),
      );
    }
    try {
      const integrations = (await server.rest("mod").get(Routes.guildIntegrations(guild()))) as Integration[];
      expectOperationResponse("GET", "/guilds/{guild_id}/integrations", 200, integrations);
      expect(integrations).toHaveLength(50);
      expect(integrations.slice(0, 2).map((i) => i.type)).toEqual(["discord", "twitch"]);
      expect(integrations.slice(2).map((i) => i.name)).toEqual(Array.from({ length: 48 }, (_, i) => `channel ${i}`));
    } finally {
      await sql.run("DELETE FROM integrations WHERE id >= ? AND id < ?", 6_000_000_000n, 6_000_000_100n);
    }
  });

  test("needs Manage Server", async () => {
    expect(await fail(server.rest("helper").get(Routes.guildIntegrations(guild())))).toMatchObject({
      status: 403,
      code: 50013,
    });
    expect(await fail(server.rest("member").get(Routes.guildIntegrations(guild())))).toMatchObject({
      status: 403,
      code: 50013,
    });
    expect(await fail(server.rest("outsider").get(Routes.guildIntegrations(guild())))).toMatchObject({
      status: 403,
      code: 50001,
    });
  });
});

describe("Delete Guild Integration", () => {
  test("unknown integration 10005; without Manage Server 403; a bad id 50035", async () => {
    expect(await fail(server.rest("mod").delete(Routes.guildIntegration(guild(), "999")))).toMatchObject({
      status: 404,
      code: 10005,
    });
    // Another guild's integration is unknown here too.
    expect(
      await fail(
        server.rest("admin").delete(Routes.guildIntegration(server.world.sideGuildId, await integrationId("twitch"))),
      ),
    ).toMatchObject({ status: 404, code: 10005 });
    expect(
      await fail(server.rest("helper").delete(Routes.guildIntegration(guild(), await integrationId("twitch")))),
    ).toMatchObject({ status: 403, code: 50013 });
    expect(await fail(server.rest("mod").delete(Routes.guildIntegration(guild(), "abc")))).toMatchObject({
      status: 400,
      code: 50035,
    });
    expect(await server.rest("mod").get(Routes.guildIntegrations(guild()))).toHaveLength(2);
  });

  test("a streaming integration: deleted with its events; nobody kicked, its (unmanaged) role kept", async () => {
    const id = await integrationId("twitch");
    const membersBefore = await sql.get("SELECT member_count FROM guilds WHERE id = ?", guildBig());
    await server.rest("mod").delete(Routes.guildIntegration(guild(), id), { reason: "stream ended" });
    expect(
      ((await server.rest("mod").get(Routes.guildIntegrations(guild()))) as Integration[]).map((i) => i.type),
    ).toEqual(["discord"]);
    expect(await events("INTEGRATION_DELETE")).toEqual([{ id, guild_id: guild() }]);
    expect(await events("GUILD_INTEGRATIONS_UPDATE")).toEqual([{ guild_id: guild() }]);
    expect(await events("GUILD_MEMBER_REMOVE")).toEqual([]);
    expect(await sql.get("SELECT member_count FROM guilds WHERE id = ?", guildBig())).toEqual(membersBefore);
    expect(await server.rest("mod").get(Routes.guildRole(guild(), server.world.roles.regular))).toMatchObject({
      name: "Regular",
    });
    const audit = (await sql.all(
      "SELECT user_id, target_id, reason, changes FROM audit_log_entries WHERE guild_id = ? AND action_type = 82",
      guildBig(),
    )) as Array<{ user_id: bigint; target_id: string; reason: string; changes: string }>;
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ user_id: BigInt(server.world.users.mod), target_id: id, reason: "stream ended" });
    expect(JSON.parse(audit[0].changes)).toEqual([
      { key: "type", old_value: "twitch" },
      { key: "name", old_value: "guildhall_live" },
    ]);
  });

  test("the bot integration: kicks the bot, deletes its managed role (and its overwrites), fires every event in order", async () => {
    const id = await integrationId("discord");
    const botRole = server.world.roles.bot;
    // An overwrite for the bot's role, which must go with the role.
    const general = BigInt(server.world.channels.general);
    const before = (
      (await sql.get("SELECT permission_overwrites FROM channels WHERE id = ?", general)) as {
        permission_overwrites: string;
      }
    ).permission_overwrites;
    await sql.run(
      "UPDATE channels SET permission_overwrites = ? WHERE id = ?",
      JSON.stringify([...(JSON.parse(before) as unknown[]), { id: botRole, type: 0, allow: "2048", deny: "0" }]),
      general,
    );
    const lastEvent = ((await sql.get("SELECT COALESCE(MAX(id), 0) AS id FROM gateway_events")) as { id: bigint }).id;
    const memberCount = (
      (await sql.get("SELECT member_count FROM guilds WHERE id = ?", guildBig())) as { member_count: bigint }
    ).member_count;

    await server.rest("mod").delete(Routes.guildIntegration(guild(), id));

    expect(await server.rest("mod").get(Routes.guildIntegrations(guild()))).toEqual([]);
    expect(await fail(server.rest("mod").get(Routes.guildMember(guild(), server.world.botUserId)))).toMatchObject({
      status: 404,
      code: 10007,
    });
    expect(await fail(server.rest("mod").get(Routes.guildRole(guild(), botRole)))).toMatchObject({
      status: 404,
      code: 10011,
    });
    expect(await sql.get("SELECT COUNT(*) AS n FROM member_roles WHERE role_id = ?", BigInt(botRole))).toEqual({
      n: 0n,
    });
    expect(
      ((await sql.get("SELECT member_count FROM guilds WHERE id = ?", guildBig())) as { member_count: bigint })
        .member_count,
    ).toBe(memberCount - 1n);
    const overwrites = JSON.parse(
      (
        (await sql.get("SELECT permission_overwrites FROM channels WHERE id = ?", general)) as {
          permission_overwrites: string;
        }
      ).permission_overwrites,
    ) as Array<{ id: string }>;
    expect(overwrites).toEqual(JSON.parse(before));

    const fired = (
      (await sql.all(
        "SELECT type, payload FROM gateway_events WHERE id > ? AND type != 'GUILD_AUDIT_LOG_ENTRY_CREATE' ORDER BY id",
        lastEvent,
      )) as Array<{
        type: string;
        payload: string;
      }>
    ).map((e) => ({
      type: e.type,
      d: JSON.parse(e.payload) as Record<string, unknown>,
    }));
    expect(fired.map((e) => e.type)).toEqual([
      "GUILD_MEMBER_REMOVE",
      "CHANNEL_UPDATE",
      "GUILD_ROLE_DELETE",
      "GUILD_INTEGRATIONS_UPDATE",
      "INTEGRATION_DELETE",
    ]);
    expect(fired[0].d).toMatchObject({ guild_id: guild(), user: { id: server.world.botUserId, bot: true } });
    expectSchema("UserResponse", fired[0].d.user);
    expect(fired[1].d).toMatchObject({ id: server.world.channels.general, permission_overwrites: JSON.parse(before) });
    expect(fired[2].d).toEqual({ guild_id: guild(), role_id: botRole });
    expect(fired[4].d).toEqual({ id, guild_id: guild(), application_id: server.world.applicationId });
    expect(await fail(server.rest("mod").delete(Routes.guildIntegration(guild(), id)))).toMatchObject({
      status: 404,
      code: 10005,
    });
  });
});
