// The dashboard's live connection against a real server: the gateway client (lib/dashboard/live/gateway-client.ts)
// finds the gateway through the api-client, identifies with the bot token, and the hub turns dispatches into page
// changes: a ban by another moderator reaches the Bans and Members pages with who made it; a dropped socket is
// resumed and a change made while it was down still arrives, once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GatewayIntentBits } from "discord-api-types/v10";
import { LiveGatewayClient, type LiveGatewayStatus } from "@/lib/dashboard/live/gateway-client";
import { LiveHub, type LiveChange } from "@/lib/dashboard/live/hub";
import { startTestServer, type TestServer } from "../harness";
import { apiClientAs } from "./harness";

let server: TestServer;
let hub: LiveHub;
let client: LiveGatewayClient;
const dispatches: string[] = [];
const statuses: LiveGatewayStatus["state"][] = [];

const INTENTS = GatewayIntentBits.Guilds | GatewayIntentBits.GuildMembers | GatewayIntentBits.GuildModeration;

async function until<T>(read: () => T | undefined | false, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The next change of `guildId` the hub hands to pages. */
function nextChange(guildId: string): Promise<LiveChange> {
  return new Promise((resolve) => {
    const stop = hub.subscribe(guildId, (change) => {
      stop();
      resolve(change);
    });
  });
}

beforeAll(async () => {
  server = await startTestServer({ gateway: { identifyIntervalMs: 0 } });
  hub = new LiveHub(
    (hub) =>
      (client = new LiveGatewayClient({
        token: server.botToken,
        intents: INTENTS,
        gatewayUrl: async () => (await (await apiClientAs(server, "bot")).gateway.getBot()).url,
        onDispatch: (type, data) => {
          dispatches.push(type);
          hub.receive(type, data);
        },
        onStatus: (status) => {
          statuses.push(status.state);
          hub.setStatus(status);
        },
        minBackoffMs: 50,
        log: () => {},
      })),
  );
  hub.start();
  await until(() => hub.state(server.world.guildId) === "live");
});

afterAll(async () => {
  hub?.stop();
  await server?.close();
});

describe("the dashboard's live connection", () => {
  it("follows the bot's guilds after READY, and no other", () => {
    expect(dispatches[0]).toBe("READY");
    expect(hub.state(server.world.guildId)).toBe("live");
    expect(hub.state("1")).toBe("not-followed");
  });

  it("hands a ban by another moderator to the Bans and Members pages, naming who banned", async () => {
    const target = server.world.users.member;
    const change = nextChange(server.world.guildId);
    const response = await server.api("mod", "PUT", `/guilds/${server.world.guildId}/bans/${target}`, {});
    expect(response.status).toBe(204);
    const { sections, actorIds, departedUserIds } = await change;
    expect(sections).toEqual(expect.arrayContaining(["bans", "members", "overview", "audit-history"]));
    expect(actorIds).toEqual([server.world.users.mod]);
    expect(departedUserIds).toContain(target);
  });

  it("merges the dispatches of one change (the role update and its audit-log entry) into one page change", async () => {
    const seen: LiveChange[] = [];
    const stop = hub.subscribe(server.world.guildId, (change) => seen.push(change));
    const response = await server.api(
      "admin",
      "PATCH",
      `/guilds/${server.world.guildId}/roles/${server.world.roles.regular}`,
      {
        name: "Regulars",
      },
    );
    expect(response.status).toBe(200);
    await until(() => seen.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    stop();
    expect(seen).toHaveLength(1);
    expect(seen[0].sections).toBe("all");
    expect(seen[0].actorIds).toEqual([server.world.users.admin]);
  });

  it("resumes after its socket drops, and a change made meanwhile arrives once", async () => {
    const readies = dispatches.filter((t) => t === "READY").length;
    const sequence = client.sequence!;
    const change = nextChange(server.world.guildId);
    client.dropConnection();
    await until(() => !client.ready);
    const response = await server.api("admin", "PATCH", `/channels/${server.world.channels.general}`, {
      topic: "Changed while the dashboard was away",
    });
    expect(response.status).toBe(200);
    const { sections, actorIds } = await change;
    expect(sections).toContain("channels");
    expect(actorIds).toEqual([server.world.users.admin]);
    expect(dispatches.filter((t) => t === "READY")).toHaveLength(readies);
    expect(dispatches).toContain("RESUMED");
    expect(dispatches.filter((t) => t === "CHANNEL_UPDATE")).toHaveLength(1);
    expect(client.sequence!).toBeGreaterThan(sequence);
  });

  it("identifies afresh when the session cannot be resumed (the gateway forgot it)", async () => {
    const readies = dispatches.filter((t) => t === "READY").length;
    // As after a server restart: the session the client holds is unknown to the gateway (INVALID_SESSION false).
    (client as unknown as { sessionId: string }).sessionId = "0".repeat(32);
    client.dropConnection();
    await until(() => dispatches.filter((t) => t === "READY").length > readies, 10_000);
    await until(() => hub.state(server.world.guildId) === "live");
    expect(statuses).toContain("connecting");
  });
});
