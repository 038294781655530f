// Get Guild Channels, Create Guild Channel (type-specific fields, limits, overwrites, events, audit log),
// Modify Guild Channel Positions (all or nothing) and List Active Guild Threads, over real HTTP with @discordjs/rest.
import { beforeAll, describe, expect, test } from "vitest";
import { PermissionFlagsBits as P, Routes } from "discord-api-types/v10";
import { fail, fieldCodes, type WireChannel as Channel } from "./read-back";
import { testServerForFile } from "../harness";
import { sql } from "@/lib/guild-api/store/db";
import { expectOperationResponse, expectSchema } from "../openapi";

// Dozens of channel reorders in a row on purpose, in a strict bucket: see TestServerOptions.rateLimits.
const server = testServerForFile({ rateLimits: { enabled: false } });
let hq: string;
let side: string;
beforeAll(() => {
  hq = server.world.guildId;
  side = server.world.sideGuildId;
});

interface StoredEvent {
  id: string;
  type: string;
  d: Record<string, unknown>;
}

const create = (as: string, body: Record<string, unknown>, guildId = hq, reason?: string) =>
  server.rest(as).post(Routes.guildChannels(guildId), { body, reason }) as Promise<Channel>;
const positions = (as: string, body: unknown[], guildId = hq, reason?: string) =>
  server.rest(as).patch(Routes.guildChannels(guildId), { body, reason });
const channels = (guildId = hq, as = "owner") =>
  server.rest(as).get(Routes.guildChannels(guildId)) as Promise<Channel[]>;
const events = async (after = "0") =>
  (
    (await server
      .rest("owner")
      .get(`/guilds/${hq}/events`, { query: new URLSearchParams({ after, limit: "1000" }) })) as StoredEvent[]
  ).filter((event) => event.type !== "GUILD_AUDIT_LOG_ENTRY_CREATE");
const lastEventId = async () => (await events()).at(-1)?.id ?? "0";
/** Create, check against Discord's schema, and answer the channel. */
async function created(as: string, body: Record<string, unknown>, guildId = hq): Promise<Channel> {
  const channel = await create(as, body, guildId);
  expectOperationResponse("POST", "/guilds/{guild_id}/channels", 201, channel);
  return channel;
}

describe("Get Guild Channels", () => {
  test("every channel type but no threads, by position then id, with the fields of each type", async () => {
    const list = await channels(hq, "member");
    expectOperationResponse("GET", "/guilds/{guild_id}/channels", 200, list);
    expect(new Set(list.map((c) => c.type))).toEqual(new Set([0, 2, 4, 5, 13, 15, 16]));
    expect(list.some((c) => [10, 11, 12].includes(c.type))).toBe(false);
    const order = list.map((c) => [c.position, BigInt(c.id)] as const);
    expect([...order].sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))).toEqual(order);
    const byName = new Map(list.map((c) => [c.name, c]));
    expect(byName.get("Lounge")).toMatchObject({
      bitrate: 64000,
      user_limit: 0,
      rtc_region: null,
      video_quality_mode: 1,
    });
    expect(byName.get("Lounge")).not.toHaveProperty("topic");
    expect(byName.get("ideas")).toMatchObject({
      default_forum_layout: 1,
      default_sort_order: 0,
      default_reaction_emoji: { emoji_id: null, emoji_name: "👍" },
    });
    expect(byName.get("ideas")?.available_tags).toHaveLength(2);
    expect(byName.get("general")).toMatchObject({ topic: "Anything goes (within the rules)", rate_limit_per_user: 0 });
    expect(byName.get("general")).not.toHaveProperty("bitrate");
    expect(byName.get("Staff")?.permission_overwrites).toContainEqual({
      id: hq,
      type: 0,
      allow: "0",
      deny: String(P.ViewChannel),
    });
  });

  test("outsider 403 50001, unknown guild 404 10004", async () => {
    expect(await fail(channels(hq, "outsider"))).toMatchObject({ status: 403, code: 50001 });
    expect(await fail(channels("1"))).toMatchObject({ status: 404, code: 10004 });
  });
});

