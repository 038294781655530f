// Invites and target users: Create Channel Invite (JSON, form, multipart; limits; targets; roles; reuse; pauses),
// Get Invite, Get Guild Invites, Delete Invite, accepting an invite, and the target-users file, job and CSV.
import { describe, expect, test } from "vitest";
import { PermissionFlagsBits, Routes } from "discord-api-types/v10";
import { auditSince, eventsSince, fail, lastAuditId, lastEventId } from "./read-back";
import { testServerForFile } from "../harness";
import { sql, storeOnPostgresql } from "@/lib/guild-api/store/db";
import { expectOperationResponse, expectSchema } from "../openapi";

// Many target-user uploads in a row on purpose, in a strict bucket: see TestServerOptions.rateLimits.
const server = testServerForFile({ rateLimits: { enabled: false } });

type Invite = Record<string, unknown> & {
  code: string;
  guild: Record<string, unknown>;
  channel: { id: string; type: number; name: string };
  expires_at: string | null;
  uses?: number;
  max_uses?: number;
  max_age?: number;
  temporary?: boolean;
  created_at?: string;
  roles?: Array<{ id: string }>;
};
interface JobStatus {
  status: number;
  total_users: number;
  processed_users: number;
  created_at: string | null;
  completed_at: string | null;
  error_message: string | null;
}

const guild = () => server.world.guildId;
const channel = (name: string) => server.world.channels[name];
const create = (as: string, channelName: string, body: Record<string, unknown> = {}, reason?: string) =>
  server.rest(as).post(Routes.channelInvites(channel(channelName)), { body, reason }) as Promise<Invite>;
/** A fresh user, neither member nor banned (tokens for it come from server.tokenFor like any seeded user). */
let nextUser = 6_000_000_000n;
async function stranger(): Promise<{ id: string; username: string }> {
  const id = nextUser++;
  await sql.run(
    "INSERT INTO users (id, username, discriminator, bot, created_at) VALUES (?, ?, '0', FALSE, 0)",
    id,
    `stranger_${id}`,
  );
  return { id: String(id), username: `stranger_${id}` };
}
const accept = (as: string, code: string) =>
  server.rest(as).post(Routes.invite(code)) as Promise<Invite & { new_member: boolean }>;
const isMember = async (userId: string) =>
  (await sql.get("SELECT 1 FROM members WHERE guild_id = ? AND user_id = ?", BigInt(guild()), BigInt(userId))) !==
  undefined;
const csvForm = (csv: string, extra: Record<string, string> = {}) => {
  const form = new FormData();
  for (const [key, value] of Object.entries(extra)) form.append(key, value);
  form.append("target_users_file", new Blob([csv], { type: "text/csv" }), "users.csv");
  return form;
};
const jobStatus = async (code: string, as = "mod") => {
  const response = await server.api(as, "GET", `/invites/${code}/target-users/job-status`);
  expect(response.status).toBe(200);
  const body = (await response.json()) as JobStatus;
  expectOperationResponse("GET", "/invites/{code}/target-users/job-status", 200, body);
  return body;
};
const targetCsv = async (code: string, as = "mod") => {
  const response = await server.api(as, "GET", `/invites/${code}/target-users`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/csv/);
  return response.text();
};
async function waitForJob(code: string, status = 2): Promise<JobStatus> {
  for (let i = 0; i < 500; i++) {
    const job = await jobStatus(code);
    if (job.status === status) return job;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`job of ${code} never reached status ${status}`);
}

