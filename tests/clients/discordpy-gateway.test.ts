// discord.py 2.2.2 (Debian's python3-discord) on Guildhall's gateway: the script in discordpy/ starts a client, which
// reaches on_ready (after chunking its guilds over the gateway); changes made here through REST by other users then
// arrive as on_member_ban and on_guild_channel_update.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../integration/harness";
import { startDiscordPy, type DiscordPyProcess } from "./discordpy-process";

interface EventLine {
  event: string;
  [field: string]: unknown;
}

let server: TestServer;
let python: DiscordPyProcess;
const lines: EventLine[] = [];

/** The first line for `event`, waiting for it as the script prints. */
async function line(event: string, timeoutMs = 30_000): Promise<EventLine> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
    const found = lines.find((candidate) => candidate.event === event);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`discord.py printed no ${event} line; stderr: ${python.stderr().slice(-2000)}`);
}

beforeAll(async () => {
  server = await startTestServer({ gateway: { identifyIntervalMs: 0 } });
  python = startDiscordPy("gateway_events.py", server, (line) => lines.push(line as EventLine));
}, 60_000);

afterAll(async () => {
  python?.child.kill();
  await server?.close();
});

describe("discord.py 2.2.2 on Guildhall's gateway", () => {
  it("client.start() reaches on_ready with the guild, its channels, roles and chunked members", async () => {
    const ready = await line("ready");
    expect(python.stderr()).not.toMatch(/ModuleNotFoundError/);
    expect(ready).toMatchObject({ user: server.world.botUserId, guilds: [server.world.guildId], chunked: true });
    expect(ready.channels).toBeGreaterThan(10);
    expect(ready.roles).toBeGreaterThan(5);
    // The members intent chunks the guild at startup: every member arrived over the gateway.
    expect(ready.members).toBe(ready.member_count);
  });

  it("on_member_ban fires for a ban made through REST by another user", async () => {
    const target = server.world.users.member;
    const response = await server.api("owner", "PUT", `/guilds/${server.world.guildId}/bans/${target}`, {});
    expect(response.status).toBe(204);
    expect(await line("member_ban")).toMatchObject({ guild: server.world.guildId, user: target });
  });

  it("on_guild_channel_update fires for a channel edited through REST", async () => {
    const channel = server.world.channels.general;
    const response = await server.api("admin", "PATCH", `/channels/${channel}`, { topic: "Edited under discord.py" });
    expect(response.status).toBe(200);
    expect(await line("guild_channel_update")).toMatchObject({ channel, after: "Edited under discord.py" });
    expect(await python.exited).toBe(0);
  });
});
