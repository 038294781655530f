// The gateway's protocol over a raw `ws` client: GET /gateway and /gateway/bot, HELLO, heartbeats, IDENTIFY and its
// refusals, READY and GUILD_CREATE, dispatch of outbox events filtered by intents, guild membership and channel
// visibility, RESUME without loss, zlib-stream, REQUEST_GUILD_MEMBERS, and RECONNECT on shutdown.
import { GatewayIntentBits as I } from "discord-api-types/v10";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../harness";
import { addScaleGuildWithBot } from "../scale-guild";
import { RawGatewayClient, type GatewayPayload } from "./gateway-client";

let server: TestServer;
let wsBase: string;
let hq: string;
const clients: RawGatewayClient[] = [];
const SCALE_MEMBERS = 2_500;
let scaleGuildId: string;

async function connect(query?: string, options?: { heartbeat?: boolean }): Promise<RawGatewayClient> {
  const client = await RawGatewayClient.connect(wsBase, query, options);
  clients.push(client);
  return client;
}

/** A session of `as` ("bot", or a user's management token) that has read READY and its GUILD_CREATEs. */
async function session(as: string, intents: number, extra: Record<string, unknown> = {}, query?: string) {
  const client = await connect(query);
  const token = as === "bot" ? server.botToken : await server.tokenFor(as);
  const ready = await client.identify(token, intents, extra);
  const creates: GatewayPayload[] = [];
  if (intents & I.Guilds)
    for (let i = 0; i < ready.d.guilds.length; i++) creates.push(await client.dispatch("GUILD_CREATE"));
  return { client, ready, creates };
}

/** A new connection RESUMEs the bot's session from `seq`: the dispatches it replays before RESUMED. */
async function resumeBot(sessionId: string, seq: number) {
  const again = await connect();
  await again.next((p) => p.op === 10);
  again.send(6, { token: server.botToken, session_id: sessionId, seq });
  const replayed: GatewayPayload[] = [];
  for (;;) {
    const payload = await again.next((p) => p.op === 0);
    if (payload.t === "RESUMED") return { again, replayed };
    replayed.push(payload);
  }
}

/** A seeded member of HQ with no role: no staff channels, no View Audit Log. */
async function plainMemberName(): Promise<string> {
  const { sql } = await import("@/lib/guild-api/store/db");
  return (await sql.value(
    "SELECT u.username FROM members m JOIN users u ON u.id = m.user_id WHERE m.guild_id = ? AND m.role_count = 0 AND u.bot = FALSE AND u.username NOT IN ('owner', 'member') ORDER BY u.id LIMIT 1",
    BigInt(hq),
  )) as string;
}

/** Everything sent to `client` before this point has arrived: the gateway answers a heartbeat after it. */
async function settled(client: RawGatewayClient): Promise<void> {
  client.send(1, null);
  await client.next((p) => p.op === 11);
}

const typesOf = (payloads: GatewayPayload[]) => payloads.map((p) => p.t);

async function editRole(roleId: string, name: string) {
  const response = await server.api("admin", "PATCH", `/guilds/${hq}/roles/${roleId}`, { name });
  expect(response.status).toBe(200);
}

async function editTopic(channel: string, topic: string) {
  const response = await server.api("admin", "PATCH", `/channels/${server.world.channels[channel]}`, { topic });
  expect(response.status).toBe(200);
}

/** Closes with `code` (the connection is refused, not left hanging). */
async function expectClose(client: RawGatewayClient, code: number) {
  expect((await client.closed).code).toBe(code);
}

beforeAll(async () => {
  server = await startTestServer({ gateway: { identifyIntervalMs: 0, sessionStartLimit: 10_000 } });
  wsBase = server.baseUrl.replace(/^http/, "ws");
  hq = server.world.guildId;
  scaleGuildId = await addScaleGuildWithBot(server, SCALE_MEMBERS);
}, 60_000);
afterAll(async () => {
  for (const client of clients) client.close();
  await server?.close();
});