describe("Create Channel Invite", () => {
  test("a member creates an invite: defaults, a fresh 8–10 character base62 code, metadata, INVITE_CREATE and INVITE_CREATE audit", async () => {
    const since = await lastEventId();
    const audit = await lastAuditId();
    const before = Date.now();
    const invite = await create("member", "general", { unique: true }, "welcome wagon");
    expectOperationResponse("POST", "/channels/{channel_id}/invites", 200, invite);
    expect(invite.code).toMatch(/^[0-9A-Za-z]{8,10}$/);
    expect(invite).toMatchObject({
      type: 0,
      guild_id: guild(),
      channel: { id: channel("general"), type: 0, name: "general" },
      inviter: { id: server.world.users.member },
      uses: 0,
      max_uses: 0,
      max_age: 86400,
      temporary: false,
      flags: 0,
      guild: { id: guild(), name: "Guildhall HQ", vanity_url_code: "guildhall" },
    });
    const expires = Date.parse(invite.expires_at!);
    expect(expires - Date.parse(invite.created_at!)).toBe(86_400_000);
    expect(Date.parse(invite.created_at!)).toBeGreaterThanOrEqual(before - 5);

    const fired = await eventsSince(since);
    expect(fired.map((e) => e.type)).toEqual(["INVITE_CREATE"]);
    expect(fired[0].d).toMatchObject({
      code: invite.code,
      channel_id: channel("general"),
      guild_id: guild(),
      max_age: 86400,
      max_uses: 0,
      temporary: false,
      uses: 0,
      inviter: { id: server.world.users.member },
    });
    const entries = await auditSince(guild(), audit);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      user_id: BigInt(server.world.users.member),
      action_type: 40n,
      reason: "welcome wagon",
    });
    expect(JSON.parse(entries[0].changes!)).toEqual(
      expect.arrayContaining([
        { key: "code", new_value: invite.code },
        { key: "channel_id", new_value: channel("general") },
        { key: "max_age", new_value: 86400 },
      ]),
    );
  });

  test("unique=false reuses the inviter's matching invite (200, no event); unique=true makes a new one", async () => {
    const since = await lastEventId();
    // mod's seeded hqwelcome: general, max_age 0, max_uses 0.
    const reused = await create("mod", "general", { max_age: 0 });
    expect(reused.code).toBe("hqwelcome");
    expect(reused).toMatchObject({ uses: 128, max_age: 0, expires_at: null });
    expect(await eventsSince(since)).toEqual([]);
    const fresh = await create("mod", "general", { max_age: 0, unique: true });
    expect(fresh.code).not.toBe("hqwelcome");
    // Another inviter never gets mod's invite.
    expect((await create("helper", "general", { max_age: 0 })).code).not.toBe("hqwelcome");
    // A different setting is a different invite.
    const a = await create("member", "off-topic", { max_uses: 3 });
    expect((await create("member", "off-topic", { max_uses: 3 })).code).toBe(a.code);
    expect((await create("member", "off-topic", { max_uses: 4 })).code).not.toBe(a.code);
  });

  test("limits: max_age 0–604800 and max_uses 0–100 at and past their edges", async () => {
    expect(await create("member", "general", { max_age: 604800, unique: true })).toMatchObject({ max_age: 604800 });
    expect(await create("member", "general", { max_uses: 100, unique: true })).toMatchObject({ max_uses: 100 });
    expect(await create("member", "general", { max_age: 0, unique: true })).toMatchObject({
      max_age: 0,
      expires_at: null,
    });
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ max_age: 604801 }, "max_age", "NUMBER_TYPE_MAX"],
      [{ max_age: -1 }, "max_age", "NUMBER_TYPE_MIN"],
      [{ max_uses: 101 }, "max_uses", "NUMBER_TYPE_MAX"],
      [{ max_uses: -1 }, "max_uses", "NUMBER_TYPE_MIN"],
      [{ target_type: 3 }, "target_type", "BASE_TYPE_CHOICES"],
    ];
    for (const [body, field, code] of cases) {
      const error = await fail(create("member", "general", body));
      expect(error?.rawError, JSON.stringify(body)).toMatchObject({
        code: 50035,
        errors: { [field]: { _errors: [{ code }] } },
      });
    }
  });

  test("form-urlencoded and multipart (fields or payload_json) bodies", async () => {
    const urlencoded = await server.api(
      "member",
      "POST",
      `/channels/${channel("general")}/invites`,
      "max_age=3600&max_uses=5&temporary=true&unique=true",
      {
        "content-type": "application/x-www-form-urlencoded",
      },
    );
    expect(urlencoded.status).toBe(200);
    expect(await urlencoded.json()).toMatchObject({ max_age: 3600, max_uses: 5, temporary: true });

    const form = new FormData();
    form.append("payload_json", JSON.stringify({ max_age: 7200, unique: true }));
    const multipart = await server.api("member", "POST", `/channels/${channel("general")}/invites`, form);
    expect(multipart.status).toBe(200);
    expect(await multipart.json()).toMatchObject({ max_age: 7200, max_uses: 0 });

    const fields = new FormData();
    fields.append("max_uses", "7");
    fields.append("unique", "true");
    const plain = await server.api("member", "POST", `/channels/${channel("general")}/invites`, fields);
    expect(await plain.json()).toMatchObject({ max_uses: 7, max_age: 86400 });

    const bad = await server.api("member", "POST", `/channels/${channel("general")}/invites`, "max_age=soon", {
      "content-type": "application/x-www-form-urlencoded",
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      code: 50035,
      errors: { max_age: { _errors: [{ code: "NUMBER_TYPE_COERCE" }] } },
    });
  });

  test("permissions: outsider 50001, hidden channel 50001, no CREATE_INSTANT_INVITE 50013; unknown channel 10003; categories 50024", async () => {
    expect(await fail(create("outsider", "general"))).toMatchObject({ status: 403, code: 50001 });
    expect(await fail(create("member", "mod-chat"))).toMatchObject({ status: 403, code: 50001 });
    expect(await create("helper", "mod-chat", { unique: true })).toMatchObject({ channel: { name: "mod-chat" } });
    // @everyone loses Create Instant Invite in #memes.
    await sql.run(
      "UPDATE channels SET permission_overwrites = ? WHERE id = ?",
      JSON.stringify([{ id: guild(), type: 0, allow: "0", deny: String(PermissionFlagsBits.CreateInstantInvite) }]),
      BigInt(channel("memes")),
    );
    expect(await fail(create("member", "memes"))).toMatchObject({ status: 403, code: 50013 });
    // The overwrite takes it from Moderators too (they hold it through @everyone); administrators bypass overwrites.
    expect(await fail(create("mod", "memes"))).toMatchObject({ status: 403, code: 50013 });
    expect(await create("admin", "memes", { unique: true })).toMatchObject({ channel: { name: "memes" } });
    await sql.run("UPDATE channels SET permission_overwrites = '[]' WHERE id = ?", BigInt(channel("memes")));
    expect(
      await fail(server.rest("member").post(Routes.channelInvites("123456789012345678"), { body: {} })),
    ).toMatchObject({ status: 404, code: 10003 });
    expect(await fail(create("member", "Community"))).toMatchObject({ status: 400, code: 50024 });
  });

  test("target_type 2 needs an application with Activities in a voice channel; target_type 1 a user streaming there", async () => {
    const app = server.world.applicationId;
    const embedded = await create("member", "Lounge", { target_type: 2, target_application_id: app });
    expect(embedded).toMatchObject({
      target_type: 2,
      target_application: { id: app, name: expect.any(String) },
      channel: { name: "Lounge", type: 2 },
    });
    expectOperationResponse("POST", "/channels/{channel_id}/invites", 200, embedded);
    const errors = async (name: string, body: Record<string, unknown>) =>
      ((await fail(create("member", name, body)))?.rawError as { errors: Record<string, unknown> }).errors;
    expect(await errors("general", { target_type: 2, target_application_id: app })).toMatchObject({
      target_type: { _errors: [{ code: "INVITE_TARGET_CHANNEL_INVALID" }] },
    });
    expect(await errors("Lounge", { target_type: 2 })).toMatchObject({
      target_application_id: { _errors: [{ code: "BASE_TYPE_REQUIRED" }] },
    });
    await sql.run("UPDATE applications SET activities_enabled = FALSE WHERE id = ?", BigInt(app));
    expect(await errors("Lounge", { target_type: 2, target_application_id: app })).toMatchObject({
      target_application_id: { _errors: [{ code: "INVITE_TARGET_APPLICATION_INVALID" }] },
    });
    await sql.run("UPDATE applications SET activities_enabled = TRUE WHERE id = ?", BigInt(app));

    // mod is in the Lounge but not streaming; then starts a stream.
    const mod = server.world.users.mod;
    expect(await errors("Lounge", { target_type: 1, target_user_id: mod })).toMatchObject({
      target_user_id: { _errors: [{ code: "INVITE_TARGET_USER_NOT_STREAMING" }] },
    });
    await sql.run(
      "UPDATE voice_states SET self_stream = TRUE WHERE guild_id = ? AND user_id = ?",
      BigInt(guild()),
      BigInt(mod),
    );
    const stream = await create("member", "Lounge", { target_type: 1, target_user_id: mod });
    expect(stream).toMatchObject({ target_type: 1, target_user: { id: mod } });
    expectSchema("UserResponse", stream.target_user);
    // Streaming in the Lounge is no stream in Gaming.
    expect(await errors("Gaming", { target_type: 1, target_user_id: mod })).toMatchObject({
      target_user_id: { _errors: [{ code: "INVITE_TARGET_USER_NOT_STREAMING" }] },
    });
    expect(await errors("Lounge", { target_user_id: mod })).toMatchObject({
      target_type: { _errors: [{ code: "BASE_TYPE_REQUIRED" }] },
    });
  });

  test("role_ids need Manage Roles and roles below the caller's highest", async () => {
    const { member, regular, moderator, bot } = server.world.roles;
    const invite = await create("mod", "general", { role_ids: [member, regular], unique: true });
    expect(invite.roles?.map((r) => r.id).sort()).toEqual([member, regular].sort());
    for (const role of invite.roles!) expectSchema("InviteGuildRoleResponse", role);
    expect(await fail(create("member", "general", { role_ids: [member] }))).toMatchObject({ status: 403, code: 50013 });
    expect(await fail(create("mod", "general", { role_ids: [moderator] }))).toMatchObject({ status: 403, code: 50013 });
    const managed = await fail(create("admin", "general", { role_ids: [bot] }));
    expect(managed?.rawError).toMatchObject({
      code: 50035,
      errors: { role_ids: { 0: { _errors: [{ code: "ROLE_MANAGED" }] } } },
    });
    const unknown = await fail(create("mod", "general", { role_ids: ["123456789"] }));
    expect(unknown?.rawError).toMatchObject({
      code: 50035,
      errors: { role_ids: { 0: { _errors: [{ code: "UNKNOWN_ROLE" }] } } },
    });
    // Comma-separated in a form body, as Discord's OpenAPI allows.
    const form = await server.api(
      "mod",
      "POST",
      `/channels/${channel("general")}/invites`,
      `role_ids=${member},${regular}&unique=true`,
      {
        "content-type": "application/x-www-form-urlencoded",
      },
    );
    expect(((await form.json()) as Invite).roles).toHaveLength(2);
  });
});

