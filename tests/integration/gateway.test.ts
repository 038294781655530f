// The gateway's protocol over a raw `ws` client: HELLO, heartbeats, IDENTIFY and its refusals, READY and GUILD_CREATE,
// dispatch of outbox events filtered by intents, guild membership and channel visibility, RESUME without loss,
// zlib-stream, and REQUEST_GUILD_MEMBERS.
import { GatewayIntentBits as I } from "discord-api-types/v10";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./harness";
import { RawGatewayClient } from "./gateway-client";

let server: TestServer;
let wsBase: string;
const clients: RawGatewayClient[] = [];

async function connect(query?: string): Promise<RawGatewayClient> {
  const client = await RawGatewayClient.connect(wsBase, query);
  clients.push(client);
  return client;
}

beforeAll(async () => {
  server = await startTestServer({ gateway: { identifyIntervalMs: 0, sessionStartLimit: 10_000 } });
  wsBase = server.baseUrl.replace(/^http/, "ws");
});
afterAll(async () => {
  for (const client of clients) client.close();
  await server?.close();
});

describe("smoke", () => {
  it("identifies and gets READY and GUILD_CREATE", async () => {
    const client = await connect();
    const ready = await client.identify(server.botToken, I.Guilds | I.GuildMembers | I.GuildModeration);
    console.log(JSON.stringify(ready).slice(0, 500));
    const create = await client.dispatch("GUILD_CREATE");
    console.log(JSON.stringify(create).slice(0, 300), create.d.members.length, create.d.channels.length);
    const ban = await server.api("mod", "PUT", `/guilds/${server.world.guildId}/bans/${server.world.users.member}`, {});
    expect(ban.status).toBe(204);
    const event = await client.dispatch("GUILD_BAN_ADD");
    console.log(JSON.stringify(event));
  });
});