describe("Create Guild Channel: permissions", () => {
  test("needs Manage Channels: helper and member 403 50013 (before validation); outsider 50001; unknown guild 10004", async () => {
    for (const as of ["helper", "member"]) {
      expect(await fail(create(as, { name: "nope" }))).toMatchObject({ status: 403, code: 50013 });
      expect(await fail(create(as, { name: "" }))).toMatchObject({ status: 403, code: 50013 });
    }
    expect(await fail(create("outsider", { name: "nope" }))).toMatchObject({ status: 403, code: 50001 });
    expect(await fail(create("owner", { name: "nope" }, "1"))).toMatchObject({ status: 404, code: 10004 });
    expect(await fail(create("mod", { name: "nope" }, side))).toMatchObject({ status: 403, code: 50013 });
    expect((await channels()).some((c) => c.name === "nope")).toBe(false);
  });

  test("mod, owner and the bot may create; 201 with the channel, last among its siblings", async () => {
    const byMod = await created("mod", { name: "mod-made", parent_id: server.world.channels.Community });
    expect(byMod).toMatchObject({
      type: 0,
      name: "mod-made",
      guild_id: hq,
      parent_id: server.world.channels.Community,
      position: 7,
      topic: null,
      nsfw: false,
      rate_limit_per_user: 0,
      permission_overwrites: [],
    });
    expect((await created("owner", { name: "owner-made" })).position).toBe(4); // after the four categories
    expect((await created("bot", { name: "bot-made", position: 2 })).position).toBe(2);
    const list = await channels();
    expect(list.map((c) => c.name)).toEqual(expect.arrayContaining(["mod-made", "owner-made", "bot-made"]));
  });
});