describe("Get Invite, Get Guild Invites, Delete Invite", () => {
  test("Get Invite needs no token: partial guild with the welcome screen, no metadata; with_counts; a scheduled event", async () => {
    const response = await server.api(null, "GET", "/invites/hqwelcome");
    expect(response.status).toBe(200);
    const invite = (await response.json()) as Invite;
    expectOperationResponse("GET", "/invites/{code}", 200, invite);
    expect(invite).toMatchObject({
      code: "hqwelcome",
      inviter: { id: server.world.users.mod },
      expires_at: null,
      channel: { name: "general" },
    });
    expect(invite.guild).toMatchObject({
      id: guild(),
      name: "Guildhall HQ",
      verification_level: 1,
      nsfw_level: 0,
      premium_subscription_count: 9,
      vanity_url_code: "guildhall",
      features: expect.arrayContaining(["COMMUNITY", "WELCOME_SCREEN_ENABLED"]),
      welcome_screen: {
        description: expect.stringContaining("Welcome"),
        welcome_channels: expect.arrayContaining([expect.objectContaining({ channel_id: channel("rules") })]),
      },
    });
    expectSchema("GuildWelcomeScreenResponse", invite.guild.welcome_screen);
    for (const key of ["uses", "max_uses", "max_age", "temporary", "created_at", "approximate_member_count"])
      expect(invite).not.toHaveProperty(key);

    const counted = (await server
      .rest("member")
      .get(Routes.invite("hqwelcome"), { query: new URLSearchParams({ with_counts: "true" }) })) as Invite;
    const members = Number(
      ((await sql.get("SELECT member_count FROM guilds WHERE id = ?", BigInt(guild()))) as { member_count: bigint })
        .member_count,
    );
    const online = Number(
      (
        (await sql.get(
          "SELECT COUNT(*) AS n FROM members WHERE guild_id = ? AND status != 'offline'",
          BigInt(guild()),
        )) as { n: bigint }
      ).n,
    );
    expect(counted).toMatchObject({ approximate_member_count: members, approximate_presence_count: online });
    expectOperationResponse("GET", "/invites/{code}", 200, counted);

    const event = (await sql.get(
      "SELECT id FROM guild_scheduled_events WHERE guild_id = ? AND name = 'Monthly Town Hall'",
      BigInt(guild()),
    )) as {
      id: bigint;
    };
    const withEvent = (await server.rest("member").get(Routes.invite("hqwelcome"), {
      query: new URLSearchParams({ guild_scheduled_event_id: String(event.id) }),
    })) as Invite;
    expect(withEvent.guild_scheduled_event).toMatchObject({ id: String(event.id), name: "Monthly Town Hall" });
    expectOperationResponse("GET", "/invites/{code}", 200, withEvent);
    const notAnEvent = (await server
      .rest("member")
      .get(Routes.invite("hqwelcome"), { query: new URLSearchParams({ guild_scheduled_event_id: "123" }) })) as Invite;
    expect(notAnEvent).not.toHaveProperty("guild_scheduled_event");
  });

  test("unknown, expired and used-up invites are 404 10006", async () => {
    expect(await fail(server.rest("member").get(Routes.invite("nosuchcode")))).toMatchObject({
      status: 404,
      code: 10006,
    });
    const expired = await create("member", "general", { unique: true });
    await sql.run("UPDATE invites SET expires_at = ? WHERE code = ?", BigInt(Date.now() - 1000), expired.code);
    expect(await fail(server.rest("member").get(Routes.invite(expired.code)))).toMatchObject({
      status: 404,
      code: 10006,
    });
    const usedUp = await create("member", "general", { max_uses: 2, unique: true });
    await sql.run("UPDATE invites SET uses = 2 WHERE code = ?", usedUp.code);
    expect(await fail(server.rest("member").get(Routes.invite(usedUp.code)))).toMatchObject({
      status: 404,
      code: 10006,
    });
    const guildInvites = (await server.rest("mod").get(Routes.guildInvites(guild()))) as Invite[];
    expect(guildInvites.map((i) => i.code)).not.toContain(expired.code);
    expect(guildInvites.map((i) => i.code)).not.toContain(usedUp.code);
  });

  test("Get Guild Invites: metadata with Manage Server, none with View Audit Log alone; member 50013, outsider 50001", async () => {
    const full = (await server.rest("mod").get(Routes.guildInvites(guild()))) as Invite[];
    expectOperationResponse("GET", "/guilds/{guild_id}/invites", 200, full);
    const hq = full.find((i) => i.code === "hqwelcome")!;
    expect(hq).toMatchObject({ uses: 128, max_uses: 0, max_age: 0, temporary: false, created_at: expect.any(String) });
    expect(full.map((i) => i.code)).toEqual(expect.arrayContaining(["hqwelcome", "movienight", "tempguest"]));

    const partial = (await server.rest("helper").get(Routes.guildInvites(guild()))) as Invite[];
    expectOperationResponse("GET", "/guilds/{guild_id}/invites", 200, partial);
    expect(partial.map((i) => i.code)).toEqual(full.map((i) => i.code));
    for (const invite of partial)
      for (const key of ["uses", "max_uses", "max_age", "temporary", "created_at"])
        expect(invite).not.toHaveProperty(key);

    expect(await fail(server.rest("member").get(Routes.guildInvites(guild())))).toMatchObject({
      status: 403,
      code: 50013,
    });
    expect(await fail(server.rest("outsider").get(Routes.guildInvites(guild())))).toMatchObject({
      status: 403,
      code: 50001,
    });
  });

  test("Delete Invite: Manage Channels in the channel or Manage Server; INVITE_DELETE and INVITE_DELETE audit", async () => {
    const invite = await create("member", "general", { unique: true });
    expect(await fail(server.rest("member").delete(Routes.invite(invite.code)))).toMatchObject({
      status: 403,
      code: 50013,
    });
    expect(await fail(server.rest("helper").delete(Routes.invite(invite.code)))).toMatchObject({
      status: 403,
      code: 50013,
    });
    expect(await fail(server.rest("outsider").delete(Routes.invite(invite.code)))).toMatchObject({
      status: 403,
      code: 50001,
    });
    const since = await lastEventId();
    const audit = await lastAuditId();
    const deleted = (await server.rest("mod").delete(Routes.invite(invite.code), { reason: "cleanup" })) as Invite;
    expectOperationResponse("DELETE", "/invites/{code}", 200, deleted);
    expect(deleted).toMatchObject({ code: invite.code, channel: { id: channel("general") } });
    expect(await eventsSince(since)).toEqual([
      { type: "INVITE_DELETE", d: { channel_id: channel("general"), guild_id: guild(), code: invite.code } },
    ]);
    const entries = await auditSince(guild(), audit);
    expect(entries).toMatchObject([{ action_type: 42n, user_id: BigInt(server.world.users.mod), reason: "cleanup" }]);
    expect(JSON.parse(entries[0].changes!)).toEqual(expect.arrayContaining([{ key: "code", old_value: invite.code }]));
    expect(await fail(server.rest("mod").get(Routes.invite(invite.code)))).toMatchObject({ status: 404, code: 10006 });
    expect(await fail(server.rest("mod").delete(Routes.invite(invite.code)))).toMatchObject({
      status: 404,
      code: 10006,
    });

    // A member whose role allows Manage Channels only in #general may delete invites to #general, not elsewhere.
    const { member } = server.world.roles;
    const overwrites = JSON.stringify([
      { id: member, type: 0, allow: String(PermissionFlagsBits.ManageChannels), deny: "0" },
    ]);
    await sql.run("UPDATE channels SET permission_overwrites = ? WHERE id = ?", overwrites, BigInt(channel("help")));
    const inHelp = await create("helper", "help", { unique: true });
    const inGeneral = await create("helper", "general", { unique: true });
    expect(await server.rest("member").delete(Routes.invite(inHelp.code))).toMatchObject({ code: inHelp.code });
    expect(await fail(server.rest("member").delete(Routes.invite(inGeneral.code)))).toMatchObject({
      status: 403,
      code: 50013,
    });
    await sql.run("UPDATE channels SET permission_overwrites = '[]' WHERE id = ?", BigInt(channel("help")));
  });
});