describe("GET /gateway and GET /gateway/bot", () => {
  it("answer the WebSocket URL; the bot route adds shards and the session start limit", async () => {
    const url = `${server.baseUrl.replace("http://127.0.0.1", "ws://localhost")}/gateway`;
    const open = await server.api(null, "GET", "/gateway");
    expect(open.status).toBe(200);
    expect(await open.json()).toEqual({ url });
    const bot = await server.api("bot", "GET", "/gateway/bot");
    expect(await bot.json()).toEqual({
      url,
      shards: 1,
      session_start_limit: {
        total: 10_000,
        remaining: expect.any(Number),
        reset_after: expect.any(Number),
        max_concurrency: 1,
      },
    });
    expect((await server.api(null, "GET", "/gateway/bot")).status).toBe(401);
  });
});

describe("HELLO and heartbeats", () => {
  it("HELLO gives the interval; every heartbeat is acknowledged, before and after IDENTIFY", async () => {
    const client = await connect(undefined, { heartbeat: false });
    const hello = await client.next();
    expect(hello).toEqual({ op: 10, d: { heartbeat_interval: 41_250 } });
    client.send(1, null);
    expect(await client.next()).toEqual({ op: 11 });
    client.send(2, { token: server.botToken, intents: 0, properties: {} });
    const ready = await client.dispatch("READY");
    client.send(1, ready.s);
    expect(await client.next((p) => p.op !== 0)).toEqual({ op: 11 });
  });
});

describe("IDENTIFY refusals close with Discord's codes", () => {
  const identifyWith = async (d: Record<string, unknown>, query?: string) => {
    const client = await connect(query);
    await client.next((p) => p.op === 10);
    client.send(2, { properties: {}, intents: I.Guilds, token: server.botToken, ...d });
    return client;
  };

  it("4004 for an unknown token, and for a user's token without the management scope", async () => {
    await expectClose(await identifyWith({ token: "not-a-token" }), 4004);
    await expectClose(await identifyWith({ token: await server.tokenFor("mod", ["identify", "guilds"]) }), 4004);
  });

  it("4013 for unknown intent bits; 4014 for a privileged intent the application has not enabled", async () => {
    await expectClose(await identifyWith({ intents: 1 << 30 }), 4013);
    // The demo application has GUILD_MEMBERS enabled, not GUILD_PRESENCES.
    const refused = await identifyWith({ intents: I.Guilds | I.GuildPresences });
    const closed = await refused.closed;
    expect(closed).toMatchObject({ code: 4014, reason: expect.stringContaining("GUILD_PRESENCES") });
  });

  it("4010 for a shard outside the count; 4012 for an unknown version; 4002 for a malformed IDENTIFY", async () => {
    await expectClose(await identifyWith({ shard: [2, 2] }), 4010);
    await expectClose(await connect("v=7&encoding=json"), 4012);
    await expectClose(await identifyWith({ intents: "all" }), 4002);
  });

  it("4003 before IDENTIFY, 4001 for an unknown opcode, 4002 for text that is not JSON or too long, 4005 twice", async () => {
    const early = await connect();
    early.send(8, { guild_id: hq, query: "", limit: 0 });
    await expectClose(early, 4003);
    const unknown = await connect();
    unknown.send(99, null);
    await expectClose(unknown, 4001);
    const garbage = await connect();
    garbage.sendRaw("{not json");
    await expectClose(garbage, 4002);
    const long = await connect();
    long.send(1, "x".repeat(5000));
    await expectClose(long, 4002);
    const twice = (await session("bot", I.Guilds)).client;
    twice.send(2, { token: server.botToken, intents: I.Guilds, properties: {} });
    await expectClose(twice, 4005);
  });
});

describe("privileged intents follow the application's switches (Developer Portal, Bot)", () => {
  it("Server Members Intent off: IDENTIFY with GUILD_MEMBERS is 4014, and bots may not list members; on again: both work", async () => {
    const { setPrivilegedIntent } = await import("@/lib/guild-api/services/gateway-intents");
    const { applicationAccessForOwner } = await import("@/lib/guild-api/services/applications");
    const access = async () =>
      await applicationAccessForOwner(server.world.applicationId, BigInt(server.world.users.owner));
    const identifyMembers = async () => {
      const client = await connect();
      await client.next((p) => p.op === 10);
      client.send(2, { token: server.botToken, intents: I.Guilds | I.GuildMembers, properties: {} });
      return client;
    };
    await setPrivilegedIntent(await access(), "guild_members", false);
    try {
      await expectClose(await identifyMembers(), 4014);
      expect((await server.api("bot", "GET", `/guilds/${hq}/members?limit=1`)).status).toBe(403);
    } finally {
      await setPrivilegedIntent(await access(), "guild_members", true);
    }
    expect((await (await identifyMembers()).dispatch("READY")).d.user.id).toBe(server.world.botUserId);
    expect((await server.api("bot", "GET", `/guilds/${hq}/members?limit=1`)).status).toBe(200);
  });
});

