// Get Guild, Get Guild Preview, Modify Guild (fields, limits, features, images, events, audit log), Get Guild Audit Log,
// and the outbox reader, over real HTTP with @discordjs/rest.
import { beforeAll, describe, expect, test } from "vitest";
import { Routes } from "discord-api-types/v10";
import { PNG } from "pngjs";
import { createHash } from "node:crypto";
import { gif } from "../../fixtures/gif";
import { fail, fieldCodes } from "./read-back";
import { DEMO_ROLE_NAMES, testServerForFile } from "../harness";
import { sql } from "@/lib/guild-api/store/db";
import { expectOperationResponse, expectSchema } from "../openapi";

const server = testServerForFile();
let hq: string;
let side: string;
beforeAll(() => {
  hq = server.world.guildId;
  side = server.world.sideGuildId;
});

type Guild = Record<string, unknown> & {
  name: string;
  features: string[];
  icon: string | null;
  banner: string | null;
  splash: string | null;
  discovery_splash: string | null;
};
interface StoredEvent {
  id: string;
  type: string;
  d: Record<string, unknown>;
}
interface AuditLog {
  audit_log_entries: Array<{
    id: string;
    user_id: string | null;
    target_id: string | null;
    action_type: number;
    reason?: string;
    changes?: Array<{ key: string; old_value?: unknown; new_value?: unknown }>;
  }>;
  users: Array<{ id: string }>;
}

/** The `_errors` codes at a path of a 50035 error body. */
const patch = (as: string, guildId: string, body: Record<string, unknown>, reason?: string) =>
  server.rest(as).patch(Routes.guild(guildId), { body, reason }) as Promise<Guild>;
const getGuild = (as = "owner", guildId = hq) => server.rest(as).get(Routes.guild(guildId)) as Promise<Guild>;
const events = async (guildId = hq, after = "0", as = "owner") =>
  (
    (await server
      .rest(as)
      .get(`/guilds/${guildId}/events`, { query: new URLSearchParams({ after, limit: "1000" }) })) as StoredEvent[]
  ).filter((event) => event.type !== "GUILD_AUDIT_LOG_ENTRY_CREATE");
const lastEventId = async (guildId = hq) => (await events(guildId)).at(-1)?.id ?? "0";
const auditLog = (query: Record<string, string> = {}, as = "owner", guildId = hq) =>
  server.rest(as).get(Routes.guildAuditLog(guildId), { query: new URLSearchParams(query) }) as Promise<AuditLog>;