describe("Create Guild Channel: types and their fields", () => {
  test("voice, category, stage, forum and media channels carry their own fields", async () => {
    const voiceFields = {
      type: 2,
      bitrate: 96000,
      user_limit: 5,
      rtc_region: "rotterdam",
      video_quality_mode: 2,
      nsfw: true,
      rate_limit_per_user: 10,
    };
    expect(await created("mod", { name: "Studio", ...voiceFields })).toMatchObject(voiceFields);
    expect(await created("mod", { name: "Defaults", type: 2 })).toMatchObject({
      bitrate: 64000,
      user_limit: 0,
      rtc_region: null,
    });
    const category = await created("mod", { name: "Archive", type: 4 });
    expect(category).toMatchObject({ type: 4, parent_id: null });
    expect(category).not.toHaveProperty("last_message_id");
    expect(await created("mod", { name: "Keynote", type: 13, bitrate: 64000, user_limit: 10000 })).toMatchObject({
      type: 13,
      bitrate: 64000,
      user_limit: 10000,
    });
    const forum = await created("mod", {
      name: "feedback",
      type: 15,
      topic: "Tell us",
      default_forum_layout: 2,
      default_sort_order: 1,
      default_reaction_emoji: { emoji_name: "🔥" },
      available_tags: [
        { name: "bug", emoji_name: "🐛" },
        { name: "praise", moderated: true },
      ],
      default_thread_rate_limit_per_user: 30,
      default_auto_archive_duration: 4320,
    });
    expect(forum).toMatchObject({
      type: 15,
      topic: "Tell us",
      default_forum_layout: 2,
      default_sort_order: 1,
      default_reaction_emoji: { emoji_id: null, emoji_name: "🔥" },
      default_thread_rate_limit_per_user: 30,
      default_auto_archive_duration: 4320,
    });
    expect(forum.available_tags).toEqual([
      { id: expect.stringMatching(/^\d+$/), name: "bug", moderated: false, emoji_id: null, emoji_name: "🐛" },
      { id: expect.stringMatching(/^\d+$/), name: "praise", moderated: true, emoji_id: null, emoji_name: null },
    ]);
    const media = await created("mod", { name: "gallery", type: 16, available_tags: [] });
    expect(media).toMatchObject({ type: 16, available_tags: [], default_reaction_emoji: null });
    expect(media).not.toHaveProperty("default_forum_layout");
    expect(
      await created("mod", { name: "news", type: 5, topic: "Read me", default_thread_rate_limit_per_user: 0 }),
    ).toMatchObject({ type: 5, topic: "Read me" });
  });

  test("a field the type does not take is a field error; null is accepted as not given", async () => {
    const cases: Array<[number, string, unknown]> = [
      [2, "topic", "voice has no topic"],
      [0, "bitrate", 64000],
      [0, "user_limit", 5],
      [5, "rate_limit_per_user", 5],
      [4, "parent_id", server.world.channels.Community],
      [16, "nsfw", true],
      [0, "rtc_region", "us-west"],
      [15, "video_quality_mode", 1],
      [2, "default_auto_archive_duration", 60],
      [0, "default_reaction_emoji", { emoji_name: "👍" }],
      [2, "available_tags", []],
      [0, "default_sort_order", 0],
      [16, "default_forum_layout", 1],
      [13, "default_thread_rate_limit_per_user", 5],
      [4, "topic", "categories have none"],
    ];
    for (const [type, field, value] of cases) {
      expect(
        fieldCodes(await fail(create("mod", { name: "typed", type, [field]: value })), field),
        `${field} on type ${type}`,
      ).toEqual(["FIELD_NOT_APPLICABLE"]);
    }
    expect(
      await created("mod", { name: "nulls", type: 2, topic: null, available_tags: null, parent_id: null }),
    ).toMatchObject({ type: 2, parent_id: null });
  });

  test("types: only 0, 2, 4, 5, 13, 15, 16; announcement needs COMMUNITY or NEWS, stage COMMUNITY", async () => {
    for (const type of [1, 3, 10, 11, 12, 14, 99])
      expect(fieldCodes(await fail(create("mod", { name: "t", type })), "type")).toEqual(["BASE_TYPE_CHOICES"]);
    expect(fieldCodes(await fail(create("admin", { name: "news", type: 5 }, side)), "type")).toEqual([
      "GUILD_FEATURE_REQUIRED",
    ]);
    expect(fieldCodes(await fail(create("admin", { name: "stage", type: 13 }, side)), "type")).toEqual([
      "GUILD_FEATURE_REQUIRED",
    ]);
    expect((await created("admin", { name: "forum", type: 15 }, side)).type).toBe(15);
  });

  test("parent_id must be a category of this guild", async () => {
    expect(
      fieldCodes(await fail(create("mod", { name: "orphan", parent_id: server.world.channels.general })), "parent_id"),
    ).toEqual(["CHANNEL_PARENT_INVALID"]);
    expect(fieldCodes(await fail(create("mod", { name: "orphan", parent_id: "1" })), "parent_id")).toEqual([
      "CHANNEL_PARENT_INVALID",
    ]);
    const sideCategory = await created("admin", { name: "Side cat", type: 4 }, side);
    expect(fieldCodes(await fail(create("mod", { name: "orphan", parent_id: sideCategory.id })), "parent_id")).toEqual([
      "CHANNEL_PARENT_INVALID",
    ]);
    expect(fieldCodes(await fail(create("mod", { name: "orphan", parent_id: "abc" })), "parent_id")).toEqual([
      "NUMBER_TYPE_COERCE",
    ]);
  });
});