describe("Accepting an invite", () => {
  test("a user joins: GUILD_MEMBER_ADD, uses + 1, the invite's roles; a member gets new_member false", async () => {
    const { member: memberRole } = server.world.roles;
    const invite = await create("mod", "general", { role_ids: [memberRole], max_uses: 2, unique: true });
    const joiner = await stranger();
    const since = await lastEventId();
    const joined = await accept(joiner.username, invite.code);
    expect(joined).toMatchObject({ code: invite.code, new_member: true, guild: { id: guild() } });
    expect(await isMember(joiner.id)).toBe(true);
    const fired = await eventsSince(since);
    expect(fired.map((e) => e.type)).toEqual(["GUILD_MEMBER_ADD"]);
    expect(fired[0].d).toMatchObject({
      guild_id: guild(),
      user: { id: joiner.id },
      roles: [memberRole],
      pending: false,
    });
    expect(await sql.get("SELECT uses FROM invites WHERE code = ?", invite.code)).toEqual({ uses: 1n });

    expect(await accept("member", invite.code)).toMatchObject({ new_member: false });
    expect(await sql.get("SELECT uses FROM invites WHERE code = ?", invite.code)).toEqual({ uses: 1n });

    // max_uses 2: the second join uses it up; a third is Unknown Invite.
    await accept((await stranger()).username, invite.code);
    const late = await stranger();
    expect(await fail(accept(late.username, invite.code))).toMatchObject({ status: 404, code: 10006 });
    expect(await isMember(late.id)).toBe(false);
  });

  test("banned users get 403 40007; bots 20001", async () => {
    const banned = (await sql.get(
      "SELECT u.username FROM bans b JOIN users u ON u.id = b.user_id WHERE b.guild_id = ? LIMIT 1",
      BigInt(guild()),
    )) as { username: string };
    expect(await fail(accept(banned.username, "hqwelcome"))).toMatchObject({ status: 403, code: 40007 });
    expect(await fail(accept("bot", "hqwelcome"))).toMatchObject({ status: 403, code: 20001 });
  });

  test("paused invites (INVITES_DISABLED, or incident invites_disabled_until) refuse creation and acceptance", async () => {
    const features = ((await server.rest("mod").get(Routes.guild(guild()))) as { features: string[] }).features;
    await server.rest("mod").patch(Routes.guild(guild()), { body: { features: [...features, "INVITES_DISABLED"] } });
    const joiner = await stranger();
    for (const attempt of [create("member", "general", { unique: true }), accept(joiner.username, "hqwelcome")]) {
      const error = await fail(attempt);
      expect(error).toMatchObject({ status: 400 });
      expect(error?.message).toMatch(/paused/);
    }
    expect(await isMember(joiner.id)).toBe(false);
    await server.rest("mod").patch(Routes.guild(guild()), { body: { features } });

    await server.rest("mod").put(Routes.guildIncidentActions(guild()), {
      body: { invites_disabled_until: new Date(Date.now() + 3600_000).toISOString() },
    });
    expect(await fail(create("member", "general", { unique: true }))).toMatchObject({ status: 400 });
    expect(await fail(accept(joiner.username, "hqwelcome"))).toMatchObject({ status: 400 });
    await server.rest("mod").put(Routes.guildIncidentActions(guild()), { body: { invites_disabled_until: null } });
    expect(await accept(joiner.username, "hqwelcome")).toMatchObject({ new_member: true });
    expect(await create("member", "general", { unique: true })).toMatchObject({
      inviter: { id: server.world.users.member },
    });
  });
});

