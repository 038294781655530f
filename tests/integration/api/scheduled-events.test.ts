// Guild Scheduled Events over HTTP: Discord's shapes (checked against the OpenAPI description), Create Events and
// Manage Events as Discord applies them (one's own event, another's, the channel's permissions), the limits and field
// errors, the status changes (and 180000 once finished), recurrence rules' restrictions, cover images under /cdn,
// interested users (Guildhall's PUT/DELETE …/users/@me, paged GET …/users), the audit entries and dispatches, the
// 100 uncompleted events cap (30038), and the sweep that completes ended events.
import { describe, expect, test } from "vitest";
import { PNG } from "pngjs";
import { AuditLogEvent, PermissionFlagsBits as P, Routes, type APIGuildScheduledEvent } from "discord-api-types/v10";
import { auditEntries, eventsSince, fail, fieldCodes, lastEventId } from "./read-back";
import { testServerForFile } from "../harness";
import { sql } from "@/lib/guild-api/store/db";
import { completeEndedScheduledEvents } from "@/lib/guild-api/services/scheduled-events";
import { expectOperationResponse } from "../openapi";

const server = testServerForFile({ rateLimits: { enabled: false } });

type Event = APIGuildScheduledEvent & { user_count?: number };
const guild = () => server.world.guildId;
const HOUR = 3_600_000;
const later = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();

const list = (as = "mod", withCount = false) =>
  server.rest(as).get(Routes.guildScheduledEvents(guild()), {
    query: new URLSearchParams(withCount ? { with_user_count: "true" } : {}),
  }) as Promise<Event[]>;
const get = (id: string, as = "mod", withCount = false) =>
  server.rest(as).get(Routes.guildScheduledEvent(guild(), id), {
    query: new URLSearchParams(withCount ? { with_user_count: "true" } : {}),
  }) as Promise<Event>;
const create = (body: Record<string, unknown>, as = "mod", reason?: string) =>
  server.rest(as).post(Routes.guildScheduledEvents(guild()), { body, reason }) as Promise<Event>;
const modify = (id: string, body: Record<string, unknown>, as = "mod") =>
  server.rest(as).patch(Routes.guildScheduledEvent(guild(), id), { body }) as Promise<Event>;
const remove = (id: string, as = "mod") => server.rest(as).delete(Routes.guildScheduledEvent(guild(), id));
const interested = (id: string, as: string) =>
  server.rest(as).put(`${Routes.guildScheduledEvent(guild(), id)}/users/@me` as `/${string}`);
const uninterested = (id: string, as: string) =>
  server.rest(as).delete(`${Routes.guildScheduledEvent(guild(), id)}/users/@me` as `/${string}`);
const users = (id: string, query: Record<string, string> = {}, as = "mod") =>
  server.rest(as).get(Routes.guildScheduledEventUsers(guild(), id), {
    query: new URLSearchParams(query),
  }) as Promise<Array<{ guild_scheduled_event_id: string; user: { id: string }; member?: { roles: string[] } }>>;

const channelId = async (name: string) =>
  String(
    (
      (await sql.get("SELECT id FROM channels WHERE guild_id = ? AND name = ?", BigInt(guild()), name)) as {
        id: bigint;
      }
    ).id,
  );
const stage = () => channelId("Town Hall");
const voice = () => channelId("Gaming");

const external = (extra: Record<string, unknown> = {}) => ({
  name: "Meetup",
  privacy_level: 2,
  entity_type: 3,
  scheduled_start_time: later(24),
  scheduled_end_time: later(26),
  entity_metadata: { location: "The park" },
  ...extra,
});

/** The seed's events stay; the ones a test made go. */
async function clearCreated() {
  await sql.run(
    "DELETE FROM guild_scheduled_event_users WHERE event_id IN (SELECT id FROM guild_scheduled_events WHERE guild_id = ? AND creator_id <> ?)",
    BigInt(guild()),
    BigInt(server.world.users.admin),
  );
  await sql.run(
    "DELETE FROM guild_scheduled_events WHERE guild_id = ? AND creator_id <> ?",
    BigInt(guild()),
    BigInt(server.world.users.admin),
  );
}