describe("Create Guild Channel: limits", () => {
  test("name 1-100 characters; topic up to 1024", async () => {
    expect((await created("mod", { name: "a" })).name).toBe("a");
    expect((await created("mod", { name: "b".repeat(100) })).name).toHaveLength(100);
    expect(fieldCodes(await fail(create("mod", { name: "" })), "name")).toEqual(["BASE_TYPE_BAD_LENGTH"]);
    expect(fieldCodes(await fail(create("mod", { name: "c".repeat(101) })), "name")).toEqual(["BASE_TYPE_BAD_LENGTH"]);
    expect(fieldCodes(await fail(create("mod", {})), "name")).toEqual(["BASE_TYPE_REQUIRED"]);
    expect(((await created("mod", { name: "topical", topic: "t".repeat(1024) })).topic as string).length).toBe(1024);
    expect(fieldCodes(await fail(create("mod", { name: "topical", topic: "t".repeat(1025) })), "topic")).toEqual([
      "BASE_TYPE_MAX_LENGTH",
    ]);
  });

  test("rate_limit_per_user and default_thread_rate_limit_per_user 0-21600", async () => {
    expect((await created("mod", { name: "slow", rate_limit_per_user: 21600 })).rate_limit_per_user).toBe(21600);
    expect(
      fieldCodes(await fail(create("mod", { name: "slow", rate_limit_per_user: 21601 })), "rate_limit_per_user"),
    ).toEqual(["NUMBER_TYPE_MAX"]);
    expect(
      fieldCodes(await fail(create("mod", { name: "slow", rate_limit_per_user: -1 })), "rate_limit_per_user"),
    ).toEqual(["NUMBER_TYPE_MIN"]);
    expect(
      fieldCodes(
        await fail(create("mod", { name: "slow", default_thread_rate_limit_per_user: 21601 })),
        "default_thread_rate_limit_per_user",
      ),
    ).toEqual(["NUMBER_TYPE_MAX"]);
  });

  test("voice bitrate: at least 8000, at most the boost tier's ceiling (HQ is tier 2: 256000); stage at most 64000", async () => {
    expect((await created("mod", { name: "low", type: 2, bitrate: 8000 })).bitrate).toBe(8000);
    expect(fieldCodes(await fail(create("mod", { name: "low", type: 2, bitrate: 7999 })), "bitrate")).toEqual([
      "NUMBER_TYPE_MIN",
    ]);
    expect((await created("mod", { name: "tier2", type: 2, bitrate: 256000 })).bitrate).toBe(256000);
    expect(fieldCodes(await fail(create("mod", { name: "tier2", type: 2, bitrate: 256001 })), "bitrate")).toEqual([
      "NUMBER_TYPE_MAX",
    ]);
    expect((await created("mod", { name: "stage", type: 13, bitrate: 64000 })).bitrate).toBe(64000);
    expect(fieldCodes(await fail(create("mod", { name: "stage", type: 13, bitrate: 64001 })), "bitrate")).toEqual([
      "NUMBER_TYPE_MAX",
    ]);
    // The side guild has no boosts: 96000.
    expect((await created("admin", { name: "tier0", type: 2, bitrate: 96000 }, side)).bitrate).toBe(96000);
    const tier0 = await fail(create("admin", { name: "tier0", type: 2, bitrate: 96001 }, side));
    expect(fieldCodes(tier0, "bitrate")).toEqual(["NUMBER_TYPE_MAX"]);
    expect(
      (tier0!.rawError as unknown as { errors: { bitrate: { _errors: Array<{ message: string }> } } }).errors.bitrate
        ._errors[0].message,
    ).toContain("96000");
  });

  test("voice bitrate at tiers 1 and 3, and with VIP_REGIONS", async () => {
    const setGuild = async (tier: number, features: string[]) =>
      await sql.run(
        "UPDATE guilds SET premium_tier = ?, features = ? WHERE id = ?",
        tier,
        JSON.stringify(features),
        BigInt(side),
      );
    try {
      await setGuild(1, []);
      expect((await created("admin", { name: "t1", type: 2, bitrate: 128000 }, side)).bitrate).toBe(128000);
      expect(
        fieldCodes(await fail(create("admin", { name: "t1", type: 2, bitrate: 128001 }, side)), "bitrate"),
      ).toEqual(["NUMBER_TYPE_MAX"]);
      await setGuild(3, []);
      expect((await created("admin", { name: "t3", type: 2, bitrate: 384000 }, side)).bitrate).toBe(384000);
      expect(
        fieldCodes(await fail(create("admin", { name: "t3", type: 2, bitrate: 384001 }, side)), "bitrate"),
      ).toEqual(["NUMBER_TYPE_MAX"]);
      await setGuild(0, ["VIP_REGIONS"]);
      expect((await created("admin", { name: "vip", type: 2, bitrate: 384000 }, side)).bitrate).toBe(384000);
      expect(
        fieldCodes(await fail(create("admin", { name: "vip", type: 2, bitrate: 384001 }, side)), "bitrate"),
      ).toEqual(["NUMBER_TYPE_MAX"]);
    } finally {
      await setGuild(0, []);
    }
  });

  test("user_limit: voice 0-99, stage 0-10000", async () => {
    expect((await created("mod", { name: "full", type: 2, user_limit: 99 })).user_limit).toBe(99);
    expect(fieldCodes(await fail(create("mod", { name: "full", type: 2, user_limit: 100 })), "user_limit")).toEqual([
      "NUMBER_TYPE_MAX",
    ]);
    expect(fieldCodes(await fail(create("mod", { name: "full", type: 13, user_limit: 10001 })), "user_limit")).toEqual([
      "NUMBER_TYPE_MAX",
    ]);
    expect(fieldCodes(await fail(create("mod", { name: "full", type: 2, user_limit: -1 })), "user_limit")).toEqual([
      "NUMBER_TYPE_MIN",
    ]);
  });

  test("several field errors come back together, each at its path", async () => {
    const error = await fail(
      create("mod", {
        name: "",
        type: 2,
        bitrate: 1_000_000,
        user_limit: 500,
        topic: "x",
        permission_overwrites: [{ id: "nope" }],
      }),
    );
    expect(fieldCodes(error, "name")).toEqual(["BASE_TYPE_BAD_LENGTH"]);
    expect(fieldCodes(error, "permission_overwrites", 0, "id")).toEqual(["NUMBER_TYPE_COERCE"]);
    const typed = await fail(create("mod", { name: "ok", type: 2, bitrate: 1_000_000, user_limit: 500, topic: "x" }));
    expect(fieldCodes(typed, "bitrate")).toEqual(["NUMBER_TYPE_MAX"]);
    expect(fieldCodes(typed, "user_limit")).toEqual(["NUMBER_TYPE_MAX"]);
    expect(fieldCodes(typed, "topic")).toEqual(["FIELD_NOT_APPLICABLE"]);
  });
});

