// One channel's routes: Get Channel, Modify Channel, Delete Channel, Get Channel Invites, Edit Channel Permissions and
// Delete Channel Permission (permissions judged in the channel, overwrite limits, events, audit log, what a deletion
// leaves behind), plus the names Discord normalises; over real HTTP against the harness server.
import { beforeAll, describe, expect, test } from "vitest";
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { type WireChannel as Channel } from "./read-back";
import { testServerForFile } from "../harness";
import { sql } from "@/lib/guild-api/store/db";
import { expectOperationResponse } from "../openapi";

const server = testServerForFile();
let hq: string;
beforeAll(() => {
  hq = server.world.guildId;
});

interface AuditEntry {
  action_type: number;
  target_id: string;
  user_id: string;
  reason?: string;
  changes?: Array<{ key: string; old_value?: unknown; new_value?: unknown }>;
  options?: Record<string, string>;
}

async function call(as: string | null, method: string, route: string, body?: unknown, reason?: string) {
  const response = await server.api(as, method, route, body, reason ? { "x-audit-log-reason": reason } : {});
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}
const ok = async <T = Channel>(as: string | null, method: string, route: string, body?: unknown, reason?: string) => {
  const { status, json } = await call(as, method, route, body, reason);
  expect(status, JSON.stringify(json)).toBeLessThan(300);
  return json as T;
};
const channel = (id: string) => ok("owner", "GET", `/channels/${id}`);
const make = (body: Record<string, unknown>) => ok("owner", "POST", `/guilds/${hq}/channels`, body);
async function eventsAfter(after: bigint) {
  const rows = (await sql.all(
    "SELECT type, payload FROM gateway_events WHERE id > ? AND type != 'GUILD_AUDIT_LOG_ENTRY_CREATE' ORDER BY id",
    after,
  )) as Array<{ type: string; payload: string }>;
  return rows.map((row) => ({ type: row.type, d: JSON.parse(row.payload) as Record<string, unknown> }));
}
const lastEvent = async () =>
  ((await sql.get("SELECT COALESCE(MAX(id), 0) AS id FROM gateway_events")) as { id: bigint }).id;
async function audit(actionType: number, targetId: string): Promise<AuditEntry[]> {
  const log = await ok<{ audit_log_entries: AuditEntry[] }>(
    "owner",
    "GET",
    `/guilds/${hq}/audit-logs?action_type=${actionType}&limit=100`,
  );
  return log.audit_log_entries.filter((entry) => entry.target_id === targetId);
}

describe("Get Channel", () => {
  test("a channel the caller can view, in Discord's shape; threads too", async () => {
    const general = await ok("member", "GET", `/channels/${server.world.channels.general}`);
    expectOperationResponse("GET", "/channels/{channel_id}", 200, general);
    expect(general).toMatchObject({ id: server.world.channels.general, name: "general", guild_id: hq });
    const thread = (await sql.get("SELECT id FROM channels WHERE type = 11 LIMIT 1")) as { id: bigint };
    const read = await ok("mod", "GET", `/channels/${thread.id}`);
    expectOperationResponse("GET", "/channels/{channel_id}", 200, read);
    expect(read.type).toBe(11);
  });

  test("a channel the caller cannot view, or in a guild it is not in, is Missing Access; an unknown one 10003", async () => {
    expect(await call("member", "GET", `/channels/${server.world.channels["mod-chat"]}`)).toMatchObject({
      status: 403,
      json: { code: 50001 },
    });
    expect((await call("helper", "GET", `/channels/${server.world.channels["mod-chat"]}`)).status).toBe(200);
    expect(await call("outsider", "GET", `/channels/${server.world.channels.general}`)).toMatchObject({
      status: 403,
      json: { code: 50001 },
    });
    expect(await call("owner", "GET", "/channels/1")).toMatchObject({ status: 404, json: { code: 10003 } });
    expect(await call("owner", "GET", "/channels/abc")).toMatchObject({ status: 400, json: { code: 50035 } });
  });
});