describe("READY and GUILD_CREATE", () => {
  it("READY lists the guilds as unavailable, then GUILD_CREATE sends each one whole", async () => {
    const { ready, creates } = await session("bot", I.Guilds);
    expect(ready.s).toBe(1);
    expect(ready.d).toMatchObject({
      v: 10,
      user: { id: server.world.botUserId, bot: true },
      session_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      resume_gateway_url: `${server.baseUrl.replace("http://127.0.0.1", "ws://localhost")}/gateway`,
      shard: [0, 1],
      application: { id: server.world.applicationId, flags: expect.any(Number) },
    });
    expect(ready.d.guilds).toEqual(
      expect.arrayContaining([
        { id: hq, unavailable: true },
        { id: scaleGuildId, unavailable: true },
      ]),
    );
    const guild = creates.find((c) => c.d.id === hq)!;
    expect(guild.s).toBeGreaterThan(1);
    expect(guild.d).toMatchObject({
      name: "Guildhall HQ",
      unavailable: false,
      large: true,
      member_count: expect.any(Number),
      joined_at: expect.any(String),
      emojis: expect.any(Array),
      stickers: expect.any(Array),
      voice_states: expect.any(Array),
      threads: expect.any(Array),
    });
    expect(guild.d.roles.map((r: { id: string }) => r.id)).toContain(server.world.roles.moderator);
    expect(guild.d.channels.map((c: { name: string }) => c.name)).toEqual(
      expect.arrayContaining(["general", "mod-chat"]),
    );
    // A large guild lists the user and those in voice only, as Discord does without the presences intent.
    const listed = guild.d.members.map((m: { user: { id: string } }) => m.user.id);
    expect(listed).toContain(server.world.botUserId);
    expect(listed.length).toBeLessThan(guild.d.member_count);
    for (const voice of guild.d.voice_states) expect(listed).toContain(voice.user_id);
  });
});