describe("Create Guild Channel: permission overwrites", () => {
  const { ViewChannel, SendMessages, ManageRoles, Administrator, ManageWebhooks } = P;

  test('allow and deny default to "0"; the type is inferred from the id; strings and integers are read', async () => {
    const channel = await created("mod", {
      name: "private",
      permission_overwrites: [
        { id: hq, deny: String(ViewChannel) },
        { id: server.world.roles.helper, allow: Number(ViewChannel | SendMessages), deny: null },
        { id: server.world.users.member, type: 1, allow: String(ViewChannel) },
      ],
    });
    expect(channel.permission_overwrites).toEqual([
      { id: hq, type: 0, allow: "0", deny: String(ViewChannel) },
      { id: server.world.roles.helper, type: 0, allow: String(ViewChannel | SendMessages), deny: "0" },
      { id: server.world.users.member, type: 1, allow: String(ViewChannel), deny: "0" },
    ]);
  });

  test("the caller may only allow or deny what it holds; MANAGE_ROLES only for administrators", async () => {
    // mod lacks Manage Webhooks and Administrator.
    expect(
      await fail(create("mod", { name: "x", permission_overwrites: [{ id: hq, allow: String(ManageWebhooks) }] })),
    ).toMatchObject({ status: 403, code: 50013 });
    expect(
      await fail(create("mod", { name: "x", permission_overwrites: [{ id: hq, deny: String(Administrator) }] })),
    ).toMatchObject({ status: 403, code: 50013 });
    // mod holds Manage Roles, yet may not put it in an overwrite.
    expect(
      await fail(
        create("mod", {
          name: "x",
          permission_overwrites: [{ id: server.world.roles.member, deny: String(ManageRoles) }],
        }),
      ),
    ).toMatchObject({ status: 403, code: 50013 });
    const byAdmin = await created("admin", {
      name: "admin-ow",
      permission_overwrites: [{ id: server.world.roles.member, allow: String(ManageRoles | ManageWebhooks) }],
    });
    expect(byAdmin.permission_overwrites[0].allow).toBe(String(ManageRoles | ManageWebhooks));
    expect(
      (await created("owner", { name: "owner-ow", permission_overwrites: [{ id: hq, deny: String(ManageRoles) }] }))
        .permission_overwrites[0].deny,
    ).toBe(String(ManageRoles));
    expect(
      (await created("bot", { name: "bot-ow", permission_overwrites: [{ id: hq, deny: String(ManageRoles) }] }))
        .permission_overwrites,
    ).toHaveLength(1);
    expect((await channels()).some((c) => c.name === "x")).toBe(false);
  });

  test("ids must be roles or members of this guild, once each; bad bitfields are field errors", async () => {
    expect(
      fieldCodes(
        await fail(create("mod", { name: "x", permission_overwrites: [{ id: "1", type: 0 }] })),
        "permission_overwrites",
        0,
        "id",
      ),
    ).toEqual(["OVERWRITE_TARGET_INVALID"]);
    expect(
      fieldCodes(
        await fail(create("mod", { name: "x", permission_overwrites: [{ id: server.world.users.outsider }] })),
        "permission_overwrites",
        0,
        "id",
      ),
    ).toEqual(["OVERWRITE_TARGET_INVALID"]);
    expect(
      fieldCodes(
        await fail(create("mod", { name: "x", permission_overwrites: [{ id: hq }, { id: hq }] })),
        "permission_overwrites",
        1,
        "id",
      ),
    ).toEqual(["OVERWRITE_TARGET_INVALID"]);
    expect(
      fieldCodes(
        await fail(create("mod", { name: "x", permission_overwrites: [{ id: hq, allow: "-5" }] })),
        "permission_overwrites",
        0,
        "allow",
      ),
    ).toEqual(["NUMBER_TYPE_COERCE"]);
    expect(
      fieldCodes(
        await fail(create("mod", { name: "x", permission_overwrites: [{ id: hq, type: 2 }] })),
        "permission_overwrites",
        0,
        "type",
      ),
    ).toEqual(["BASE_TYPE_CHOICES"]);
  });
});