const png = (width: number, height: number) => PNG.sync.write(new PNG({ width, height }));
const dataUri = (bytes: Buffer, type = "image/png") => `data:${type};base64,${bytes.toString("base64")}`;
describe("Get Guild", () => {
  test("a member gets the guild with its roles in order, emojis and stickers", async () => {
    const guild = (await getGuild("member")) as Guild & {
      roles: Array<{ name: string; position: number }>;
      emojis: unknown[];
      stickers: unknown[];
    };
    expect(guild.name).toBe("Guildhall HQ");
    expect(guild.roles.map((r) => r.name)).toEqual(DEMO_ROLE_NAMES);
    expect(guild.emojis).toHaveLength(3);
    expect(guild.stickers).toHaveLength(2);
    expect(guild).toMatchObject({
      id: hq,
      owner_id: server.world.users.owner,
      afk_timeout: 300,
      premium_tier: 2,
      incidents_data: null,
      home_header: null,
      nsfw: false,
    });
    expect(guild.approximate_member_count).toBeUndefined();
    expectOperationResponse("GET", "/guilds/{guild_id}", 200, guild);
  });

  test("with_counts adds approximate member and presence counts (non-offline members); the bot token works too", async () => {
    const guild = (await server
      .rest("bot")
      .get(Routes.guild(hq), { query: new URLSearchParams({ with_counts: "true" }) })) as Record<string, number>;
    const online = Number(
      (
        (await sql.get("SELECT COUNT(*) AS n FROM members WHERE guild_id = ? AND status != 'offline'", BigInt(hq))) as {
          n: bigint;
        }
      ).n,
    );
    expect(guild.approximate_member_count).toBe(166);
    expect(guild.approximate_presence_count).toBe(online);
    expect(online).toBeLessThan(166);
    expectOperationResponse("GET", "/guilds/{guild_id}", 200, guild);
    const without = (await server
      .rest("bot")
      .get(Routes.guild(hq), { query: new URLSearchParams({ with_counts: "false" }) })) as Record<string, number>;
    expect(without.approximate_member_count).toBeUndefined();
  });

  test("incidents_data reflects the guild's incident columns", async () => {
    const until = Date.now() + 3_600_000;
    await sql.run("UPDATE guilds SET invites_disabled_until = ? WHERE id = ?", BigInt(until), BigInt(hq));
    try {
      const guild = await getGuild("member");
      expect(guild.incidents_data).toEqual({
        invites_disabled_until: new Date(until).toISOString(),
        dms_disabled_until: null,
        dm_spam_detected_at: null,
        raid_detected_at: null,
      });
      expectOperationResponse("GET", "/guilds/{guild_id}", 200, guild);
    } finally {
      await sql.run("UPDATE guilds SET invites_disabled_until = NULL WHERE id = ?", BigInt(hq));
    }
  });

  test("outsider: 403 Missing Access; unknown guild: 404 Unknown Guild; bad id: 50035 naming guild_id; no token: 401", async () => {
    expect(await fail(getGuild("outsider"))).toMatchObject({ status: 403, code: 50001 });
    expect(await fail(getGuild("mod", "1"))).toMatchObject({ status: 404, code: 10004 });
    const bad = await server.api("mod", "GET", "/guilds/not-an-id");
    expect(await bad.json()).toMatchObject({
      code: 50035,
      errors: { guild_id: { _errors: [{ code: "NUMBER_TYPE_COERCE" }] } },
    });
    expect((await server.api(null, "GET", `/guilds/${hq}`)).status).toBe(401);
  });
});

describe("Get Guild Preview", () => {
  test("members see the preview; a non-member of a guild that is not discoverable gets 404; unknown guild 404", async () => {
    const preview = await server.rest("member").get(Routes.guildPreview(hq));
    expect(preview).toMatchObject({
      id: hq,
      name: "Guildhall HQ",
      approximate_member_count: 166,
      description: "Home of the Guildhall demo community.",
    });
    expectOperationResponse("GET", "/guilds/{guild_id}/preview", 200, preview);
    expect(await fail(server.rest("outsider").get(Routes.guildPreview(hq)))).toMatchObject({
      status: 404,
      code: 10004,
    });
    expect(await fail(server.rest("member").get(Routes.guildPreview("1")))).toMatchObject({ status: 404, code: 10004 });
  });
});

describe("Modify Guild: permissions", () => {
  test("needs Manage Server: helper and member 403 50013; outsider 403 50001; unknown guild 404", async () => {
    for (const as of ["helper", "member"])
      expect(await fail(patch(as, hq, { name: "Nope" }))).toMatchObject({ status: 403, code: 50013 });
    expect(await fail(patch("outsider", hq, { name: "Nope" }))).toMatchObject({ status: 403, code: 50001 });
    expect(await fail(patch("owner", "1", { name: "Nope" }))).toMatchObject({ status: 404, code: 10004 });
    // Permission before validation: a helper learns nothing about the body.
    expect(await fail(patch("helper", hq, { name: "x" }))).toMatchObject({ status: 403, code: 50013 });
    expect((await getGuild()).name).toBe("Guildhall HQ");
  });

  test("a plain member of the side guild (no Manage Server there) is refused; its owner is not", async () => {
    expect(await fail(patch("mod", side, { name: "Side Hustle" }))).toMatchObject({ status: 403, code: 50013 });
    const guild = await patch("admin", side, { name: "Side Hustle" });
    expect(guild.name).toBe("Side Hustle");
    expectOperationResponse("PATCH", "/guilds/{guild_id}", 200, guild);
    await patch("admin", side, { name: "Side Project" });
  });

  test("mod (Manage Server), owner and the bot may modify; the answer is the updated guild", async () => {
    const byMod = await patch("mod", hq, { description: "Edited by mod" });
    expect(byMod.description).toBe("Edited by mod");
    expectOperationResponse("PATCH", "/guilds/{guild_id}", 200, byMod);
    expect((await patch("bot", hq, { description: "Edited by the bot" })).description).toBe("Edited by the bot");
    const byOwner = await patch("owner", hq, { description: "Home of the Guildhall demo community." });
    expect(byOwner.description).toBe("Home of the Guildhall demo community.");
    expect((await getGuild("member")).description).toBe("Home of the Guildhall demo community.");
  });
});

