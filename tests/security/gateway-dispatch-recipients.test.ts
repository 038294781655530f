// Who receives each dispatch the gateway sends in a guild, by permission (the security issue #29, finding 4: checked
// for every dispatch, not only bans). Five seeded sessions identify with every intent these events need:
//   member: @everyone's permissions only          helper: Kick Members, View Audit Log; sees the staff channels
//   mod: Manage Server/Channels/Roles, Ban, …, View Audit Log                   admin, bot: Administrator
// A private thread ("Ban appeal review", in the staff channel #mod-chat) has two members: admin and mod.
// Each case makes one change through the API, then a role rename every session receives (GUILDS, no permission):
// a session receives events in commit order, so once each has the rename, whatever the change sent it has arrived.
// The expected table is DISPATCH_POLICIES (lib/discord/policies.ts) applied to the five, written out by hand.
import { GatewayIntentBits as I, PermissionFlagsBits as P } from "discord-api-types/v10";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { testServerForFile } from "../integration/harness";
import { RawGatewayClient, type GatewayPayload } from "../integration/api/gateway-client";

const server = testServerForFile({ rateLimits: { enabled: false }, gateway: { identifyIntervalMs: 0 } });

const VIEWERS = ["member", "helper", "mod", "admin", "bot"] as const;
type Viewer = (typeof VIEWERS)[number];
const EVERYONE: Viewer[] = [...VIEWERS];
/** Those who can view the staff channels (Helpers and Moderators by overwrite; administrators). */
const STAFF: Viewer[] = ["helper", "mod", "admin", "bot"];
const INTENTS =
  I.Guilds | I.GuildMembers | I.GuildModeration | I.GuildIntegrations | I.GuildInvites | I.GuildVoiceStates;

const sessions = new Map<Viewer, RawGatewayClient>();
const clients: RawGatewayClient[] = [];
const guildCreates = new Map<Viewer, GatewayPayload[]>();
let hq: string;
let markers = 0;

async function connect(token: string): Promise<{ client: RawGatewayClient; creates: GatewayPayload[] }> {
  const client = await RawGatewayClient.connect(server.baseUrl.replace(/^http/, "ws"));
  clients.push(client);
  const ready = await client.identify(token, INTENTS);
  const creates: GatewayPayload[] = [];
  for (let i = 0; i < ready.d.guilds.length; i++) creates.push(await client.dispatch("GUILD_CREATE"));
  return { client, creates };
}

async function sql<T>(text: string, ...params: unknown[]): Promise<T[]> {
  const { sql } = await import("@/lib/guild-api/store/db");
  return sql.all<T>(text, ...params);
}

async function call(as: string, method: string, route: string, body?: unknown): Promise<Response> {
  const response = await server.api(as, method, route, body);
  expect(response.status, `${method} ${route}`).toBeLessThan(300);
  return response;
}

type Expectation = [type: string, match: (d: GatewayPayload["d"]) => boolean];

/**
 * For each labelled dispatch (its type, and what picks it out), which of the five received it because of `change`:
 * the change, then a role rename, then each session read up to the rename.
 */
async function recipientsOf(
  change: () => Promise<unknown>,
  dispatches: Record<string, Expectation>,
): Promise<Record<string, Viewer[]>> {
  const starts = new Map([...sessions].map(([viewer, client]) => [viewer, client.received.length]));
  await change();
  const marker = `Regular (marker ${++markers})`;
  await call("admin", "PATCH", `/guilds/${hq}/roles/${server.world.roles.regular}`, { name: marker });
  const heard: Record<string, Viewer[]> = Object.fromEntries(Object.keys(dispatches).map((label) => [label, []]));
  for (const [viewer, client] of sessions) {
    await client.dispatch("GUILD_ROLE_UPDATE", (d) => d.role.name === marker);
    const end = client.received.findIndex((p, i) => i >= starts.get(viewer)! && p.d?.role?.name === marker);
    const window = client.received.slice(starts.get(viewer), end);
    for (const [label, [type, match]] of Object.entries(dispatches))
      if (window.some((p) => p.op === 0 && p.t === type && match(p.d))) heard[label].push(viewer);
  }
  return heard;
}