describe("Create Guild Channel: events and audit log", () => {
  test("CHANNEL_CREATE carries the channel; the audit-log entry has the decoded reason", async () => {
    const after = await lastEventId();
    const reason = "New home for 📣 announcements & more";
    const channel = await create("mod", { name: "town-square", topic: "Hello", rate_limit_per_user: 5 }, hq, reason);
    const fired = await events(after);
    expect(fired.map((e) => e.type)).toEqual(["CHANNEL_CREATE"]);
    expect(fired[0].d).toEqual(channel);
    expectSchema("GuildChannelResponse", fired[0].d);
    const log = (await server
      .rest("owner")
      .get(Routes.guildAuditLog(hq), { query: new URLSearchParams({ action_type: "10", limit: "1" }) })) as {
      audit_log_entries: Array<{
        target_id: string;
        user_id: string;
        reason: string;
        changes: Array<{ key: string; new_value: unknown }>;
      }>;
    };
    expectOperationResponse("GET", "/guilds/{guild_id}/audit-logs", 200, log);
    const [entry] = log.audit_log_entries;
    expect(entry).toMatchObject({ target_id: channel.id, user_id: server.world.users.mod, reason });
    expect(entry.changes).toEqual(
      expect.arrayContaining([
        { key: "name", new_value: "town-square" },
        { key: "type", new_value: 0 },
        { key: "rate_limit_per_user", new_value: 5 },
      ]),
    );
  });

  test("a refused request fires nothing", async () => {
    const after = await lastEventId();
    await fail(create("mod", { name: "t".repeat(101) }));
    await fail(create("member", { name: "sneaky" }));
    expect(await events(after)).toEqual([]);
  });
});