describe("dispatch", () => {
  it("follows intents: GUILD_BAN_ADD needs GUILD_MODERATION, member events GUILD_MEMBERS; the user's own update always comes", async () => {
    const moderation = await session("bot", I.Guilds | I.GuildModeration);
    const plain = await session("bot", I.Guilds);
    const target = server.world.users.member;
    expect((await server.api("mod", "PUT", `/guilds/${hq}/bans/${target}`, {})).status).toBe(204);
    expect((await moderation.client.dispatch("GUILD_BAN_ADD")).d).toMatchObject({ guild_id: hq, user: { id: target } });
    const nick = await server.api("owner", "PATCH", `/guilds/${hq}/members/${server.world.botUserId}`, {
      nick: "Herald",
    });
    expect(nick.status).toBe(200);
    await editRole(server.world.roles.regular, "Regular (edited)");
    await plain.client.dispatch("GUILD_ROLE_UPDATE", (d) => d.role.name === "Regular (edited)");
    const update = plain.client.received.find((p) => p.t === "GUILD_MEMBER_UPDATE");
    expect(update?.d).toMatchObject({ nick: "Herald", user: { id: server.world.botUserId } });
    const seen = typesOf(plain.client.received);
    expect(seen).not.toContain("GUILD_BAN_ADD");
    expect(seen).not.toContain("GUILD_MEMBER_REMOVE");
    expect(seen).not.toContain("GUILD_AUDIT_LOG_ENTRY_CREATE");
  });

  it("sends a guild's events only to its members", async () => {
    const outsider = await session("outsider", I.Guilds | I.GuildMembers | I.GuildModeration);
    const moderator = await session("mod", I.Guilds);
    expect(outsider.ready.d.guilds).toEqual([]);
    await editRole(server.world.roles.member, "Members");
    await moderator.client.dispatch("GUILD_ROLE_UPDATE", (d) => d.role.name === "Members");
    await settled(outsider.client);
    expect(outsider.client.received.filter((p) => p.op === 0).map((p) => p.t)).toEqual(["READY"]);
  });

  it("sends channel events only to those who can view the channel, in GUILD_CREATE too", async () => {
    // mod-chat is for staff (Moderators and Helpers) only.
    const plain = await session(await plainMemberName(), I.Guilds);
    const admin = await session("admin", I.Guilds);
    const names = (payload: GatewayPayload) => payload.d.channels.map((c: { name: string }) => c.name);
    expect(names(plain.creates[0])).not.toContain("mod-chat");
    expect(names(admin.creates[0])).toContain("mod-chat");
    await editTopic("mod-chat", "staff only");
    await editTopic("general", "for everyone");
    expect((await plain.client.dispatch("CHANNEL_UPDATE")).d.name).toBe("general");
    expect((await admin.client.dispatch("CHANNEL_UPDATE")).d.name).toBe("mod-chat");
    expect((await admin.client.dispatch("CHANNEL_UPDATE")).d.name).toBe("general");
  });

  it("sends audit-log entries only to those with View Audit Log", async () => {
    const helper = await session("helper", I.Guilds | I.GuildModeration);
    const owner = await session("owner", I.Guilds | I.GuildModeration);
    const plain = await session(await plainMemberName(), I.Guilds | I.GuildModeration);
    await editRole(server.world.roles.helper, "Helpers");
    for (const { client } of [helper, owner])
      expect((await client.dispatch("GUILD_AUDIT_LOG_ENTRY_CREATE")).d).toMatchObject({
        guild_id: hq,
        action_type: 31,
        target_id: server.world.roles.helper,
        user_id: server.world.users.admin,
      });
    await plain.client.dispatch("GUILD_ROLE_UPDATE", (d) => d.role.name === "Helpers");
    await settled(plain.client);
    expect(typesOf(plain.client.received)).not.toContain("GUILD_AUDIT_LOG_ENTRY_CREATE");
  });
});