describe("Modify Guild: fields and limits", () => {
  test("name: 2 and 100 characters pass, 1 and 101 fail, outer whitespace is trimmed", async () => {
    expect((await patch("mod", hq, { name: "HQ" })).name).toBe("HQ");
    const hundred = "G".repeat(100);
    expect((await patch("mod", hq, { name: hundred })).name).toBe(hundred);
    expect(fieldCodes(await fail(patch("mod", hq, { name: "G" })), "name")).toEqual(["BASE_TYPE_BAD_LENGTH"]);
    expect(fieldCodes(await fail(patch("mod", hq, { name: "G".repeat(101) })), "name")).toEqual([
      "BASE_TYPE_BAD_LENGTH",
    ]);
    expect((await patch("mod", hq, { name: " Guildhall HQ\t" })).name).toBe("Guildhall HQ");
    expect(fieldCodes(await fail(patch("mod", hq, { name: " G " })), "name")).toEqual(["BASE_TYPE_BAD_LENGTH"]);
    expect(fieldCodes(await fail(patch("mod", hq, { name: null })), "name")).not.toEqual([]);
    expect((await patch("mod", hq, { name: "Guildhall HQ" })).name).toBe("Guildhall HQ");
  });

  test("afk_timeout: only 60, 300, 900, 1800, 3600", async () => {
    expect((await patch("mod", hq, { afk_timeout: 60 })).afk_timeout).toBe(60);
    expect((await patch("mod", hq, { afk_timeout: 3600 })).afk_timeout).toBe(3600);
    for (const value of [61, 0, 7200])
      expect(fieldCodes(await fail(patch("mod", hq, { afk_timeout: value })), "afk_timeout")).toEqual([
        "BASE_TYPE_CHOICES",
      ]);
    expect((await patch("mod", hq, { afk_timeout: 300 })).afk_timeout).toBe(300);
  });

  test("levels: verification 0-4, explicit content filter 0-2, notifications 0-1; null resets to 0", async () => {
    const guild = await patch("mod", hq, {
      verification_level: 4,
      explicit_content_filter: 0,
      default_message_notifications: 0,
    });
    expect(guild).toMatchObject({
      verification_level: 4,
      explicit_content_filter: 0,
      default_message_notifications: 0,
    });
    expect(fieldCodes(await fail(patch("mod", hq, { verification_level: 5 })), "verification_level")).toEqual([
      "NUMBER_TYPE_MAX",
    ]);
    expect(fieldCodes(await fail(patch("mod", hq, { explicit_content_filter: 3 })), "explicit_content_filter")).toEqual(
      ["NUMBER_TYPE_MAX"],
    );
    expect(
      fieldCodes(await fail(patch("mod", hq, { default_message_notifications: 2 })), "default_message_notifications"),
    ).toEqual(["NUMBER_TYPE_MAX"]);
    expect(fieldCodes(await fail(patch("mod", hq, { verification_level: -1 })), "verification_level")).toEqual([
      "NUMBER_TYPE_MIN",
    ]);
    expect(await patch("mod", hq, { verification_level: null })).toMatchObject({ verification_level: 0 });
    expect(
      await patch("mod", hq, { verification_level: 1, explicit_content_filter: 2, default_message_notifications: 1 }),
    ).toMatchObject({ verification_level: 1, explicit_content_filter: 2 });
  });

  test("preferred_locale from Discord's list (null → en-US); system_channel_flags only the six defined bits", async () => {
    expect((await patch("mod", hq, { preferred_locale: "pt-BR" })).preferred_locale).toBe("pt-BR");
    expect(fieldCodes(await fail(patch("mod", hq, { preferred_locale: "xx-YY" })), "preferred_locale")).toEqual([
      "BASE_TYPE_CHOICES",
    ]);
    expect((await patch("mod", hq, { preferred_locale: null })).preferred_locale).toBe("en-US");
    expect((await patch("mod", hq, { system_channel_flags: 63 })).system_channel_flags).toBe(63);
    expect(fieldCodes(await fail(patch("mod", hq, { system_channel_flags: 64 })), "system_channel_flags")).toEqual([
      "BASE_TYPE_INVALID",
    ]);
    expect((await patch("mod", hq, { system_channel_flags: 0 })).system_channel_flags).toBe(0);
  });

  test("description: 300 characters pass, 301 fail, null clears; premium_progress_bar_enabled is a boolean", async () => {
    expect((await patch("mod", hq, { description: "d".repeat(300) })).description).toHaveLength(300);
    expect(fieldCodes(await fail(patch("mod", hq, { description: "d".repeat(301) })), "description")).toEqual([
      "BASE_TYPE_MAX_LENGTH",
    ]);
    expect((await patch("admin", side, { description: null })).description).toBeNull();
    expect((await patch("mod", hq, { premium_progress_bar_enabled: false })).premium_progress_bar_enabled).toBe(false);
    expect(
      fieldCodes(await fail(patch("mod", hq, { premium_progress_bar_enabled: "yes" })), "premium_progress_bar_enabled"),
    ).toEqual(["BOOLEAN_TYPE_COERCE"]);
    await patch("mod", hq, {
      premium_progress_bar_enabled: true,
      description: "Home of the Guildhall demo community.",
    });
  });

  test("channel fields: AFK must be a voice channel, the others text channels, all of this guild", async () => {
    const { channels } = server.world;
    expect((await patch("mod", hq, { afk_channel_id: channels.Lounge })).afk_channel_id).toBe(channels.Lounge);
    expect(fieldCodes(await fail(patch("mod", hq, { afk_channel_id: channels.general })), "afk_channel_id")).toEqual([
      "CHANNEL_INVALID",
    ]);
    expect(
      fieldCodes(await fail(patch("mod", hq, { system_channel_id: channels.Lounge })), "system_channel_id"),
    ).toEqual(["CHANNEL_INVALID"]);
    expect(
      fieldCodes(
        await fail(patch("mod", hq, { safety_alerts_channel_id: channels.Community })),
        "safety_alerts_channel_id",
      ),
    ).toEqual(["CHANNEL_INVALID"]);
    expect(fieldCodes(await fail(patch("mod", hq, { rules_channel_id: "1" })), "rules_channel_id")).toEqual([
      "CHANNEL_INVALID",
    ]);
    expect(fieldCodes(await fail(patch("mod", hq, { system_channel_id: "nope" })), "system_channel_id")).toEqual([
      "NUMBER_TYPE_COERCE",
    ]);
    const sideChannels = (await server.rest("admin").get(Routes.guildChannels(side))) as Array<{ id: string }>;
    expect(
      fieldCodes(await fail(patch("mod", hq, { system_channel_id: sideChannels[0].id })), "system_channel_id"),
    ).toEqual(["CHANNEL_INVALID"]);
    const updated = await patch("mod", hq, {
      afk_channel_id: channels.AFK,
      system_channel_id: channels.general,
      safety_alerts_channel_id: null,
    });
    expect(updated).toMatchObject({
      afk_channel_id: channels.AFK,
      system_channel_id: channels.general,
      safety_alerts_channel_id: null,
    });
    await patch("mod", hq, { system_channel_id: channels.welcome, safety_alerts_channel_id: channels["mod-chat"] });
  });

  test("a Community guild keeps its rules and public updates channels", async () => {
    expect(fieldCodes(await fail(patch("mod", hq, { rules_channel_id: null })), "rules_channel_id")).toEqual([
      "BASE_TYPE_REQUIRED",
    ]);
    expect(
      fieldCodes(await fail(patch("mod", hq, { public_updates_channel_id: null })), "public_updates_channel_id"),
    ).toEqual(["BASE_TYPE_REQUIRED"]);
    expect((await getGuild()).rules_channel_id).toBe(server.world.channels.rules);
  });

  test("every field error is reported at once, and a failed request changes nothing and fires nothing", async () => {
    const after = await lastEventId();
    const error = await fail(patch("mod", hq, { name: "Renamed", afk_timeout: 61, verification_level: 9 }));
    expect(fieldCodes(error, "afk_timeout")).toEqual(["BASE_TYPE_CHOICES"]);
    expect(fieldCodes(error, "verification_level")).toEqual(["NUMBER_TYPE_MAX"]);
    const later = await fail(patch("mod", hq, { name: "Renamed", afk_channel_id: server.world.channels.general }));
    expect(fieldCodes(later, "afk_channel_id")).toEqual(["CHANNEL_INVALID"]);
    expect((await getGuild()).name).toBe("Guildhall HQ");
    expect(await events(hq, after)).toEqual([]);
  });
});