describe("Modify Guild Channel Positions", () => {
  const find = (list: Channel[], id: string) => list.find((c) => c.id === id) as Channel;

  test("needs Manage Channels: member 403 50013, outsider 50001", async () => {
    const { general } = server.world.channels;
    expect(await fail(positions("member", [{ id: general, position: 3 }]))).toMatchObject({ status: 403, code: 50013 });
    expect(await fail(positions("helper", [{ id: general, position: 3 }]))).toMatchObject({ status: 403, code: 50013 });
    expect(await fail(positions("outsider", [{ id: general, position: 3 }]))).toMatchObject({
      status: 403,
      code: 50001,
    });
  });

  test("moves and re-parents channels, locks permissions to the new parent; 204; one CHANNEL_UPDATE per changed channel", async () => {
    const { memes, help, Staff, general } = server.world.channels;
    const after = await lastEventId();
    const response = await server.api(
      "mod",
      "PATCH",
      `/guilds/${hq}/channels`,
      [
        { id: memes, parent_id: Staff, lock_permissions: true, position: 5 },
        { id: help, position: 0 },
        { id: general, position: 0 }, // unchanged: no event
      ],
      { "x-audit-log-reason": encodeURIComponent("Tidy up ✨") },
    );
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    const list = await channels();
    const staff = find(list, Staff);
    expect(find(list, memes)).toMatchObject({
      parent_id: Staff,
      position: 5,
      permission_overwrites: staff.permission_overwrites,
    });
    expect(find(list, help).position).toBe(0);
    const fired = await events(after);
    expect(fired.map((e) => [e.type, e.d.id])).toEqual([
      ["CHANNEL_UPDATE", memes],
      ["CHANNEL_UPDATE", help],
    ]);
    expect(fired[0].d).toEqual(find(list, memes));
    expectSchema("GuildChannelResponse", fired[0].d);
    const log = (await server
      .rest("owner")
      .get(Routes.guildAuditLog(hq), { query: new URLSearchParams({ action_type: "11", limit: "2" }) })) as {
      audit_log_entries: Array<{ target_id: string; reason: string; changes: Array<{ key: string }> }>;
    };
    expect(log.audit_log_entries.map((e) => e.target_id)).toEqual([help, memes]);
    expect(log.audit_log_entries[1].reason).toBe("Tidy up ✨");
    expect(log.audit_log_entries[1].changes.map((c) => c.key).sort()).toEqual([
      "parent_id",
      "permission_overwrites",
      "position",
    ]);
  });

  test("the owner and the bot may reorder too", async () => {
    const { introductions } = server.world.channels;
    await positions("owner", [{ id: introductions, position: 12 }]);
    expect(find(await channels(), introductions).position).toBe(12);
    await positions("bot", [{ id: introductions, position: 2 }]);
    expect(find(await channels(), introductions).position).toBe(2);
  });

  test("parent_id null takes a channel out of its category; without lock_permissions its overwrites stay", async () => {
    const { memes } = server.world.channels;
    await positions("mod", [{ id: memes, parent_id: null, position: 9 }]);
    const moved = find(await channels(), memes);
    expect(moved).toMatchObject({ parent_id: null, position: 9 });
    expect(moved.permission_overwrites.length).toBeGreaterThan(0);
    await positions("mod", [
      { id: memes, parent_id: server.world.channels.Community, position: 3, lock_permissions: true },
    ]);
    expect(find(await channels(), memes).permission_overwrites).toEqual([]);
  });

  test("all or nothing: one unknown id (404 10003) or one bad parent (400) changes nothing", async () => {
    const { general, help, Voice, Information, Lounge, rules } = server.world.channels;
    const before = await channels();
    const after = await lastEventId();
    expect(
      await fail(
        positions("mod", [
          { id: general, position: 7 },
          { id: "1", position: 1 },
        ]),
      ),
    ).toMatchObject({ status: 404, code: 10003 });
    const sideChannel = (await channels(side, "admin"))[0];
    expect(
      await fail(
        positions("mod", [
          { id: general, position: 7 },
          { id: sideChannel.id, position: 1 },
        ]),
      ),
    ).toMatchObject({ status: 404, code: 10003 });
    const notCategory = await fail(
      positions("mod", [
        { id: general, position: 7 },
        { id: help, parent_id: Lounge },
      ]),
    );
    expect(fieldCodes(notCategory, 1, "parent_id")).toEqual(["CHANNEL_PARENT_INVALID"]);
    const categoryParent = await fail(
      positions("mod", [
        { id: general, position: 7 },
        { id: Voice, parent_id: Information },
      ]),
    );
    expect(fieldCodes(categoryParent, 1, "parent_id")).toEqual(["CHANNEL_PARENT_INVALID"]);
    const duplicate = await fail(
      positions("mod", [
        { id: general, position: 7 },
        { id: general, position: 8 },
      ]),
    );
    expect(fieldCodes(duplicate, 1, "id")).toEqual(["BASE_TYPE_INVALID"]);
    const badId = await fail(positions("mod", [{ id: rules, position: 7 }, { id: "abc" }]));
    expect(fieldCodes(badId, 1, "id")).toEqual(["NUMBER_TYPE_COERCE"]);
    expect(fieldCodes(await fail(positions("mod", [{ id: rules, position: -1 }])), 0, "position")).toEqual([
      "NUMBER_TYPE_MIN",
    ]);
    expect(await channels()).toEqual(before);
    expect(await events(after)).toEqual([]);
  });
});