/** Sets a role's permissions through the API (the admin's), so the guild's read cache hears of it. */
const setRolePermissions = (role: string, permissions: bigint) =>
  server.rest("admin").patch(Routes.guildRole(guild(), role), { body: { permissions: String(permissions) } });

describe("Guild scheduled events: create, read, modify, delete", () => {
  test("a stage event: Discord's shapes, the creator, the audit entries and dispatches", async () => {
    await clearCreated();
    const before = await lastEventId();
    const body = {
      name: "Ask me anything",
      description: "Bring questions",
      privacy_level: 2,
      entity_type: 1,
      channel_id: await stage(),
      scheduled_start_time: later(48),
    };
    const created = await create(body, "mod", "an AMA");
    expectOperationResponse("POST", "/guilds/{guild_id}/scheduled-events", 200, created);
    expect(created).toMatchObject({
      guild_id: guild(),
      channel_id: body.channel_id,
      creator_id: server.world.users.mod,
      creator: { id: server.world.users.mod },
      name: "Ask me anything",
      description: "Bring questions",
      status: 1,
      entity_type: 1,
      entity_metadata: null,
      image: null,
      recurrence_rule: null,
      scheduled_end_time: null,
      privacy_level: 2,
    });
    expect(created.scheduled_start_time).toBe(new Date(body.scheduled_start_time).toISOString());
    expect(created).not.toHaveProperty("user_count");

    const listed = await list("mod", true);
    expectOperationResponse("GET", "/guilds/{guild_id}/scheduled-events", 200, listed);
    expect(listed.map((event) => event.name)).toEqual([
      "Launch Party",
      "Game Night",
      "Ask me anything",
      "Monthly Town Hall",
      "Community Meetup",
    ]);
    expect(listed.find((event) => event.name === "Monthly Town Hall")?.user_count).toBe(23);
    expect((await list("mod")).every((event) => event.user_count === undefined)).toBe(true);
    const got = await get(created.id, "member", true);
    expectOperationResponse("GET", "/guilds/{guild_id}/scheduled-events/{guild_scheduled_event_id}", 200, got);
    expect(got).toEqual({ ...created, user_count: 0 });

    const modified = await modify(created.id, { name: "AMA", description: null });
    expectOperationResponse("PATCH", "/guilds/{guild_id}/scheduled-events/{guild_scheduled_event_id}", 200, modified);
    expect(modified).toMatchObject({ name: "AMA", description: null });
    await remove(created.id);
    expect(await fail(get(created.id))).toMatchObject({ status: 404, code: 10070 });
    expect(await fail(remove(created.id))).toMatchObject({ status: 404, code: 10070 });

    const events = (await eventsSince(before)).filter((event) => event.type.startsWith("GUILD_SCHEDULED_EVENT"));
    expect(events.map((event) => event.type)).toEqual([
      "GUILD_SCHEDULED_EVENT_CREATE",
      "GUILD_SCHEDULED_EVENT_UPDATE",
      "GUILD_SCHEDULED_EVENT_DELETE",
    ]);
    expect(events[1].d).toMatchObject({ id: created.id, name: "AMA" });
    const [createEntry] = await auditEntries(guild(), AuditLogEvent.GuildScheduledEventCreate, created.id);
    expect(createEntry).toMatchObject({ userId: server.world.users.mod, reason: "an AMA" });
    expect(createEntry.changes.map((change) => change.key)).toEqual([
      "name",
      "description",
      "channel_id",
      "privacy_level",
      "status",
      "entity_type",
      "scheduled_start_time",
    ]);
    const [updateEntry] = await auditEntries(guild(), AuditLogEvent.GuildScheduledEventUpdate, created.id);
    expect(updateEntry.changes).toEqual([
      { key: "name", old_value: "Ask me anything", new_value: "AMA" },
      { key: "description", old_value: "Bring questions", new_value: null },
    ]);
    expect(await auditEntries(guild(), AuditLogEvent.GuildScheduledEventDelete, created.id)).toHaveLength(1);
    expect(await fail(get("1234"))).toMatchObject({ status: 404, code: 10070 });
  });

  test("voice and external events; their required fields and Discord's limits as 50035", async () => {
    await clearCreated();
    const inVoice = await create({
      name: "Jam",
      privacy_level: 2,
      entity_type: 2,
      channel_id: await voice(),
      scheduled_start_time: later(5),
    });
    expect(inVoice).toMatchObject({ entity_type: 2, channel_id: await voice() });
    const outside = await create(external());
    expectOperationResponse("POST", "/guilds/{guild_id}/scheduled-events", 200, outside);
    expect(outside).toMatchObject({ entity_type: 3, channel_id: null, entity_metadata: { location: "The park" } });

    const refused = async (body: Record<string, unknown>, ...path: string[]) =>
      fieldCodes(await fail(create(body)), ...path);
    expect(await refused(external({ name: "" }), "name")).toEqual(["BASE_TYPE_BAD_LENGTH"]);
    expect(await refused(external({ name: "x".repeat(101) }), "name")).toEqual(["BASE_TYPE_BAD_LENGTH"]);
    expect(await refused(external({ description: "x".repeat(1001) }), "description")).toEqual(["BASE_TYPE_BAD_LENGTH"]);
    expect(
      await refused(external({ entity_metadata: { location: "x".repeat(101) } }), "entity_metadata", "location"),
    ).toEqual(["BASE_TYPE_BAD_LENGTH"]);
    expect(await refused(external({ entity_metadata: {} }), "entity_metadata", "location")).toEqual([
      "BASE_TYPE_REQUIRED",
    ]);
    expect(await refused(external({ scheduled_end_time: null }), "scheduled_end_time")).toEqual(["BASE_TYPE_REQUIRED"]);
    expect(await refused(external({ channel_id: await voice() }), "channel_id")).toEqual(["FIELD_NOT_APPLICABLE"]);
    expect(await refused(external({ privacy_level: 1 }), "privacy_level")).toEqual(["BASE_TYPE_CHOICES"]);
    expect(await refused(external({ entity_type: 4 }), "entity_type")).toEqual(["BASE_TYPE_CHOICES"]);
    expect(await refused(external({ scheduled_start_time: "tomorrow" }), "scheduled_start_time")).toEqual([
      "DATE_TIME_TYPE_PARSE",
    ]);
    expect(await refused(external({ scheduled_start_time: later(-1) }), "scheduled_start_time")).toEqual([
      "GUILD_SCHEDULED_EVENT_SCHEDULED_START_TIME_IN_PAST",
    ]);
    expect(await refused(external({ scheduled_end_time: later(12) }), "scheduled_end_time")).toEqual([
      "GUILD_SCHEDULED_EVENT_END_BEFORE_START",
    ]);
    // A stage event needs a stage channel, a voice event a voice channel.
    const inChannel = (entity_type: number, channel_id: string | undefined) => ({
      name: "Talk",
      privacy_level: 2,
      entity_type,
      channel_id,
      scheduled_start_time: later(5),
    });
    expect(await refused(inChannel(1, await voice()), "channel_id")).toEqual(["CHANNEL_INVALID"]);
    expect(await refused(inChannel(2, await stage()), "channel_id")).toEqual(["CHANNEL_INVALID"]);
    expect(await refused(inChannel(2, undefined), "channel_id")).toEqual(["BASE_TYPE_REQUIRED"]);
    expect(await refused(inChannel(2, "123"), "channel_id")).toEqual(["CHANNEL_INVALID"]);

    // Turning the external event into a voice one drops its location; back to external needs one again.
    const moved = await modify(outside.id, { entity_type: 2, channel_id: await voice(), entity_metadata: null });
    expect(moved).toMatchObject({ entity_type: 2, channel_id: await voice(), entity_metadata: null });
    expect(fieldCodes(await fail(modify(outside.id, { entity_type: 3 })), "entity_metadata", "location")).toEqual([
      "BASE_TYPE_REQUIRED",
    ]);
    const back = await modify(outside.id, { entity_type: 3, channel_id: null, entity_metadata: { location: "Pier" } });
    expect(back).toMatchObject({ entity_type: 3, channel_id: null, entity_metadata: { location: "Pier" } });
  });

  test("status: scheduled → active → completed, scheduled → canceled; a finished event is 180000", async () => {
    await clearCreated();
    const event = await create(external());
    expect(fieldCodes(await fail(modify(event.id, { status: 3 })), "status")).toEqual([
      "GUILD_SCHEDULED_EVENT_INVALID_STATUS_TRANSITION",
    ]);
    expect(await modify(event.id, { status: 2 })).toMatchObject({ status: 2 });
    expect(fieldCodes(await fail(modify(event.id, { status: 4 })), "status")).toEqual([
      "GUILD_SCHEDULED_EVENT_INVALID_STATUS_TRANSITION",
    ]);
    expect(
      fieldCodes(await fail(modify(event.id, { scheduled_start_time: later(30) })), "scheduled_start_time"),
    ).toEqual(["FIELD_NOT_APPLICABLE"]);
    expect(await modify(event.id, { status: 3 })).toMatchObject({ status: 3 });
    expect(await fail(modify(event.id, { name: "Again" }))).toMatchObject({ status: 400, code: 180000 });
    expect(await fail(interested(event.id, "member"))).toMatchObject({ status: 400, code: 180000 });

    const canceled = await create(external());
    expect(await modify(canceled.id, { status: 4 })).toMatchObject({ status: 4 });
    expect(await fail(modify(canceled.id, { status: 2 }))).toMatchObject({ status: 400, code: 180000 });
    const [entry] = await auditEntries(guild(), AuditLogEvent.GuildScheduledEventUpdate, canceled.id);
    expect(entry.changes).toEqual([{ key: "status", old_value: 1, new_value: 4 }]);

    // A stage event starts only while its channel is a stage (Discord opens a stage instance): 180002 otherwise.
    const talk = await create({
      name: "Talk",
      privacy_level: 2,
      entity_type: 1,
      channel_id: await stage(),
      scheduled_start_time: later(5),
    });
    await sql.run("UPDATE channels SET type = 2 WHERE id = ?", BigInt(await stage()));
    try {
      expect(await fail(modify(talk.id, { status: 2 }))).toMatchObject({ status: 400, code: 180002 });
    } finally {
      await sql.run("UPDATE channels SET type = 13 WHERE id = ?", BigInt(await stage()));
    }
    expect(await modify(talk.id, { status: 2 })).toMatchObject({ status: 2 });
  });

  test("a voice event whose channel was deleted can still be renamed and cancelled, not moved to a missing channel", async () => {
    await clearCreated();
    const room = (await server.rest("owner").post(Routes.guildChannels(guild()), {
      body: { name: "Short-lived", type: 2 },
    })) as { id: string };
    const event = await create({
      name: "In a room that goes",
      entity_type: 2,
      channel_id: room.id,
      scheduled_start_time: later(5),
      privacy_level: 2,
    });
    await server.rest("owner").delete(Routes.channel(room.id));
    expect(await modify(event.id, { name: "Room gone" })).toMatchObject({ name: "Room gone", channel_id: room.id });
    expect(await modify(event.id, { status: 4 })).toMatchObject({ status: 4 });
    const other = await create(external());
    expect(fieldCodes(await fail(modify(other.id, { entity_type: 2, channel_id: room.id })), "channel_id")).toEqual([
      "CHANNEL_INVALID",
    ]);
  });

  test("recurrence rules with Discord's restrictions", async () => {
    await clearCreated();
    const start = later(30);
    const rule = (extra: Record<string, unknown>) =>
      external({ scheduled_start_time: start, scheduled_end_time: later(31), recurrence_rule: { start, ...extra } });
    const weekly = await create(rule({ frequency: 2, interval: 2, by_weekday: [4] }));
    expectOperationResponse("POST", "/guilds/{guild_id}/scheduled-events", 200, weekly);
    expect(weekly.recurrence_rule).toEqual({
      start: new Date(start).toISOString(),
      end: null,
      frequency: 2,
      interval: 2,
      by_weekday: [4],
      by_n_weekday: null,
      by_month: null,
      by_month_day: null,
      by_year_day: null,
      count: null,
    });
    await create(rule({ frequency: 3, by_weekday: [0, 1, 2, 3, 4] }));
    await create(rule({ frequency: 1, by_n_weekday: [{ n: 1, day: 0 }] }));
    await create(rule({ frequency: 0, by_month: [7], by_month_day: [14] }));

    const refused = async (extra: Record<string, unknown>, field: string) =>
      fieldCodes(await fail(create(rule(extra))), "recurrence_rule", field);
    const INVALID = ["GUILD_SCHEDULED_EVENT_RECURRENCE_RULE_INVALID"];
    expect(await refused({ frequency: 2, by_weekday: [0, 2] }, "by_weekday")).toEqual(INVALID);
    expect(await refused({ frequency: 3, by_weekday: [0, 2] }, "by_weekday")).toEqual(INVALID);
    expect(await refused({ frequency: 3, interval: 2 }, "interval")).toEqual(INVALID);
    expect(await refused({ frequency: 1, by_n_weekday: [] }, "by_n_weekday")).toEqual(INVALID);
    expect(await refused({ frequency: 0, by_month: [1, 2], by_month_day: [1] }, "by_month")).toEqual(INVALID);
    expect(await refused({ frequency: 2, by_weekday: [1], count: 3 }, "count")).toEqual(INVALID);
    expect(await refused({ frequency: 2, by_weekday: [1], by_year_day: [3] }, "by_year_day")).toEqual(INVALID);
    expect(await refused({ frequency: 5 }, "frequency")).toEqual(["BASE_TYPE_CHOICES"]);
    // A modify may drop the rule.
    expect(await modify(weekly.id, { recurrence_rule: null })).toMatchObject({ recurrence_rule: null });
  });

  test("a cover image: its hash, served under /cdn/guild-events with its content type; bad data is 50035", async () => {
    await clearCreated();
    expect(fieldCodes(await fail(create(external({ image: "data:image/png;base64,AAAA" }))), "image")).toEqual([
      "IMAGE_INVALID",
    ]);
    const png = PNG.sync.write(new PNG({ width: 80, height: 32 }));
    const event = await create(external({ image: `data:image/png;base64,${png.toString("base64")}` }));
    expect(event.image).toMatch(/^[0-9a-f]{32}$/);
    const served = await fetch(`${server.baseUrl}/cdn/guild-events/${event.id}/${event.image}.png`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
    // A new cover replaces the old one: an event keeps one image, and a cleared or deleted event's goes.
    const other = PNG.sync.write(new PNG({ width: 40, height: 16 }));
    const replaced = await modify(event.id, { image: `data:image/png;base64,${other.toString("base64")}` });
    expect((await fetch(`${server.baseUrl}/cdn/guild-events/${event.id}/${event.image}.png`)).status).toBe(404);
    const stored = async () =>
      Number(
        (
          (await sql.get(
            "SELECT COUNT(*) AS n FROM images WHERE kind = 'guild-events' AND owner_id = ?",
            BigInt(event.id),
          )) as {
            n: bigint;
          }
        ).n,
      );
    expect(replaced.image).not.toBe(event.image);
    expect(await stored()).toBe(1);
    expect(await modify(event.id, { image: null })).toMatchObject({ image: null });
    expect(await stored()).toBe(0);
  });
});

describe("Guild scheduled events: permissions", () => {
  test("Create Events for one's own, Manage Events for anyone's; channel permissions; outsiders 50001", async () => {
    await clearCreated();
    const mods = await create(external());
    for (const who of ["member", "helper"]) {
      expect(await fail(create(external(), who))).toMatchObject({ status: 403, code: 50013 });
      expect(await fail(modify(mods.id, { name: "Mine" }, who))).toMatchObject({ status: 403, code: 50013 });
      expect(await fail(remove(mods.id, who))).toMatchObject({ status: 403, code: 50013 });
    }
    expect(await fail(list("outsider"))).toMatchObject({ status: 403, code: 50001 });
    // Members read events.
    expect((await list("member")).some((event) => event.id === mods.id)).toBe(true);

    const helperRole = server.world.roles.helper;
    await setRolePermissions(helperRole, P.KickMembers | P.ViewAuditLog | P.CreateEvents);
    try {
      const helpers = await create(external({ name: "Helpers' hour" }), "helper");
      expect(await modify(helpers.id, { name: "Helpers' hour, again" }, "helper")).toMatchObject({
        name: "Helpers' hour, again",
      });
      // Create Events covers one's own events only.
      expect(await fail(modify(mods.id, { name: "Mine" }, "helper"))).toMatchObject({ status: 403, code: 50013 });
      expect(await fail(remove(mods.id, "helper"))).toMatchObject({ status: 403, code: 50013 });
      // Manage Events covers everyone's.
      expect(await modify(helpers.id, { status: 4 }, "mod")).toMatchObject({ status: 4 });
      await remove(helpers.id, "helper");
      // A stage event also needs Manage Channels, Mute Members and Move Members in the channel.
      const onStage = {
        name: "Stage",
        privacy_level: 2,
        entity_type: 1,
        channel_id: await stage(),
        scheduled_start_time: later(5),
      };
      expect(await fail(create(onStage, "helper"))).toMatchObject({ status: 403, code: 50013 });
      // A voice event needs View Channel and Connect, which every member holds there.
      const inVoice = { ...onStage, entity_type: 2, channel_id: await voice() };
      expect(await create(inVoice, "helper")).toMatchObject({ creator_id: server.world.users.helper });
    } finally {
      await setRolePermissions(helperRole, P.KickMembers | P.ViewAuditLog);
    }
  });
});

describe("Guild scheduled events: interested users", () => {
  test("PUT/DELETE …/users/@me for a Bearer token; USER_ADD/REMOVE; the users page with limit, before, after", async () => {
    await clearCreated();
    const event = await create(external());
    const before = await lastEventId();
    await interested(event.id, "member");
    await interested(event.id, "member"); // idempotent: no second dispatch
    await interested(event.id, "helper");
    await interested(event.id, "mod");
    expect((await get(event.id, "mod", true)).user_count).toBe(3);
    // Bots cannot be interested (Discord's routes are a user's): Discord's 20001.
    expect(await fail(interested(event.id, "bot"))).toMatchObject({ status: 403, code: 20001 });

    const page = await users(event.id);
    expectOperationResponse("GET", "/guilds/{guild_id}/scheduled-events/{guild_scheduled_event_id}/users", 200, page);
    const ids = [server.world.users.member, server.world.users.helper, server.world.users.mod].sort((a, b) =>
      BigInt(a) < BigInt(b) ? -1 : 1,
    );
    expect(page.map((entry) => entry.user.id)).toEqual(ids);
    expect(page[0]).not.toHaveProperty("member");
    expect((await users(event.id, { limit: "1" })).map((entry) => entry.user.id)).toEqual([ids[0]]);
    expect((await users(event.id, { after: ids[0] })).map((entry) => entry.user.id)).toEqual(ids.slice(1));
    expect((await users(event.id, { before: ids[2], limit: "1" })).map((entry) => entry.user.id)).toEqual([ids[1]]);
    const withMember = await users(event.id, { with_member: "true" });
    expectOperationResponse(
      "GET",
      "/guilds/{guild_id}/scheduled-events/{guild_scheduled_event_id}/users",
      200,
      withMember,
    );
    expect(withMember.every((entry) => Array.isArray(entry.member?.roles))).toBe(true);
    expect(fieldCodes(await fail(users(event.id, { limit: "101" })), "limit")).toEqual(["NUMBER_TYPE_MAX"]);

    await uninterested(event.id, "member");
    await uninterested(event.id, "member");
    expect((await get(event.id, "mod", true)).user_count).toBe(2);
    const dispatched = (await eventsSince(before)).filter((e) => e.type.startsWith("GUILD_SCHEDULED_EVENT_USER"));
    expect(dispatched.map((e) => e.type)).toEqual([
      "GUILD_SCHEDULED_EVENT_USER_ADD",
      "GUILD_SCHEDULED_EVENT_USER_ADD",
      "GUILD_SCHEDULED_EVENT_USER_ADD",
      "GUILD_SCHEDULED_EVENT_USER_REMOVE",
    ]);
    expect(dispatched[0].d).toEqual({
      guild_scheduled_event_id: event.id,
      user_id: server.world.users.member,
      guild_id: guild(),
    });
    // Deleting the event takes its interested users with it.
    await remove(event.id);
    expect(
      await sql.value("SELECT COUNT(*) FROM guild_scheduled_event_users WHERE event_id = ?", BigInt(event.id)),
    ).toBe(0n);
  });
});

describe("Guild scheduled events: limits and the sweep", () => {
  test("100 uncompleted events per guild: the 101st is 30038; completed ones do not count", async () => {
    await clearCreated();
    const uncompleted = Number(
      await sql.value(
        "SELECT COUNT(*) FROM guild_scheduled_events WHERE guild_id = ? AND status IN (1, 2)",
        BigInt(guild()),
      ),
    );
    const start = BigInt(Date.now() + 48 * HOUR);
    for (let i = uncompleted; i < 100; i++)
      await sql.run(
        `INSERT INTO guild_scheduled_events (id, guild_id, creator_id, name, scheduled_start_time, scheduled_end_time, privacy_level, status, entity_type, entity_metadata, user_count)
         VALUES (?, ?, ?, ?, ?, ?, 2, 1, 3, '{"location":"x"}', 0)`,
        BigInt(9_000_000_000_000 + i),
        BigInt(guild()),
        BigInt(server.world.users.mod),
        `Filler ${i}`,
        start,
        start + 3_600_000n,
      );
    try {
      expect(await fail(create(external()))).toMatchObject({ status: 400, code: 30038 });
      await sql.run("UPDATE guild_scheduled_events SET status = 3 WHERE id = ?", BigInt(9_000_000_000_099));
      expect(await create(external())).toMatchObject({ status: 1 });
    } finally {
      await clearCreated();
    }
  });

  test("an active event whose end time passed is completed by the sweep, with its dispatch and audit entry", async () => {
    await clearCreated();
    const event = await create(external());
    await modify(event.id, { status: 2 });
    const future = await create(external());
    await modify(future.id, { status: 2 });
    // The end time passes.
    await sql.run(
      "UPDATE guild_scheduled_events SET scheduled_start_time = ?, scheduled_end_time = ? WHERE id = ?",
      Date.now() - 2 * HOUR,
      Date.now() - HOUR,
      BigInt(event.id),
    );
    const before = await lastEventId();
    expect(await completeEndedScheduledEvents()).toBe(1);
    expect(await completeEndedScheduledEvents()).toBe(0);
    expect((await get(event.id)).status).toBe(3);
    expect((await get(future.id)).status).toBe(2);
    const [update] = (await eventsSince(before)).filter((e) => e.type === "GUILD_SCHEDULED_EVENT_UPDATE");
    expect(update.d).toMatchObject({ id: event.id, status: 3 });
    const entries = await auditEntries(guild(), AuditLogEvent.GuildScheduledEventUpdate, event.id);
    expect(entries.at(-1)?.changes).toEqual([{ key: "status", old_value: 2, new_value: 3 }]);
    // Nobody made it: the system's entry has no user.
    const system = await sql.value(
      "SELECT COUNT(*) FROM audit_log_entries WHERE target_id = ? AND action_type = ? AND user_id IS NULL",
      event.id,
      AuditLogEvent.GuildScheduledEventUpdate,
    );
    expect(Number(system)).toBe(1);
  });
});