describe("channel names", () => {
  test("text, announcement and forum names are lowercased and dashed on create and modify; others keep theirs", async () => {
    expect((await make({ name: "Hello World" })).name).toBe("hello-world");
    expect((await make({ name: "Big  News", type: 5 })).name).toBe("big-news");
    expect((await make({ name: "Ask Here", type: 15 })).name).toBe("ask-here");
    const voice = await make({ name: "Quiet Room", type: 2 });
    expect(voice.name).toBe("Quiet Room");
    expect((await ok("owner", "PATCH", `/channels/${voice.id}`, { name: "Loud Room" })).name).toBe("Loud Room");
    const text = await make({ name: "plain" });
    expect((await ok("owner", "PATCH", `/channels/${text.id}`, { name: "Now With Spaces" })).name).toBe(
      "now-with-spaces",
    );
    expect(await call("owner", "PATCH", `/channels/${text.id}`, { name: "   " })).toMatchObject({
      status: 400,
      json: { errors: { name: { _errors: [{ code: "BASE_TYPE_BAD_LENGTH" }] } } },
    });
  });
});

describe("Modify Channel", () => {
  test("MANAGE_CHANNELS in the channel; fields by type; CHANNEL_UPDATE event and audit entry with the changes", async () => {
    const text = await make({ name: "modify-me", parent_id: server.world.channels.Community });
    expect(await call("helper", "PATCH", `/channels/${text.id}`, { topic: "x" })).toMatchObject({
      status: 403,
      json: { code: 50013 },
    });
    const after = await lastEvent();
    const edited = await ok(
      "mod",
      "PATCH",
      `/channels/${text.id}`,
      { topic: "A topic", nsfw: true, rate_limit_per_user: 30, parent_id: null, default_auto_archive_duration: 1440 },
      "tidy",
    );
    expectOperationResponse("PATCH", "/channels/{channel_id}", 200, edited);
    expect(edited).toMatchObject({ topic: "A topic", nsfw: true, rate_limit_per_user: 30, parent_id: null });
    expect(await channel(text.id)).toEqual(edited);
    const fired = await eventsAfter(after);
    expect(fired).toEqual([{ type: "CHANNEL_UPDATE", d: edited }]);
    const [entry] = await audit(11, text.id);
    expect(entry).toMatchObject({ user_id: server.world.users.mod, reason: "tidy" });
    expect(entry.changes).toEqual(
      expect.arrayContaining([
        { key: "topic", old_value: null, new_value: "A topic" },
        { key: "parent_id", old_value: server.world.channels.Community, new_value: null },
      ]),
    );
  });

  test("a field the type does not take, a bad parent, or a bitrate over the tier is a field error", async () => {
    const voice = await make({ name: "v", type: 2 });
    const text = await make({ name: "t" });
    const codes = async (id: string, body: unknown, field: string) => {
      const { status, json } = await call("owner", "PATCH", `/channels/${id}`, body);
      expect(status).toBe(400);
      return ((json!.errors as Record<string, { _errors: Array<{ code: string }> }>)[field]?._errors ?? []).map(
        (e) => e.code,
      );
    };
    expect(await codes(voice.id, { topic: "no" }, "topic")).toEqual(["FIELD_NOT_APPLICABLE"]);
    expect(await codes(text.id, { bitrate: 64000 }, "bitrate")).toEqual(["FIELD_NOT_APPLICABLE"]);
    expect(await codes(text.id, { parent_id: server.world.channels.general }, "parent_id")).toEqual([
      "CHANNEL_PARENT_INVALID",
    ]);
    expect(await codes(voice.id, { bitrate: 384000 }, "bitrate")).toEqual(["NUMBER_TYPE_MAX"]);
    expect(await codes(text.id, { flags: 16 }, "flags")).toEqual(["FIELD_NOT_APPLICABLE"]);
    expect(await codes(voice.id, { type: 5 }, "type")).toEqual(["CHANNEL_TYPE_INVALID"]);
  });

  test("voice and forum fields, null resets, and text ↔ announcement", async () => {
    const voice = await make({ name: "Room", type: 2, bitrate: 96000, user_limit: 5 });
    const edited = await ok("owner", "PATCH", `/channels/${voice.id}`, {
      bitrate: null,
      user_limit: 20,
      rtc_region: "japan",
      video_quality_mode: 2,
    });
    expect(edited).toMatchObject({ bitrate: 64000, user_limit: 20, rtc_region: "japan", video_quality_mode: 2 });
    const forum = await make({ name: "forum", type: 15, available_tags: [{ name: "bug" }] });
    const [bug] = forum.available_tags as Array<{ id: string }>;
    const f = await ok("owner", "PATCH", `/channels/${forum.id}`, {
      flags: 16,
      default_forum_layout: 2,
      default_sort_order: 1,
      default_reaction_emoji: { emoji_name: "👍" },
      available_tags: [{ id: bug.id, name: "bug!" }, { name: "new" }],
      topic: "x".repeat(2000),
    });
    expect(f).toMatchObject({ flags: 16, default_forum_layout: 2, default_sort_order: 1 });
    expect(f.default_reaction_emoji).toEqual({ emoji_id: null, emoji_name: "👍" });
    expect((f.available_tags as Array<{ id: string; name: string }>).map((t) => [t.id === bug.id, t.name])).toEqual([
      [true, "bug!"],
      [false, "new"],
    ]);
    const text = await make({ name: "to-news" });
    expect((await ok("owner", "PATCH", `/channels/${text.id}`, { type: 5 })).type).toBe(5);
    expect((await ok("owner", "PATCH", `/channels/${text.id}`, { type: 0 })).type).toBe(0);
  });

  test("permission_overwrites need MANAGE_ROLES, and only bits the caller holds may change", async () => {
    const text = await make({ name: "guarded" });
    const route = `/channels/${text.id}`;
    const member = server.world.roles.member;
    // The moderator holds SEND_MESSAGES but not MANAGE_WEBHOOKS.
    expect(
      await call("mod", "PATCH", route, {
        permission_overwrites: [{ id: member, type: 0, deny: String(P.ManageWebhooks) }],
      }),
    ).toMatchObject({ status: 403, json: { code: 50013 } });
    const edited = await ok("mod", "PATCH", route, {
      permission_overwrites: [{ id: member, type: 0, deny: String(P.SendMessages) }],
    });
    expect(edited.permission_overwrites).toEqual([{ id: member, type: 0, allow: "0", deny: String(P.SendMessages) }]);
    // The owner adds a bit the moderator lacks; the moderator may still change the bits it holds around it.
    await ok("owner", "PUT", `${route}/permissions/${member}`, {
      type: 0,
      deny: String(P.SendMessages | P.ManageWebhooks),
    });
    await ok("mod", "PUT", `${route}/permissions/${member}`, {
      type: 0,
      allow: String(P.AddReactions),
      deny: String(P.SendMessages | P.ManageWebhooks),
    });
    expect(await call("mod", "DELETE", `${route}/permissions/${member}`)).toMatchObject({
      status: 403,
      json: { code: 50013 },
    });
    expect(await call("helper", "PUT", `${route}/permissions/${member}`, { type: 0 })).toMatchObject({
      status: 403,
      json: { code: 50013 },
    });
    await ok("admin", "DELETE", `${route}/permissions/${member}`);
    expect((await channel(text.id)).permission_overwrites).toEqual([]);
    // An explicit MANAGE_ROLES allow for the moderator in this channel lifts the limit, as on Discord.
    await ok("owner", "PUT", `${route}/permissions/${server.world.roles.moderator}`, {
      type: 0,
      allow: String(P.ManageRoles),
    });
    await ok("mod", "PUT", `${route}/permissions/${member}`, { type: 0, deny: String(P.ManageWebhooks) });
  });

  test("unknown overwrite targets: field errors in a list, 404 on the path", async () => {
    const text = await make({ name: "targets" });
    const route = `/channels/${text.id}`;
    expect(
      await call("owner", "PATCH", route, { permission_overwrites: [{ id: server.world.users.outsider, type: 1 }] }),
    ).toMatchObject({
      status: 400,
      json: { errors: { permission_overwrites: { 0: { id: { _errors: [{ code: "OVERWRITE_TARGET_INVALID" }] } } } } },
    });
    expect(await call("owner", "PUT", `${route}/permissions/123456789012345678`, { type: 0 })).toMatchObject({
      status: 404,
      json: { code: 10011 },
    });
    expect(
      await call("owner", "PUT", `${route}/permissions/${server.world.users.outsider}`, { type: 1 }),
    ).toMatchObject({ status: 404, json: { code: 10007 } });
    expect(await call("owner", "DELETE", `${route}/permissions/${server.world.roles.member}`)).toMatchObject({
      status: 404,
      json: { code: 10009 },
    });
  });
});