describe("RESUME", () => {
  it("replays what was sent after the given seq, then what was missed while away, in order, then RESUMED", async () => {
    const first = await session("bot", I.Guilds);
    const { session_id: sessionId } = first.ready.d;
    const before = first.client.seq!;
    await editRole(server.world.roles.regular, "R1");
    await editRole(server.world.roles.regular, "R2");
    await first.client.dispatch("GUILD_ROLE_UPDATE", (d) => d.role.name === "R2");
    first.client.close();
    // Made while no connection is open.
    await editRole(server.world.roles.regular, "R3");
    await editRole(server.world.roles.regular, "R4");

    // As if R1 and R2 had been lost in flight: resume from before them.
    const { again, replayed } = await resumeBot(sessionId, before);
    expect(replayed.map((p) => p.d.role.name)).toEqual(["R1", "R2", "R3", "R4"]);
    expect(replayed.map((p) => p.s)).toEqual([before + 1, before + 2, before + 3, before + 4]);
    // Live again, with the next sequence numbers.
    await editRole(server.world.roles.regular, "R5");
    expect(await again.dispatch("GUILD_ROLE_UPDATE")).toMatchObject({ s: before + 6, d: { role: { name: "R5" } } });
  });

  it("replays member chunks as sent, and a chunked answer cut off by the drop is completed for the resumed session", async () => {
    const first = await session("bot", I.Guilds | I.GuildMembers);
    const { session_id: sessionId } = first.ready.d;
    const before = first.client.seq!;
    first.client.send(8, { guild_id: scaleGuildId, query: "", limit: 0, nonce: "resumed" });
    const firstChunk = await first.client.dispatch("GUILD_MEMBERS_CHUNK");
    // Dropped after the first chunk: the other two are made while the session is away.
    first.client.close();
    await new Promise((resolve) => setTimeout(resolve, 100));

    // As if the first chunk had been lost in flight too.
    const { replayed } = await resumeBot(sessionId, before);
    expect(replayed.map((p) => [p.t, p.s, p.d.chunk_index, p.d.nonce])).toEqual([
      ["GUILD_MEMBERS_CHUNK", before + 1, 0, "resumed"],
      ["GUILD_MEMBERS_CHUNK", before + 2, 1, "resumed"],
      ["GUILD_MEMBERS_CHUNK", before + 3, 2, "resumed"],
    ]);
    expect(replayed[0].d).toEqual(firstChunk.d);
    const ids = replayed.flatMap((c) => c.d.members.map((m: { user: { id: string } }) => m.user.id));
    expect(new Set(ids).size).toBe(SCALE_MEMBERS + 1);
  });

  it("an unknown session is INVALID_SESSION (not resumable); a seq never sent is 4007", async () => {
    const stranger = await connect();
    await stranger.next((p) => p.op === 10);
    stranger.send(6, { token: server.botToken, session_id: "f".repeat(32), seq: 3 });
    expect(await stranger.next()).toEqual({ op: 9, d: false });

    const live = await session("bot", I.Guilds);
    live.client.close();
    const ahead = await connect();
    await ahead.next((p) => p.op === 10);
    ahead.send(6, { token: server.botToken, session_id: live.ready.d.session_id, seq: live.client.seq! + 10 });
    await expectClose(ahead, 4007);
  });

  it("a RESUME whose missed dispatches are past the outbox's retention is INVALID_SESSION, never a replay with a hole", async () => {
    const first = await session("bot", I.Guilds);
    const { session_id: sessionId } = first.ready.d;
    const before = first.client.seq!;
    await editRole(server.world.roles.regular, "Pruned 1");
    await editRole(server.world.roles.regular, "Pruned 2");
    await first.client.dispatch("GUILD_ROLE_UPDATE", (d) => d.role.name === "Pruned 2");
    first.client.close();
    // Everything but the newest row is past a retention that ends tomorrow (the sweep's rule, forced).
    const { pruneOutbox } = await import("@/lib/guild-api/store/gateway-outbox");
    while ((await pruneOutbox(Date.now() + 86_400_000, 2_000)) > 0);

    const again = await connect();
    await again.next((p) => p.op === 10);
    again.send(6, { token: server.botToken, session_id: sessionId, seq: before });
    expect(await again.next()).toEqual({ op: 9, d: false });
    // The same socket may IDENTIFY for a new session, as after any INVALID_SESSION.
    again.send(2, {
      token: server.botToken,
      intents: I.Guilds,
      properties: { os: "linux", browser: "test", device: "test" },
    });
    const ready = await again.dispatch("READY");
    expect(ready.d.session_id).not.toBe(sessionId);
    // The old session is gone: resuming it again is refused at once.
    const later = await connect();
    await later.next((p) => p.op === 10);
    later.send(6, { token: server.botToken, session_id: sessionId, seq: before });
    expect(await later.next()).toEqual({ op: 9, d: false });
  });

  it("another identity cannot resume a session", async () => {
    const bots = await session("bot", I.Guilds);
    bots.client.close();
    const thief = await connect();
    await thief.next((p) => p.op === 10);
    thief.send(6, { token: await server.tokenFor("admin"), session_id: bots.ready.d.session_id, seq: 1 });
    expect(await thief.next()).toEqual({ op: 9, d: false });
  });
});

describe("compress=zlib-stream", () => {
  it("sends every payload through one zlib context, each ending in a sync flush, as discord.py inflates it", async () => {
    const zipped = await session("bot", I.Guilds, {}, "v=10&encoding=json&compress=zlib-stream");
    expect(zipped.client.received[0]).toEqual({ op: 10, d: { heartbeat_interval: 41_250 } });
    expect(zipped.creates.find((c) => c.d.id === hq)?.d.name).toBe("Guildhall HQ");
    await editRole(server.world.roles.regular, "Zipped");
    expect((await zipped.client.dispatch("GUILD_ROLE_UPDATE")).d.role.name).toBe("Zipped");
    // Nothing came as text: HELLO, READY, the GUILD_CREATEs and the event were all compressed frames.
    expect(zipped.client.binaryFrames).toBeGreaterThanOrEqual(zipped.client.received.length);
  });
});