describe("Modify Guild: features", () => {
  test("Manage Server toggles INVITES_DISABLED and RAID_ALERTS_DISABLED; other features keep their state", async () => {
    const before = (await getGuild()).features;
    const paused = await patch("mod", hq, {
      features: ["INVITES_DISABLED", "RAID_ALERTS_DISABLED", "VERIFIED", "COMMUNITY"],
    });
    // Omitting NEWS, BANNER, ... does not remove them; naming VERIFIED does not add it.
    expect(paused.features.sort()).toEqual([...before, "INVITES_DISABLED", "RAID_ALERTS_DISABLED"].sort());
    expectOperationResponse("PATCH", "/guilds/{guild_id}", 200, paused);
    const resumed = await patch("mod", hq, { features: ["COMMUNITY"] });
    expect(resumed.features.sort()).toEqual([...before].sort());
  });

  test("unknown feature strings are a field error at their index", async () => {
    expect(
      fieldCodes(await fail(patch("mod", hq, { features: ["COMMUNITY", "MAKE_IT_SHINY"] })), "features", 1),
    ).toEqual(["BASE_TYPE_CHOICES"]);
    expect(fieldCodes(await fail(patch("mod", hq, { features: "COMMUNITY" })), "features")).toEqual([
      "BASE_TYPE_ARRAY",
    ]);
  });

  test("COMMUNITY needs Administrator to remove or add, and its channels to add", async () => {
    const others = (await getGuild()).features.filter((f) => f !== "COMMUNITY");
    expect(await fail(patch("mod", hq, { features: others }))).toMatchObject({ status: 403, code: 50013 });
    const removed = await patch("admin", hq, { features: others });
    expect(removed.features).not.toContain("COMMUNITY");
    expect(removed.features).toContain("NEWS");
    expect(await fail(patch("mod", hq, { features: [...others, "COMMUNITY"] }))).toMatchObject({
      status: 403,
      code: 50013,
    });
    const restored = await patch("owner", hq, { features: [...others, "COMMUNITY"] });
    expect(restored.features).toContain("COMMUNITY");
    // The side guild has neither a rules nor a public updates channel.
    const error = await fail(patch("admin", side, { features: ["COMMUNITY"] }));
    expect(fieldCodes(error, "rules_channel_id")).toEqual(["BASE_TYPE_REQUIRED"]);
    expect(fieldCodes(error, "public_updates_channel_id")).toEqual(["BASE_TYPE_REQUIRED"]);
  });

  test("DISCOVERABLE needs Administrator and the discovery requirements; then outsiders see the preview", async () => {
    expect(fieldCodes(await fail(patch("admin", side, { features: ["DISCOVERABLE"] })), "features")).toEqual([
      "DISCOVERY_REQUIREMENTS_NOT_MET",
    ]);
    expect(await fail(patch("mod", hq, { features: ["COMMUNITY", "DISCOVERABLE"] }))).toMatchObject({
      status: 403,
      code: 50013,
    });
    const listed = await patch("admin", hq, { features: ["COMMUNITY", "DISCOVERABLE"] });
    expect(listed.features).toContain("DISCOVERABLE");
    const preview = await server.rest("outsider").get(Routes.guildPreview(hq));
    expectOperationResponse("GET", "/guilds/{guild_id}/preview", 200, preview);
    // Still discoverable: clearing the description would break a requirement.
    expect(fieldCodes(await fail(patch("mod", hq, { description: null })), "features")).toEqual([
      "DISCOVERY_REQUIREMENTS_NOT_MET",
    ]);
  });
});

