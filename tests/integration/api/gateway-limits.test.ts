// The gateway's limits and liveness, with short timings: zombie connections closed with 4009, IDENTIFY per
// max_concurrency bucket (INVALID_SESSION past it), the daily session start limit (4004, and GET /gateway/bot's
// remaining), and sharding by (guild_id >> 22) % num_shards.
import { GatewayIntentBits as I } from "discord-api-types/v10";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../harness";
import { RawGatewayClient } from "./gateway-client";

const HEARTBEAT_MS = 300;
const IDENTIFY_INTERVAL_MS = 600;

let server: TestServer;
let wsBase: string;
const clients: RawGatewayClient[] = [];

async function connect(options?: { heartbeat?: boolean }): Promise<RawGatewayClient> {
  const client = await RawGatewayClient.connect(wsBase, undefined, options);
  clients.push(client);
  return client;
}

async function identifyShard(shard: [number, number]) {
  const client = await connect();
  await client.next((p) => p.op === 10);
  client.send(2, { token: server.botToken, intents: I.Guilds, properties: {}, shard });
  return { client, answer: await client.next((p) => p.op === 9 || (p.op === 0 && p.t === "READY")) };
}

const sessionStartLimit = async () =>
  ((await (await server.api("bot", "GET", "/gateway/bot")).json()) as { session_start_limit: Record<string, number> })
    .session_start_limit;

beforeAll(async () => {
  server = await startTestServer({
    gateway: {
      heartbeatIntervalMs: HEARTBEAT_MS,
      sweepIntervalMs: 50,
      maxConcurrency: 2,
      identifyIntervalMs: IDENTIFY_INTERVAL_MS,
      sessionStartLimit: 3,
    },
  });
  wsBase = server.baseUrl.replace(/^http/, "ws");
});
afterAll(async () => {
  for (const client of clients) client.close();
  await server?.close();
});

describe("liveness", () => {
  it("a session that stops heartbeating, or a connection that never identifies, is closed with 4009", async () => {
    // A user's session: its identify limits are the user's own, not the bot's tested below.
    const silent = await connect({ heartbeat: false });
    await silent.identify(await server.tokenFor("owner"), I.Guilds);
    const unidentified = await connect();
    const beating = await connect();
    await beating.identify(await server.tokenFor("admin"), I.Guilds);
    expect((await silent.closed).code).toBe(4009);
    expect((await unidentified.closed).code).toBe(4009);
    expect(beating.socket.readyState).toBe(beating.socket.OPEN);
  });
});

describe("identify limits and sharding", () => {
  it("one IDENTIFY per bucket per interval (INVALID_SESSION past it), then the daily limit (4004)", async () => {
    expect(await sessionStartLimit()).toMatchObject({ total: 3, remaining: 3, max_concurrency: 2 });

    const first = await identifyShard([0, 2]);
    expect(first.answer.t).toBe("READY");
    // Same bucket (0 % 2) within the interval: Discord answers INVALID_SESSION, not resumable.
    expect((await identifyShard([0, 2])).answer).toEqual({ op: 9, d: false });
    // The other bucket is free.
    expect((await identifyShard([1, 2])).answer.t).toBe("READY");
    expect(await sessionStartLimit()).toMatchObject({ remaining: 1 });

    await new Promise((resolve) => setTimeout(resolve, IDENTIFY_INTERVAL_MS));
    expect((await identifyShard([0, 2])).answer.t).toBe("READY");
    expect(await sessionStartLimit()).toMatchObject({ remaining: 0, reset_after: expect.any(Number) });

    await new Promise((resolve) => setTimeout(resolve, IDENTIFY_INTERVAL_MS));
    const refused = await connect();
    await refused.next((p) => p.op === 10);
    refused.send(2, { token: server.botToken, intents: I.Guilds, properties: {}, shard: [1, 2] });
    expect(await refused.closed).toMatchObject({ code: 4004, reason: expect.stringContaining("Session start limit") });
  });

  it("each shard follows the guilds whose (id >> 22) % num_shards is its own", async () => {
    // The sessions identified above: READY on shard [0, 2] and on [1, 2] split the bot's guilds between them.
    const readies = clients
      .flatMap((client) => client.received)
      .filter((p) => p.t === "READY")
      .map((p) => p.d as { shard: [number, number]; guilds: Array<{ id: string }> });
    const hq = server.world.guildId;
    const shardOfHq = Number((BigInt(hq) >> 22n) % 2n);
    for (const ready of readies) {
      const ids = ready.guilds.map((g) => g.id);
      if (ready.shard[0] === shardOfHq) expect(ids).toContain(hq);
      else expect(ids).not.toContain(hq);
      for (const id of ids) expect(Number((BigInt(id) >> 22n) % 2n)).toBe(ready.shard[0]);
    }
    expect(new Set(readies.map((r) => r.shard[0]))).toEqual(new Set([0, 1]));
  });
});