describe("REQUEST_GUILD_MEMBERS", () => {
  it("every member in chunks of 1,000 with the nonce, chunk_index and chunk_count", async () => {
    const { client } = await session("bot", I.Guilds | I.GuildMembers);
    client.send(8, { guild_id: scaleGuildId, query: "", limit: 0, nonce: "all-of-them" });
    const chunks: GatewayPayload[] = [];
    for (let i = 0; i < 3; i++) chunks.push(await client.dispatch("GUILD_MEMBERS_CHUNK"));
    expect(chunks.map((c) => [c.d.chunk_index, c.d.chunk_count, c.d.nonce, c.d.guild_id])).toEqual([
      [0, 3, "all-of-them", scaleGuildId],
      [1, 3, "all-of-them", scaleGuildId],
      [2, 3, "all-of-them", scaleGuildId],
    ]);
    const ids = chunks.flatMap((c) => c.d.members.map((m: { user: { id: string } }) => m.user.id));
    expect(chunks.map((c) => c.d.members.length)).toEqual([1000, 1000, SCALE_MEMBERS + 1 - 2000]);
    expect(new Set(ids).size).toBe(SCALE_MEMBERS + 1);
  });

  it("by user ids, naming those not found; by prefix, at most `limit`", async () => {
    const { client } = await session("bot", I.Guilds | I.GuildMembers);
    const unknown = "123456789012345678";
    client.send(8, { guild_id: hq, user_ids: [server.world.users.mod, unknown], nonce: "ids" });
    const byIds = await client.dispatch("GUILD_MEMBERS_CHUNK");
    expect(byIds.d).toMatchObject({ chunk_index: 0, chunk_count: 1, nonce: "ids", not_found: [unknown] });
    expect(byIds.d.members.map((m: { user: { id: string } }) => m.user.id)).toEqual([server.world.users.mod]);
    // discord.py sends ids as JSON integers.
    client.sendRaw(`{"op":8,"d":{"guild_id":${hq},"query":"ad","limit":2,"nonce":"prefix"}}`);
    const byPrefix = await client.dispatch("GUILD_MEMBERS_CHUNK", (d) => d.nonce === "prefix");
    expect(byPrefix.d.members.length).toBeGreaterThan(0);
    expect(byPrefix.d.members.length).toBeLessThanOrEqual(2);
    for (const member of byPrefix.d.members) expect(`${member.nick ?? ""} ${member.user.username}`).toMatch(/(^| )ad/i);
  });

  it("the whole list needs the GUILD_MEMBERS intent (4013)", async () => {
    const { client } = await session("bot", I.Guilds);
    client.send(8, { guild_id: hq, query: "", limit: 0 });
    await expectClose(client, 4013);
  });
});

describe("in-process subscription (for the dashboard's live updates)", () => {
  it("subscribeToGuildEvents hands every committed event of the guild to the listener, in commit order, until unsubscribed", async () => {
    const { subscribeToGuildEvents } = await import("@/lib/guild-api/gateway");
    const events: Array<{ type: string; position: number; name?: string }> = [];
    const unsubscribe = subscribeToGuildEvents(hq, (event) =>
      events.push({
        type: event.type,
        position: event.position,
        name: (event.data as { role?: { name: string } }).role?.name,
      }),
    );
    await editRole(server.world.roles.regular, "Sub 1");
    await editRole(server.world.roles.regular, "Sub 2");
    for (const deadline = Date.now() + 5_000; events.length < 4 && Date.now() < deadline;)
      await new Promise((resolve) => setTimeout(resolve, 10));
    unsubscribe();
    await editRole(server.world.roles.regular, "Sub 3");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(events.map((e) => e.type)).toEqual([
      "GUILD_ROLE_UPDATE",
      "GUILD_AUDIT_LOG_ENTRY_CREATE",
      "GUILD_ROLE_UPDATE",
      "GUILD_AUDIT_LOG_ENTRY_CREATE",
    ]);
    expect(events.filter((e) => e.name).map((e) => e.name)).toEqual(["Sub 1", "Sub 2"]);
    expect(events.map((e) => e.position)).toEqual([...events.map((e) => e.position)].sort((a, b) => a - b));
  });
});

describe("RECONNECT", () => {
  it("a server shutting down tells its sessions to reconnect (op 7)", async () => {
    const { client } = await session("bot", I.Guilds);
    const { activeHub } = await import("@/lib/guild-api/gateway/registry");
    activeHub()!.reconnectAll();
    expect(await client.next((p) => p.op === 7)).toEqual({ op: 7, d: null });
  });
});