describe("Modify Guild: images", () => {
  test("a 16:9 PNG banner is stored by md5 and served from /cdn; null removes it", async () => {
    const bytes = png(320, 180);
    const guild = await patch("mod", hq, { banner: dataUri(bytes) });
    expect(guild.banner).toBe(createHash("md5").update(bytes).digest("hex"));
    const served = await fetch(`${server.baseUrl}/cdn/banners/${hq}/${guild.banner}.png`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await patch("mod", hq, { banner: null })).banner).toBeNull();
  });

  test("banners, splashes and discovery splashes must be 16:9", async () => {
    expect(fieldCodes(await fail(patch("mod", hq, { banner: dataUri(png(400, 300)) })), "banner")).toEqual([
      "IMAGE_DIMENSIONS_INVALID",
    ]);
    expect(fieldCodes(await fail(patch("mod", hq, { splash: dataUri(png(100, 100)) })), "splash")).toEqual([
      "IMAGE_DIMENSIONS_INVALID",
    ]);
    expect((await patch("mod", hq, { splash: dataUri(png(160, 90)) })).splash).toMatch(/^[0-9a-f]{32}$/);
    // HQ is DISCOVERABLE since the features tests.
    expect((await patch("mod", hq, { discovery_splash: dataUri(png(1920, 1080)) })).discovery_splash).toMatch(
      /^[0-9a-f]{32}$/,
    );
    expect(
      fieldCodes(await fail(patch("mod", hq, { discovery_splash: dataUri(png(1920, 1200)) })), "discovery_splash"),
    ).toEqual(["IMAGE_DIMENSIONS_INVALID"]);
  });

  test("icons: up to 1024x1024; 2048x2048 is refused", async () => {
    const icon = await patch("mod", hq, { icon: dataUri(png(1024, 1024)) });
    expect(icon.icon).toMatch(/^[0-9a-f]{32}$/);
    expect(fieldCodes(await fail(patch("mod", hq, { icon: dataUri(png(2048, 2048)) })), "icon")).toEqual([
      "IMAGE_DIMENSIONS_INVALID",
    ]);
    expect(fieldCodes(await fail(patch("mod", hq, { icon: dataUri(png(1025, 10)) })), "icon")).toEqual([
      "IMAGE_DIMENSIONS_INVALID",
    ]);
    expect((await getGuild()).icon).toBe(icon.icon);
  });

  test("animated GIFs: an icon needs ANIMATED_ICON (hash a_…), a banner ANIMATED_BANNER", async () => {
    const animated = gif(32, 18, 3);
    const hqIcon = await patch("mod", hq, { icon: dataUri(animated, "image/gif") });
    expect(hqIcon.icon).toBe(`a_${createHash("md5").update(animated).digest("hex")}`);
    const served = await fetch(`${server.baseUrl}/cdn/icons/${hq}/${hqIcon.icon}.gif`);
    expect(served.headers.get("content-type")).toBe("image/gif");
    expect(fieldCodes(await fail(patch("admin", side, { icon: dataUri(animated, "image/gif") })), "icon")).toEqual([
      "GUILD_FEATURE_REQUIRED",
    ]);
    expect((await patch("admin", side, { icon: dataUri(gif(32, 32, 1), "image/gif") })).icon).toMatch(/^[0-9a-f]{32}$/); // a still GIF is fine
    expect(fieldCodes(await fail(patch("mod", hq, { banner: dataUri(animated, "image/gif") })), "banner")).toEqual([
      "GUILD_FEATURE_REQUIRED",
    ]);
  });

  test("images need their feature: splash INVITE_SPLASH, discovery splash DISCOVERABLE, banner BANNER", async () => {
    const wide = dataUri(png(160, 90));
    const error = await fail(patch("admin", side, { splash: wide, discovery_splash: wide, banner: wide }));
    expect(fieldCodes(error, "splash")).toEqual(["GUILD_FEATURE_REQUIRED"]);
    expect(fieldCodes(error, "discovery_splash")).toEqual(["GUILD_FEATURE_REQUIRED"]);
    expect(fieldCodes(error, "banner")).toEqual(["GUILD_FEATURE_REQUIRED"]);
  });

  test("data that is not a PNG, JPEG or GIF data URI is refused; a GIF splash too", async () => {
    expect(fieldCodes(await fail(patch("mod", hq, { icon: "https://example.com/icon.png" })), "icon")).toEqual([
      "IMAGE_INVALID",
    ]);
    expect(
      fieldCodes(await fail(patch("mod", hq, { icon: dataUri(Buffer.from("not an image at all")) })), "icon"),
    ).toEqual(["IMAGE_INVALID"]);
    expect(fieldCodes(await fail(patch("mod", hq, { splash: dataUri(gif(16, 9, 1), "image/gif") })), "splash")).toEqual(
      ["IMAGE_INVALID"],
    );
  });

  test("a new icon or name bumps the widget version; other changes do not", async () => {
    const version = async () =>
      Number(((await sql.get("SELECT widget_version AS v FROM guilds WHERE id = ?", BigInt(hq))) as { v: bigint }).v);
    const start = await version();
    await patch("mod", hq, { afk_timeout: 900 });
    expect(await version()).toBe(start);
    await patch("mod", hq, { icon: dataUri(png(64, 64)) });
    expect(await version()).toBe(start + 1);
    await patch("mod", hq, { name: "Guildhall HQ!" });
    expect(await version()).toBe(start + 2);
    await patch("mod", hq, { name: "Guildhall HQ", afk_timeout: 300 });
  });
});