beforeAll(async () => {
  hq = server.world.guildId;
  for (const viewer of VIEWERS) {
    const { client, creates } = await connect(viewer === "bot" ? server.botToken : await server.tokenFor(viewer));
    sessions.set(viewer, client);
    guildCreates.set(viewer, creates);
  }
});
afterAll(() => {
  for (const client of clients) client.close();
});

describe("each dispatch of a guild reaches the seeded sessions DISPATCH_POLICIES admits, and no other", () => {
  test("member, helper, mod, admin and the bot, event by event", async () => {
    const staffOverwrites = [
      { id: hq, type: 0, allow: "0", deny: String(P.ViewChannel) },
      { id: server.world.roles.moderator, type: 0, allow: String(P.ViewChannel), deny: "0" },
      { id: server.world.roles.helper, type: 0, allow: String(P.ViewChannel), deny: "0" },
    ];
    const voiceUser = (
      await sql<{ user_id: bigint }>(
        "SELECT user_id FROM voice_states WHERE guild_id = ? AND user_id NOT IN (?, ?) ORDER BY user_id LIMIT 1",
        BigInt(hq),
        BigInt(server.world.users.mod),
        BigInt(server.world.users.member),
      )
    ).map((row) => String(row.user_id))[0];
    // Plain members (no role, not in voice): one renamed, one banned, one kicked while connected.
    const [renamed, banned, departing] = (
      await sql<{ user_id: bigint; username: string }>(
        "SELECT m.user_id, u.username FROM members m JOIN users u ON u.id = m.user_id WHERE m.guild_id = ? AND m.role_count = 0 AND u.bot = FALSE AND u.username NOT IN ('owner', 'member') AND m.user_id NOT IN (SELECT user_id FROM voice_states) ORDER BY u.id LIMIT 3",
        BigInt(hq),
      )
    ).map((row) => ({ id: String(row.user_id), username: row.username }));
    const thread = async (name: string) =>
      String(
        (await sql<{ id: bigint }>("SELECT id FROM channels WHERE guild_id = ? AND name = ?", BigInt(hq), name))[0].id,
      );
    const privateThread = await thread("Ban appeal review");
    const publicThread = await thread("Welcome party planning");
    const twitch = String(
      (await sql<{ id: bigint }>("SELECT id FROM integrations WHERE guild_id = ? AND type = 'twitch'", BigInt(hq)))[0]
        .id,
    );

    let roleId = "";
    let staffChannel = "";
    let inviteCode = "";
    const actual: Record<string, Viewer[]> = {};
    const observe = async (change: () => Promise<unknown>, dispatches: Record<string, Expectation>) =>
      Object.assign(actual, await recipientsOf(change, dispatches));
    const idOf = async (response: Promise<Response>) => ((await (await response).json()) as { id: string }).id;

    actual.GUILD_CREATE = VIEWERS.filter((viewer) => guildCreates.get(viewer)!.some((p) => p.d.id === hq));
    await observe(() => call("admin", "PATCH", `/guilds/${hq}`, { description: "Matrix" }), {
      GUILD_UPDATE: ["GUILD_UPDATE", (d) => d.id === hq && d.description === "Matrix"],
    });
    await observe(async () => (roleId = await idOf(call("admin", "POST", `/guilds/${hq}/roles`, { name: "Matrix" }))), {
      GUILD_ROLE_CREATE: ["GUILD_ROLE_CREATE", (d) => d.role.name === "Matrix"],
      "GUILD_AUDIT_LOG_ENTRY_CREATE (the role's creation)": [
        "GUILD_AUDIT_LOG_ENTRY_CREATE",
        (d) => d.target_id === roleId && d.action_type === 30,
      ],
    });
    await observe(() => call("admin", "PATCH", `/guilds/${hq}/roles/${roleId}`, { name: "Matrix (renamed)" }), {
      GUILD_ROLE_UPDATE: ["GUILD_ROLE_UPDATE", (d) => d.role.name === "Matrix (renamed)"],
    });
    await observe(() => call("admin", "DELETE", `/guilds/${hq}/roles/${roleId}`), {
      GUILD_ROLE_DELETE: ["GUILD_ROLE_DELETE", (d) => d.role_id === roleId],
    });
    await observe(() => call("admin", "POST", `/guilds/${hq}/channels`, { name: "matrix-public" }), {
      "CHANNEL_CREATE (public)": ["CHANNEL_CREATE", (d) => d.name === "matrix-public"],
    });
    const staffChannelBody = { name: "matrix-staff", permission_overwrites: staffOverwrites };
    await observe(
      async () => (staffChannel = await idOf(call("admin", "POST", `/guilds/${hq}/channels`, staffChannelBody))),
      {
        "CHANNEL_CREATE (staff only)": ["CHANNEL_CREATE", (d) => d.name === "matrix-staff"],
      },
    );
    await observe(() => call("admin", "PATCH", `/channels/${staffChannel}`, { topic: "Matrix" }), {
      "CHANNEL_UPDATE (staff only)": ["CHANNEL_UPDATE", (d) => d.id === staffChannel],
    });
    await observe(() => call("admin", "DELETE", `/channels/${staffChannel}`), {
      "CHANNEL_DELETE (staff only)": ["CHANNEL_DELETE", (d) => d.id === staffChannel],
    });
    await observe(() => call("admin", "PATCH", `/channels/${privateThread}`, { name: "Ban appeal review (matrix)" }), {
      "THREAD_UPDATE (private, in a staff channel)": ["THREAD_UPDATE", (d) => d.id === privateThread],
    });
    await observe(() => call("admin", "PATCH", `/channels/${publicThread}`, { name: "Welcome party (matrix)" }), {
      "THREAD_UPDATE (in #general)": ["THREAD_UPDATE", (d) => d.id === publicThread],
    });
    await observe(() => call("admin", "DELETE", `/channels/${publicThread}`), {
      "THREAD_DELETE (in #general)": ["THREAD_DELETE", (d) => d.id === publicThread],
    });
    await observe(() => call("admin", "DELETE", `/channels/${privateThread}`), {
      "THREAD_DELETE (private, in a staff channel)": ["THREAD_DELETE", (d) => d.id === privateThread],
    });
    const outsider = server.world.users.outsider;
    const joinToken = await server.tokenFor("outsider", ["identify", "guilds.join"]);
    await observe(() => call("bot", "PUT", `/guilds/${hq}/members/${outsider}`, { access_token: joinToken }), {
      GUILD_MEMBER_ADD: ["GUILD_MEMBER_ADD", (d) => d.user.id === outsider],
    });
    await observe(() => call("admin", "PATCH", `/guilds/${hq}/members/${renamed.id}`, { nick: "Matrix" }), {
      GUILD_MEMBER_UPDATE: ["GUILD_MEMBER_UPDATE", (d) => d.user.id === renamed.id && d.nick === "Matrix"],
    });
    await observe(() => call("admin", "PATCH", `/guilds/${hq}/members/${voiceUser}`, { mute: true }), {
      VOICE_STATE_UPDATE: ["VOICE_STATE_UPDATE", (d) => d.user_id === voiceUser && d.mute === true],
    });
    await observe(() => call("mod", "PUT", `/guilds/${hq}/bans/${banned.id}`, {}), {
      GUILD_BAN_ADD: ["GUILD_BAN_ADD", (d) => d.user.id === banned.id],
    });
    await observe(() => call("mod", "DELETE", `/guilds/${hq}/bans/${banned.id}`), {
      GUILD_BAN_REMOVE: ["GUILD_BAN_REMOVE", (d) => d.user.id === banned.id],
    });
    const general = server.world.channels.general;
    await observe(
      async () =>
        (inviteCode = (
          (await (await call("mod", "POST", `/channels/${general}/invites`, {})).json()) as { code: string }
        ).code),
      { "INVITE_CREATE (#general)": ["INVITE_CREATE", (d) => d.code === inviteCode] },
    );
    await observe(() => call("mod", "DELETE", `/invites/${inviteCode}`), {
      "INVITE_DELETE (#general)": ["INVITE_DELETE", (d) => d.code === inviteCode],
    });
    await observe(() => call("admin", "DELETE", `/guilds/${hq}/integrations/${twitch}`), {
      GUILD_INTEGRATIONS_UPDATE: ["GUILD_INTEGRATIONS_UPDATE", (d) => d.guild_id === hq],
      INTEGRATION_DELETE: ["INTEGRATION_DELETE", (d) => d.id === twitch],
    });
    // A member asks for the whole list: the chunks are that session's alone.
    await observe(
      async () => {
        sessions.get("member")!.send(8, { guild_id: hq, query: "", limit: 0, nonce: "matrix" });
        await sessions.get("member")!.dispatch("GUILD_MEMBERS_CHUNK", (d) => d.nonce === "matrix");
      },
      { GUILD_MEMBERS_CHUNK: ["GUILD_MEMBERS_CHUNK", (d) => d.nonce === "matrix"] },
    );
    // A sixth session, of a member who is then kicked: GUILD_DELETE goes to them alone.
    const leaver = await connect(await server.tokenFor(departing.username));
    await observe(() => call("admin", "DELETE", `/guilds/${hq}/members/${departing.id}`), {
      GUILD_MEMBER_REMOVE: ["GUILD_MEMBER_REMOVE", (d) => d.user.id === departing.id],
      "GUILD_DELETE (to the member who left)": ["GUILD_DELETE", (d) => d.id === hq],
    });
    expect((await leaver.client.dispatch("GUILD_DELETE", (d) => d.id === hq)).d).toEqual({ id: hq });

    expect(actual).toEqual({
      GUILD_CREATE: EVERYONE,
      GUILD_UPDATE: EVERYONE,
      GUILD_ROLE_CREATE: EVERYONE,
      "GUILD_AUDIT_LOG_ENTRY_CREATE (the role's creation)": ["helper", "mod", "admin", "bot"],
      GUILD_ROLE_UPDATE: EVERYONE,
      GUILD_ROLE_DELETE: EVERYONE,
      "CHANNEL_CREATE (public)": EVERYONE,
      "CHANNEL_CREATE (staff only)": STAFF,
      "CHANNEL_UPDATE (staff only)": STAFF,
      "CHANNEL_DELETE (staff only)": STAFF,
      // A private thread: its members (admin, mod) and Manage Threads in the parent (the bot, an administrator);
      // helper sees the staff channel but not the thread.
      "THREAD_UPDATE (private, in a staff channel)": ["mod", "admin", "bot"],
      "THREAD_UPDATE (in #general)": EVERYONE,
      "THREAD_DELETE (in #general)": EVERYONE,
      "THREAD_DELETE (private, in a staff channel)": ["mod", "admin", "bot"],
      GUILD_MEMBER_ADD: EVERYONE,
      GUILD_MEMBER_UPDATE: EVERYONE,
      VOICE_STATE_UPDATE: EVERYONE,
      // Ban Members or View Audit Log.
      GUILD_BAN_ADD: ["helper", "mod", "admin", "bot"],
      GUILD_BAN_REMOVE: ["helper", "mod", "admin", "bot"],
      // Manage Channels in the invite's channel: not helper, nor member (who may create invites).
      "INVITE_CREATE (#general)": ["mod", "admin", "bot"],
      "INVITE_DELETE (#general)": ["mod", "admin", "bot"],
      // Manage Server (Guildhall's rule: the integrations' readers).
      GUILD_INTEGRATIONS_UPDATE: ["mod", "admin", "bot"],
      INTEGRATION_DELETE: ["mod", "admin", "bot"],
      GUILD_MEMBERS_CHUNK: ["member"],
      GUILD_MEMBER_REMOVE: EVERYONE,
      "GUILD_DELETE (to the member who left)": [],
    });
  });
});
