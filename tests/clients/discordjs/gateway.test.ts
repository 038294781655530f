// discord.js 14 logging in to Guildhall's gateway as a bot does on Discord: `client.login()` with `rest.api` pointed at
// a harness server (the gateway URL comes from GET /gateway/bot). Events caused by other users through REST arrive
// as discord.js events; a forcibly closed socket is resumed without losing an event; guild.members.fetch() pages a
// 10,000-member guild over the gateway.
import { once } from "node:events";
import { Client, Events, GatewayIntentBits, type Guild, type GuildBan, type Role } from "discord.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../integration/harness";
import { addScaleGuildWithBot } from "../../integration/scale-guild";

const SCALE_MEMBERS = 10_000;

let server: TestServer;
let client: Client;
let scaleGuildId: string;
const rawTypes: string[] = [];

/** Resolves with the first `event` whose arguments pass `match`. */
function waitFor<A extends unknown[]>(event: string, match: (...args: A) => boolean, timeoutMs = 10_000): Promise<A> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      client.off(event, listener);
      reject(new Error(`no ${event} within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (...args: unknown[]) => {
      if (!match(...(args as A))) return;
      clearTimeout(timer);
      client.off(event, listener);
      resolve(args as A);
    };
    client.on(event, listener);
  });
}

beforeAll(async () => {
  server = await startTestServer({ gateway: { identifyIntervalMs: 0 } });
  // A guild of 10,000 members plus the bot (the seed's scale guild, as `npm run seed -- --members N` grows it).
  scaleGuildId = await addScaleGuildWithBot(server, SCALE_MEMBERS);

  client = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers, GatewayIntentBits.GuildModeration],
    rest: { api: `${server.baseUrl}/api` },
  });
  client.on(Events.Raw, (packet: { t: string | null }) => {
    if (packet.t) rawTypes.push(packet.t);
  });
  const ready = once(client, Events.ClientReady);
  await client.login(server.botToken);
  await ready;
}, 60_000);

afterAll(async () => {
  await client?.destroy();
  await server?.close();
});

describe("discord.js 14 on Guildhall's gateway", () => {
  it("login: READY, then GUILD_CREATE for each guild, every guild available with its channels and roles", () => {
    expect(client.user?.id).toBe(server.world.botUserId);
    expect(rawTypes.slice(0, 3)).toEqual(["READY", "GUILD_CREATE", "GUILD_CREATE"]);
    const hq = client.guilds.cache.get(server.world.guildId);
    expect(hq?.available).toBe(true);
    expect(hq?.name).toBe("Guildhall HQ");
    expect(hq?.channels.cache.get(server.world.channels.general)?.name).toBe("general");
    expect(hq?.roles.cache.get(server.world.roles.moderator)?.name).toBe("Moderator");
    expect(hq?.members.me?.id).toBe(server.world.botUserId);
    const scale = client.guilds.cache.get(scaleGuildId);
    expect(scale?.large).toBe(true);
    expect(scale?.memberCount).toBe(SCALE_MEMBERS + 1);
  });

  it("guildCreate: the bot installed to another server", async () => {
    const created = waitFor<[Guild]>(Events.GuildCreate, (guild) => guild.id === server.world.sideGuildId);
    const { installBot } = await import("@/lib/guild-api/services/bot-install");
    const { findApplication } = await import("@/lib/guild-api/services/oauth2");
    await installBot({
      application: (await findApplication(BigInt(server.world.applicationId)))!,
      userId: BigInt(server.world.users.admin),
      guildId: BigInt(server.world.sideGuildId),
      permissions: 0n,
      scopes: ["bot"],
    });
    const [guild] = await created;
    expect(guild.name).toBe("Side Project");
    expect(guild.members.me?.id).toBe(server.world.botUserId);
  });

  it("guildBanAdd: a moderator bans a member through REST", async () => {
    const target = server.world.users.helper;
    const banned = waitFor<[GuildBan]>(Events.GuildBanAdd, (ban) => ban.user.id === target);
    const response = await server.api("owner", "PUT", `/guilds/${server.world.guildId}/bans/${target}`, {});
    expect(response.status).toBe(204);
    const [ban] = await banned;
    expect(ban.guild.id).toBe(server.world.guildId);
  });

  it("roleUpdate: an administrator renames a role through REST", async () => {
    const roleId = server.world.roles.regular;
    const updated = waitFor<[Role, Role]>(Events.GuildRoleUpdate, (_old, role) => role.id === roleId);
    const response = await server.api("admin", "PATCH", `/guilds/${server.world.guildId}/roles/${roleId}`, {
      name: "Regulars",
    });
    expect(response.status).toBe(200);
    const [before, after] = await updated;
    expect(before.name).toBe("Regular");
    expect(after.name).toBe("Regulars");
  });

  it("a socket closed under the client is resumed, and every event made meanwhile arrives in order", async () => {
    const { activeHub } = await import("@/lib/guild-api/gateway/registry");
    const [session] = activeHub()!.sessionsOf(BigInt(server.world.botUserId));
    const names = Array.from({ length: 5 }, (_, i) => `Helper ${i}`);
    const seen: string[] = [];
    const onUpdate = (_old: Role, role: Role) => {
      if (role.id === server.world.roles.helper) seen.push(role.name);
    };
    client.on(Events.GuildRoleUpdate, onUpdate);
    const resumed = once(client, Events.ShardResume);
    let replayed = -1;
    const onDebug = (message: string) => {
      const match = /Resumed and replayed (\d+) events/.exec(message);
      if (match) replayed = Number(match[1]);
    };
    client.on(Events.Debug, onDebug);
    session.connection!.socket.terminate();
    for (const name of names) {
      const response = await server.api(
        "admin",
        "PATCH",
        `/guilds/${server.world.guildId}/roles/${server.world.roles.helper}`,
        {
          name,
        },
      );
      expect(response.status).toBe(200);
    }
    await resumed;
    // Replayed events come before RESUMED; changes made after the resume come live.
    for (const deadline = Date.now() + 10_000; seen.length < names.length && Date.now() < deadline;)
      await new Promise((resolve) => setTimeout(resolve, 20));
    client.off(Events.GuildRoleUpdate, onUpdate);
    client.off(Events.Debug, onDebug);
    expect(seen).toEqual(names);
    // The changes were made while the client was away: they came as the RESUME's replay, not live.
    expect(replayed).toBeGreaterThanOrEqual(names.length);
    expect(rawTypes).toContain("RESUMED");
    expect(rawTypes.filter((type) => type === "READY")).toHaveLength(1);
  });

  it("guild.members.fetch() returns every member of a 10,000-member guild over the gateway", async () => {
    const guild = client.guilds.cache.get(scaleGuildId)!;
    const members = await guild.members.fetch();
    expect(members.size).toBe(SCALE_MEMBERS + 1);
    expect(members.get(server.world.botUserId)?.user.bot).toBe(true);
  }, 30_000);
});