describe("Modify Guild: events and audit log", () => {
  test("GUILD_UPDATE carries the updated guild; the audit log has the changes and the decoded reason", async () => {
    const after = await lastEventId();
    const reason = "Spring clean-up: 🌸 new name & locale / 100% tidy";
    const guild = await patch("mod", hq, { name: "Guildhall Spring", preferred_locale: "fr" }, reason);
    const fired = await events(hq, after);
    expect(fired.map((e) => e.type)).toEqual(["GUILD_UPDATE"]);
    expect(fired[0].d).toEqual(guild);
    expectSchema("GuildResponse", fired[0].d);

    const log = await auditLog({ action_type: "1", limit: "1" });
    expectOperationResponse("GET", "/guilds/{guild_id}/audit-logs", 200, log);
    const [entry] = log.audit_log_entries;
    expect(entry).toMatchObject({ action_type: 1, user_id: server.world.users.mod, target_id: hq, reason });
    expect(entry.changes).toEqual(
      expect.arrayContaining([
        { key: "name", old_value: "Guildhall HQ", new_value: "Guildhall Spring" },
        { key: "preferred_locale", old_value: "en-US", new_value: "fr" },
      ]),
    );
    expect(entry.changes).toHaveLength(2);
    expect(log.users.map((u) => u.id)).toContain(server.world.users.mod);
    await patch("mod", hq, { name: "Guildhall HQ", preferred_locale: "en-US" });
  });

  test("images are logged as *_hash changes", async () => {
    const guild = await patch("mod", hq, { icon: null });
    expect(guild.icon).toBeNull();
    const [entry] = (await auditLog({ action_type: "1", limit: "1" })).audit_log_entries;
    expect(entry.changes).toEqual([
      { key: "icon_hash", old_value: expect.stringMatching(/^[0-9a-f]{32}$/), new_value: null },
    ]);
    expect(entry.reason).toBeUndefined();
  });

  test("a request that changes nothing writes no event and no audit-log entry", async () => {
    const after = await lastEventId();
    const entries = (await auditLog({ limit: "100" })).audit_log_entries.length;
    const guild = await patch("mod", hq, { name: "Guildhall HQ", afk_timeout: 300 });
    expect(guild.name).toBe("Guildhall HQ");
    expect(await events(hq, after)).toEqual([]);
    expect((await auditLog({ limit: "100" })).audit_log_entries).toHaveLength(entries);
  });
});