describe("Modify Channel for a thread", () => {
  const thread = async (owner: string) => {
    const row = (await sql.get(
      "SELECT c.id FROM channels c JOIN users u ON u.id = c.owner_id WHERE c.type = 11 AND u.username = ?",
      owner,
    )) as { id: bigint };
    return String(row.id);
  };

  test("its owner renames it; locking needs MANAGE_THREADS; others may not; THREAD_UPDATE and its audit entry", async () => {
    const id = await thread("dee_fox");
    const after = await lastEvent();
    const renamed = await ok("dee_fox", "PATCH", `/channels/${id}`, {
      name: "Renamed thread",
      auto_archive_duration: 60,
    });
    expectOperationResponse("PATCH", "/channels/{channel_id}", 200, renamed);
    expect(renamed).toMatchObject({ name: "Renamed thread", thread_metadata: { auto_archive_duration: 60 } });
    expect(await eventsAfter(after)).toEqual([{ type: "THREAD_UPDATE", d: renamed }]);
    expect((await audit(111, id))[0].changes).toEqual(
      expect.arrayContaining([{ key: "auto_archive_duration", old_value: 1440, new_value: 60 }]),
    );
    expect(await call("dee_fox", "PATCH", `/channels/${id}`, { locked: true })).toMatchObject({
      status: 403,
      json: { code: 50013 },
    });
    expect(await call("member", "PATCH", `/channels/${id}`, { name: "mine now" })).toMatchObject({
      status: 403,
      json: { code: 50013 },
    });
    expect(await call("owner", "PATCH", `/channels/${id}`, { invitable: true })).toMatchObject({
      status: 400,
      json: { errors: { invitable: { _errors: [{ code: "FIELD_NOT_APPLICABLE" }] } } },
    });
  });

  test("an archived thread changes only when reopened in the same request", async () => {
    const id = await thread("dee_fox");
    await ok("mod", "PATCH", `/channels/${id}`, { archived: true, locked: true, rate_limit_per_user: 10 });
    expect(await call("mod", "PATCH", `/channels/${id}`, { name: "x" })).toMatchObject({
      status: 400,
      json: { code: 50083 },
    });
    expect((await call("dee_fox", "PATCH", `/channels/${id}`, { archived: false })).status).toBe(403); // locked
    const reopened = await ok("mod", "PATCH", `/channels/${id}`, { archived: false, locked: false, name: "back" });
    expect(reopened).toMatchObject({
      name: "back",
      rate_limit_per_user: 10,
      thread_metadata: { archived: false, locked: false },
    });
  });
});

