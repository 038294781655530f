// Finding 4 of the security issue (#29): the gateway sent GUILD_BAN_ADD and GUILD_BAN_REMOVE to every member with the
// GUILD_MODERATION intent. Discord sends them only to holders of BAN_MEMBERS or VIEW_AUDIT_LOG ("Guild Ban Add": "only
// sent to bots with the BAN_MEMBERS or VIEW_AUDIT_LOG permission"). The five seeded sessions identify with every
// intent; a moderator bans and unbans a plain member: `member` (neither permission) hears of neither, `helper`
// (View Audit Log only) hears of both, as do `mod` (Ban Members), `admin` and the bot (Administrator).
import { GatewayIntentBits as I } from "discord-api-types/v10";
import { afterAll, describe, expect, test } from "vitest";
import { testServerForFile } from "../integration/harness";
import { RawGatewayClient } from "../integration/api/gateway-client";

const server = testServerForFile({ gateway: { identifyIntervalMs: 0 } });
const clients: RawGatewayClient[] = [];
afterAll(() => {
  for (const client of clients) client.close();
});

const VIEWERS = ["member", "helper", "mod", "admin", "bot"] as const;
type Viewer = (typeof VIEWERS)[number];
const INTENTS = I.Guilds | I.GuildMembers | I.GuildModeration;

async function sessionOf(viewer: Viewer): Promise<RawGatewayClient> {
  const client = await RawGatewayClient.connect(server.baseUrl.replace(/^http/, "ws"));
  clients.push(client);
  const ready = await client.identify(viewer === "bot" ? server.botToken : await server.tokenFor(viewer), INTENTS);
  for (let i = 0; i < ready.d.guilds.length; i++) await client.dispatch("GUILD_CREATE");
  return client;
}

/** A seeded member of HQ with no role, to be banned (not one of the five viewers). */
async function plainMember(): Promise<string> {
  const { sql } = await import("@/lib/guild-api/store/db");
  return String(
    await sql.value(
      "SELECT m.user_id FROM members m JOIN users u ON u.id = m.user_id WHERE m.guild_id = ? AND m.role_count = 0 AND u.bot = FALSE AND u.username NOT IN ('owner', 'member') ORDER BY u.id LIMIT 1",
      BigInt(server.world.guildId),
    ),
  );
}

/**
 * Which viewers received `type` about `userId`. Every session receives the role rename made after it (GUILDS, no
 * permission), and a session receives events in commit order: once each has the rename, nothing before it is still
 * on its way.
 */
async function recipientsOf(sessions: Map<Viewer, RawGatewayClient>, type: string, userId: string, marker: string) {
  const rename = await server.api(
    "admin",
    "PATCH",
    `/guilds/${server.world.guildId}/roles/${server.world.roles.member}`,
    {
      name: marker,
    },
  );
  expect(rename.status).toBe(200);
  const heard: Viewer[] = [];
  for (const [viewer, client] of sessions) {
    await client.dispatch("GUILD_ROLE_UPDATE", (d) => d.role.name === marker);
    if (client.received.some((p) => p.op === 0 && p.t === type && p.d.user?.id === userId)) heard.push(viewer);
  }
  return heard;
}

describe("GUILD_BAN_ADD and GUILD_BAN_REMOVE go only to holders of Ban Members or View Audit Log", () => {
  test("a ban and an unban by a moderator: member hears of neither; helper, mod, admin and the bot of both", async () => {
    const sessions = new Map<Viewer, RawGatewayClient>();
    for (const viewer of VIEWERS) sessions.set(viewer, await sessionOf(viewer));
    const target = await plainMember();

    const ban = await server.api("mod", "PUT", `/guilds/${server.world.guildId}/bans/${target}`, {});
    expect(ban.status).toBe(204);
    expect(await recipientsOf(sessions, "GUILD_BAN_ADD", target, "Members (after the ban)")).toEqual([
      "helper",
      "mod",
      "admin",
      "bot",
    ]);

    const unban = await server.api("mod", "DELETE", `/guilds/${server.world.guildId}/bans/${target}`);
    expect(unban.status).toBe(204);
    expect(await recipientsOf(sessions, "GUILD_BAN_REMOVE", target, "Members (after the unban)")).toEqual([
      "helper",
      "mod",
      "admin",
      "bot",
    ]);
  });
});