describe("Target users", () => {
  test("a file given at creation is processed; only listed users may accept; the CSV lists them", async () => {
    const [listed, other] = [await stranger(), await stranger()];
    const response = await server.api(
      "member",
      "POST",
      `/channels/${channel("general")}/invites`,
      csvForm(`user_id\n${listed.id}\n\n${listed.id}\r\n`, { payload_json: JSON.stringify({ max_uses: 10 }) }),
    );
    expect(response.status).toBe(200);
    const invite = (await response.json()) as Invite;
    expect(invite).toMatchObject({ max_uses: 10, inviter: { id: server.world.users.member } });
    const job = await waitForJob(invite.code);
    expect(job).toMatchObject({ status: 2, total_users: 1, processed_users: 1, error_message: null });
    expect(Date.parse(job.completed_at!)).toBeGreaterThanOrEqual(Date.parse(job.created_at!));
    expect(await targetCsv(invite.code, "member")).toBe(`user_id\n${listed.id}\n`);

    expect(await fail(accept(other.username, invite.code))).toMatchObject({ status: 403, code: 50001 });
    expect(await accept(listed.username, invite.code)).toMatchObject({ new_member: true });
    // unique=false never reuses an invite that has target users.
    expect((await create("member", "general", { max_uses: 10 })).code).not.toBe(invite.code);
  });

  test("a file with bad lines is refused naming every bad line, and nothing changes", async () => {
    const invite = await create("member", "general", { unique: true });
    const [a, b] = [await stranger(), await stranger()];
    expect(
      (await server.api("member", "PUT", `/invites/${invite.code}/target-users`, csvForm(`${a.id}\n${b.id}\n`))).status,
    ).toBe(204);
    await waitForJob(invite.code);
    const before = await targetCsv(invite.code);
    const jobBefore = await jobStatus(invite.code);

    const response = await server.api(
      "member",
      "PUT",
      `/invites/${invite.code}/target-users`,
      csvForm(`user_id\n${a.id}\nabc\n\n99999\n${b.id}\n12x\n`),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: 50035,
      errors: { target_users_file: { _errors: [{ code: "TARGET_USERS_FILE_INVALID" }, {}, {}] } },
      target_users_file: [
        'line 3: "abc" is not a valid user id',
        "line 5: user 99999 does not exist",
        'line 7: "12x" is not a valid user id',
      ],
    });
    expect(await targetCsv(invite.code)).toBe(before);
    expect(await jobStatus(invite.code)).toEqual(jobBefore);

    // A header anywhere but line 1 is a bad line; no file at all is a missing field.
    const header = await server.api(
      "member",
      "PUT",
      `/invites/${invite.code}/target-users`,
      csvForm(`${a.id}\nuser_id\n`),
    );
    expect(await header.json()).toMatchObject({ target_users_file: ['line 2: "user_id" is not a valid user id'] });
    const missing = await server.api("member", "PUT", `/invites/${invite.code}/target-users`, new FormData());
    expect(await missing.json()).toMatchObject({
      code: 50035,
      errors: { target_users_file: { _errors: [{ code: "BASE_TYPE_REQUIRED" }] } },
    });
  });

  test("permissions: the inviter or Manage Server updates; View Audit Log reads; others 50013, outsiders 50001", async () => {
    const invite = await create("member", "general", { unique: true });
    const file = async () => csvForm(`${(await stranger()).id}\n`);
    expect((await server.api("member", "PUT", `/invites/${invite.code}/target-users`, await file())).status).toBe(204);
    expect((await server.api("mod", "PUT", `/invites/${invite.code}/target-users`, await file())).status).toBe(204);
    const helperPut = await server.api("helper", "PUT", `/invites/${invite.code}/target-users`, await file());
    expect(helperPut.status).toBe(403);
    expect(await helperPut.json()).toMatchObject({ code: 50013 });
    await waitForJob(invite.code);
    await targetCsv(invite.code, "helper");
    await jobStatus(invite.code, "helper");
    await targetCsv(invite.code, "member");

    const mine = await create("helper", "general", { unique: true });
    for (const path of [`/invites/${mine.code}/target-users`, `/invites/${mine.code}/target-users/job-status`]) {
      const asMember = await server.api("member", "GET", path);
      expect(asMember.status).toBe(403);
      expect(await asMember.json()).toMatchObject({ code: 50013 });
      const asOutsider = await server.api("outsider", "GET", path);
      expect(await asOutsider.json()).toMatchObject({ code: 50001 });
    }
    expect((await server.api("member", "PUT", `/invites/${mine.code}/target-users`, await file())).status).toBe(403);
    // No file yet: UNSPECIFIED with zeros.
    expect(await jobStatus(mine.code)).toEqual({
      status: 0,
      total_users: 0,
      processed_users: 0,
      created_at: null,
      completed_at: null,
      error_message: null,
    });
    expect(await targetCsv(mine.code)).toBe("user_id\n");
    expect((await server.api("mod", "GET", "/invites/nosuchcode/target-users")).status).toBe(404);
  });

  test("a 20,000-line file is written in chunks: PROCESSING with growing progress, the server answering meanwhile, then COMPLETED", async () => {
    const base = 7_000_000_000n;
    // 20,000 users in one statement (a recursive count), as one transaction.
    await sql.run(
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 19999)
       INSERT INTO users (id, username, discriminator, bot, created_at) SELECT CAST(? AS BIGINT) + i, 'target_' || i, '0', FALSE, 0 FROM n`,
      base,
    );
    const ids = Array.from({ length: 20_000 }, (_, i) => String(base + BigInt(i)));
    const invite = await create("mod", "general", { unique: true });
    const response = await server.api(
      "mod",
      "PUT",
      `/invites/${invite.code}/target-users`,
      csvForm(`user_id\n${ids.join("\n")}\n`),
    );
    expect(response.status).toBe(204);

    const seen: JobStatus[] = [];
    let answeredWhileProcessing = false;
    for (let i = 0; i < 2000; i++) {
      const job = await jobStatus(invite.code);
      seen.push(job);
      if (job.status === 2) break;
      if (job.status === 1 && !answeredWhileProcessing) {
        // Another request is served while the job runs.
        expect((await server.api(null, "GET", `/invites/${invite.code}`)).status).toBe(200);
        answeredWhileProcessing = (await jobStatus(invite.code)).status === 1;
      }
    }
    const processing = seen.filter((job) => job.status === 1);
    expect(processing.length).toBeGreaterThan(0);
    expect(answeredWhileProcessing).toBe(true);
    expect(processing[0]).toMatchObject({ total_users: 20_000, completed_at: null, error_message: null });
    expect(processing[0].processed_users).toBeLessThan(20_000);
    const progress = seen.map((job) => job.processed_users);
    expect(progress).toEqual([...progress].sort((x, y) => x - y));
    expect(seen.at(-1)).toMatchObject({
      status: 2,
      total_users: 20_000,
      processed_users: 20_000,
      completed_at: expect.any(String),
    });
    const csv = await targetCsv(invite.code);
    expect(csv.split("\n").filter(Boolean)).toHaveLength(20_001);
    expect(
      await sql.get("SELECT pending_user_ids FROM invite_target_users_jobs WHERE invite_code = ?", invite.code),
    ).toEqual({ pending_user_ids: "[]" });
  });

  test("an unfinished job resumes after a restart (resumeTargetUserJobs, or on reading its status)", async () => {
    const { resumeTargetUserJobs } = await import("@/lib/guild-api/services/target-users");
    const users = [await stranger(), await stranger(), await stranger()].map((u) => u.id);
    const seedJob = async (code: string) => {
      // As a server that stopped after writing the first id: PROCESSING, one processed, all three pending.
      await sql.run("INSERT INTO invite_target_users (invite_code, user_id) VALUES (?, ?)", code, BigInt(users[0]));
      await sql.run(
        "INSERT INTO invite_target_users_jobs (invite_code, status, total_users, processed_users, pending_user_ids, created_at) VALUES (?, 1, 3, 1, ?, ?)",
        code,
        `[${users.join(",")}]`,
        BigInt(Date.now()),
      );
    };
    const first = await create("mod", "general", { unique: true });
    const second = await create("mod", "general", { unique: true });
    await seedJob(first.code);
    await seedJob(second.code);
    expect(await resumeTargetUserJobs()).toBeGreaterThanOrEqual(1);
    expect(await waitForJob(first.code)).toMatchObject({ status: 2, processed_users: 3 });
    expect(await waitForJob(second.code)).toMatchObject({ status: 2, processed_users: 3 });
    expect((await targetCsv(first.code)).split("\n").filter(Boolean).slice(1).sort()).toEqual([...users].sort());

    const lazy = await create("mod", "general", { unique: true });
    await seedJob(lazy.code);
    expect(await waitForJob(lazy.code)).toMatchObject({ status: 2, total_users: 3, processed_users: 3 });
  });

  test("a job that cannot write its ids ends FAILED with an error message", async () => {
    const [ok, doomed] = [await stranger(), await stranger()];
    // Make the database refuse one of the ids.
    if (storeOnPostgresql()) {
      await sql.run(
        `CREATE FUNCTION refuse_target() RETURNS trigger LANGUAGE plpgsql AS $body$ BEGIN
           IF NEW.user_id = ${doomed.id} THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $body$`,
      );
      await sql.run(
        "CREATE TRIGGER refuse_target BEFORE INSERT ON invite_target_users FOR EACH ROW EXECUTE FUNCTION refuse_target()",
      );
    } else
      await sql.run(
        `CREATE TRIGGER refuse_target BEFORE INSERT ON invite_target_users WHEN NEW.user_id = ${doomed.id} BEGIN SELECT RAISE(ABORT, 'refused'); END`,
      );
    try {
      const invite = await create("mod", "general", { unique: true });
      expect(
        (await server.api("mod", "PUT", `/invites/${invite.code}/target-users`, csvForm(`${ok.id}\n${doomed.id}\n`)))
          .status,
      ).toBe(204);
      const job = await waitForJob(invite.code, 3);
      expect(job).toMatchObject({
        status: 3,
        total_users: 2,
        processed_users: 0,
        completed_at: null,
        error_message: expect.stringMatching(/upload the file again/),
      });
    } finally {
      if (storeOnPostgresql()) {
        await sql.run("DROP TRIGGER refuse_target ON invite_target_users");
        await sql.run("DROP FUNCTION refuse_target()");
      } else await sql.run("DROP TRIGGER refuse_target");
    }
  });

  test("deleting an invite deletes its target users and job", async () => {
    const invite = await create("mod", "general", { unique: true });
    await server.api("mod", "PUT", `/invites/${invite.code}/target-users`, csvForm(`${(await stranger()).id}\n`));
    await waitForJob(invite.code);
    await server.rest("mod").delete(Routes.invite(invite.code));
    expect(await sql.get("SELECT COUNT(*) AS n FROM invite_target_users WHERE invite_code = ?", invite.code)).toEqual({
      n: 0n,
    });
    expect(
      await sql.get("SELECT COUNT(*) AS n FROM invite_target_users_jobs WHERE invite_code = ?", invite.code),
    ).toEqual({ n: 0n });
  });
});