describe("Edit Channel Permissions and Delete Channel Permission", () => {
  test("204; CHANNEL_UPDATE; CHANNEL_OVERWRITE_CREATE, _UPDATE and _DELETE audit entries", async () => {
    const text = await make({ name: "overwrites" });
    const route = `/channels/${text.id}/permissions/${server.world.users.member}`;
    const after = await lastEvent();
    expect(await call("mod", "PUT", route, { type: 1, allow: String(P.AddReactions) }, "why")).toEqual({
      status: 204,
      json: null,
    });
    expect((await channel(text.id)).permission_overwrites).toEqual([
      { id: server.world.users.member, type: 1, allow: String(P.AddReactions), deny: "0" },
    ]);
    await ok("mod", "PUT", route, { type: 1, allow: String(P.AddReactions), deny: String(P.SendMessages) });
    expect((await call("mod", "DELETE", route)).status).toBe(204);
    const fired = await eventsAfter(after);
    expect(fired.map((e) => e.type)).toEqual(["CHANNEL_UPDATE", "CHANNEL_UPDATE", "CHANNEL_UPDATE"]);
    expect(fired.at(-1)!.d.permission_overwrites).toEqual([]);
    const [created] = await audit(13, text.id);
    expect(created).toMatchObject({ reason: "why", options: { id: server.world.users.member, type: "1" } });
    expect(created.changes).toEqual([
      { key: "id", new_value: server.world.users.member },
      { key: "type", new_value: 1 },
      { key: "allow", new_value: String(P.AddReactions) },
      { key: "deny", new_value: "0" },
    ]);
    const [updated] = await audit(14, text.id);
    expect(updated.changes).toEqual([{ key: "deny", old_value: "0", new_value: String(P.SendMessages) }]);
    expect(await audit(15, text.id)).toHaveLength(1);
    const role = server.world.roles.helper;
    await ok("owner", "PUT", `/channels/${text.id}/permissions/${role}`, { type: 0 });
    expect((await audit(13, text.id))[0].options).toEqual({ id: role, type: "0", role_name: "Helper" });
  });
});