describe("Get Guild Audit Log", () => {
  test("needs View Audit Log: helper may read, member may not, outsider 50001", async () => {
    const log = await auditLog({}, "helper");
    expectOperationResponse("GET", "/guilds/{guild_id}/audit-logs", 200, log);
    expect(log).toMatchObject({
      integrations: [],
      webhooks: [],
      guild_scheduled_events: [],
      threads: [],
      application_commands: [],
      auto_moderation_rules: [],
    });
    expect(await fail(auditLog({}, "member"))).toMatchObject({ status: 403, code: 50013 });
    expect(await fail(auditLog({}, "outsider"))).toMatchObject({ status: 403, code: 50001 });
  });

  test("newest first; filters by user_id and action_type; pages with before and after", async () => {
    const all = (await auditLog({ limit: "100" })).audit_log_entries;
    expect(all.length).toBeGreaterThan(5);
    const ids = all.map((e) => BigInt(e.id));
    expect([...ids].sort((a, b) => (a < b ? 1 : -1))).toEqual(ids);
    const byAdmin = (await auditLog({ user_id: server.world.users.admin, limit: "100" })).audit_log_entries;
    expect(byAdmin.length).toBeGreaterThan(0);
    expect(byAdmin.every((e) => e.user_id === server.world.users.admin)).toBe(true);
    expect((await auditLog({ action_type: "22" })).audit_log_entries).toEqual([]);
    const onGuild = (await auditLog({ target_id: hq, limit: "100" })).audit_log_entries;
    expect(onGuild.length).toBeGreaterThan(0);
    expect(onGuild.every((e) => e.target_id === hq)).toBe(true);

    const firstPage = (await auditLog({ limit: "2" })).audit_log_entries;
    expect(firstPage.map((e) => e.id)).toEqual(all.slice(0, 2).map((e) => e.id));
    const nextPage = (await auditLog({ limit: "2", before: firstPage[1].id })).audit_log_entries;
    expect(nextPage.map((e) => e.id)).toEqual(all.slice(2, 4).map((e) => e.id));
    const oldest = all.at(-1)!;
    const afterOldest = (await auditLog({ limit: "2", after: oldest.id })).audit_log_entries;
    expect(afterOldest.map((e) => e.id)).toEqual(all.slice(-3, -1).map((e) => e.id));
  });

  test("limit 1-100", async () => {
    expect((await auditLog({ limit: "1" })).audit_log_entries).toHaveLength(1);
    expect((await auditLog({ limit: "100" })).audit_log_entries.length).toBeLessThanOrEqual(100);
    for (const limit of ["0", "101"]) {
      const response = await server.api("owner", "GET", `/guilds/${hq}/audit-logs?limit=${limit}`);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        code: 50035,
        errors: { limit: { _errors: [{ code: limit === "0" ? "NUMBER_TYPE_MIN" : "NUMBER_TYPE_MAX" }] } },
      });
    }
    const bad = await server.api("owner", "GET", `/guilds/${hq}/audit-logs?user_id=abc`);
    expect(await bad.json()).toMatchObject({ errors: { user_id: { _errors: [{ code: "NUMBER_TYPE_COERCE" }] } } });
  });
});

describe("events (Guildhall extension)", () => {
  test("needs Manage Server; pages by id; limit 1-1000", async () => {
    expect(await fail(server.rest("member").get(`/guilds/${hq}/events`))).toMatchObject({ status: 403, code: 50013 });
    expect(await fail(server.rest("helper").get(`/guilds/${hq}/events`))).toMatchObject({ status: 403, code: 50013 });
    const all = (await server.rest("owner").get(`/guilds/${hq}/events`)) as StoredEvent[];
    expect(all.length).toBeGreaterThan(3);
    const page = (await server
      .rest("mod")
      .get(`/guilds/${hq}/events`, { query: new URLSearchParams({ after: all[0].id, limit: "2" }) })) as StoredEvent[];
    expect(page.map((e) => e.id)).toEqual(all.slice(1, 3).map((e) => e.id));
    expect((await server.api("owner", "GET", `/guilds/${hq}/events?limit=1001`)).status).toBe(400);
    expect((await server.api("owner", "GET", `/guilds/${hq}/events?after=99999999999999999999999`)).status).toBe(400);
    // Events of one guild only.
    expect((await events(side, "0", "admin")).every((e) => !all.some((other) => other.id === e.id))).toBe(true);
  });
});