describe("List Active Guild Threads", () => {
  test("hides archived threads and private ones the caller can't see; members are the caller's own", async () => {
    const asMod = (await server.rest("mod").get(Routes.guildActiveThreads(hq))) as {
      threads: Array<{ id: string; name: string }>;
      members: Array<{ id: string; user_id: string }>;
      has_more: boolean;
    };
    expect(asMod.threads.map((t) => t.name).sort()).toEqual([
      "Ban appeal review",
      "Dark mode for the widget",
      "Favourite keyboard?",
      "Welcome party planning",
    ]);
    const ids = asMod.threads.map((t) => BigInt(t.id));
    expect([...ids].sort((a, b) => (a < b ? 1 : -1))).toEqual(ids);
    expect(asMod.has_more).toBe(false);
    expect(asMod.members.length).toBe(4);
    expect(asMod.members.every((m) => m.user_id === server.world.users.mod)).toBe(true);
    expectOperationResponse("GET", "/guilds/{guild_id}/threads/active", 200, asMod);
    const asMember = (await server.rest("member").get(Routes.guildActiveThreads(hq))) as {
      threads: Array<{ name: string }>;
      members: unknown[];
    };
    expect(asMember.threads.map((t) => t.name)).not.toContain("Ban appeal review");
    expect(asMember.members).toEqual([]);
    expect(await fail(server.rest("outsider").get(Routes.guildActiveThreads(hq)))).toMatchObject({
      status: 403,
      code: 50001,
    });
  });
});