describe("Get Channel Invites", () => {
  test("MANAGE_CHANNELS in the channel; the channel's invites with metadata", async () => {
    const general = server.world.channels.general;
    const invite = await ok<{ code: string }>("member", "POST", `/channels/${general}/invites`, { max_age: 60 });
    expect(await call("member", "GET", `/channels/${general}/invites`)).toMatchObject({
      status: 403,
      json: { code: 50013 },
    });
    const listed = await ok<Array<{ code: string; uses: number; channel: { id: string } }>>(
      "mod",
      "GET",
      `/channels/${general}/invites`,
    );
    expectOperationResponse("GET", "/channels/{channel_id}/invites", 200, listed);
    expect(listed.map((i) => i.code)).toContain(invite.code);
    expect(listed.every((i) => i.channel.id === general && typeof i.uses === "number")).toBe(true);
  });
});

describe("Delete Channel", () => {
  test("answers the channel; CHANNEL_DELETE event and audit entry; its invites go with it", async () => {
    const text = await make({ name: "doomed", topic: "bye" });
    const invite = await ok<{ code: string }>("owner", "POST", `/channels/${text.id}/invites`, {});
    expect(await call("helper", "DELETE", `/channels/${text.id}`)).toMatchObject({ status: 403 });
    const after = await lastEvent();
    const deleted = await ok("mod", "DELETE", `/channels/${text.id}`, undefined, "cleanup");
    expectOperationResponse("DELETE", "/channels/{channel_id}", 200, deleted);
    expect(deleted).toMatchObject({ id: text.id, name: "doomed", topic: "bye" });
    expect((await call("owner", "GET", `/channels/${text.id}`)).status).toBe(404);
    expect((await call("owner", "GET", `/invites/${invite.code}`)).status).toBe(404);
    expect(await eventsAfter(after)).toEqual([{ type: "CHANNEL_DELETE", d: deleted }]);
    const [entry] = await audit(12, text.id);
    expect(entry).toMatchObject({ user_id: server.world.users.mod, reason: "cleanup" });
    expect(entry.changes).toEqual(expect.arrayContaining([{ key: "name", old_value: "doomed" }]));
  });

  test("a category's children stay, without a parent, each with CHANNEL_UPDATE", async () => {
    const category = await make({ name: "Box", type: 4 });
    const a = await make({ name: "a", parent_id: category.id });
    const b = await make({ name: "b", type: 2, parent_id: category.id });
    const after = await lastEvent();
    await ok("owner", "DELETE", `/channels/${category.id}`);
    expect((await channel(a.id)).parent_id).toBeNull();
    expect((await channel(b.id)).parent_id).toBeNull();
    const fired = await eventsAfter(after);
    expect(fired.map((e) => [e.type, e.d.id])).toEqual([
      ["CHANNEL_UPDATE", a.id],
      ["CHANNEL_UPDATE", b.id],
      ["CHANNEL_DELETE", category.id],
    ]);
  });

  test("guild settings naming the channel are cleared (GUILD_UPDATE); Community's rules channel cannot go", async () => {
    const afk = server.world.channels.AFK;
    const after = await lastEvent();
    await ok("owner", "DELETE", `/channels/${afk}`);
    const guild = await ok<Record<string, unknown>>("owner", "GET", `/guilds/${hq}`);
    expect(guild.afk_channel_id).toBeNull();
    expect((await eventsAfter(after)).map((e) => e.type)).toEqual(["GUILD_UPDATE", "CHANNEL_DELETE"]);
    const welcome = server.world.channels.welcome; // the system channel, and on the welcome screen
    await ok("owner", "DELETE", `/channels/${welcome}`);
    expect((await ok<Record<string, unknown>>("owner", "GET", `/guilds/${hq}`)).system_channel_id).toBeNull();
    expect(await call("owner", "DELETE", `/channels/${server.world.channels.rules}`)).toMatchObject({
      status: 400,
      json: { code: 50074 },
    });
  });
});

describe("application, user and voice-region routes bot libraries call", () => {
  test("GET /oauth2/applications/@me answers the bot's application; GET /users/{id} any user; GET /voice/regions", async () => {
    const app = await ok<Record<string, unknown>>("bot", "GET", "/oauth2/applications/@me");
    expectOperationResponse("GET", "/oauth2/applications/@me", 200, app);
    expect(app.id).toBe(server.world.applicationId);
    const user = await ok<Record<string, unknown>>("member", "GET", `/users/${server.world.users.mod}`);
    expectOperationResponse("GET", "/users/{user_id}", 200, user);
    expect(user).toMatchObject({ id: server.world.users.mod, username: "mod" });
    expect(user).not.toHaveProperty("mfa_enabled");
    expect(await call("bot", "GET", "/users/1")).toMatchObject({ status: 404, json: { code: 10013 } });
    const regions = await ok<Array<{ id: string }>>("bot", "GET", "/voice/regions");
    expectOperationResponse("GET", "/voice/regions", 200, regions);
    expect(regions.some((r) => r.id === "us-east")).toBe(true);
    expect(regions.some((r) => r.id.startsWith("vip-"))).toBe(false);
  });

  test("a vanity code resolves through GET /invites/{code}, without inviter or expiry", async () => {
    const invite = await ok<Record<string, unknown>>(
      null as unknown as string,
      "GET",
      "/invites/guildhall?with_counts=true",
    );
    expectOperationResponse("GET", "/invites/{code}", 200, invite);
    expect(invite).toMatchObject({ code: "guildhall", type: 0, expires_at: null, guild_id: hq });
    expect(invite).not.toHaveProperty("inviter");
    expect((invite.channel as { id: string }).id).toBe(server.world.channels.rules);
    expect(invite.approximate_member_count).toBeGreaterThan(0);
    expect((await call("owner", "GET", "/invites/not-a-vanity")).status).toBe(404);
  });
});
