// The guild widget: settings (permissions, channel rule, GUILD_UPDATE, audit), widget.json (channels @everyone sees,
// anonymized members, the reused instant invite) and widget.png (sizes per style, caching headers, ETag and 304).
import { beforeAll, describe, expect, test } from "vitest";
import { PermissionFlagsBits, Routes } from "discord-api-types/v10";
import { PNG } from "pngjs";
import { auditSince, eventsSince, fail, lastAuditId, lastEventId } from "./read-back";
import { testServerForFile } from "../harness";
import { sql } from "@/lib/guild-api/store/db";
import { expectOperationResponse } from "../openapi";

const server = testServerForFile();
let sizes: Record<string, { width: number; height: number }>;
beforeAll(async () => {
  sizes = (await import("@/lib/guild-api/widget-image")).WIDGET_IMAGE_SIZES as Record<
    string,
    { width: number; height: number }
  >;
});

type Settings = { enabled: boolean; channel_id: string | null };
type Widget = {
  id: string;
  name: string;
  instant_invite: string | null;
  presence_count: number;
  channels: Array<{ id: string; name: string; position: number }>;
  members: Array<{
    id: string;
    username: string;
    discriminator: string;
    avatar: null;
    status: string;
    avatar_url: string;
    channel_id?: string;
    self_mute?: boolean;
  }>;
};

const guild = () => server.world.guildId;
const channel = (name: string) => server.world.channels[name];
const settings = (as = "mod") => server.rest(as).get(Routes.guildWidgetSettings(guild())) as Promise<Settings>;
const modify = (body: Record<string, unknown>, as = "mod", reason?: string) =>
  server.rest(as).patch(Routes.guildWidgetSettings(guild()), { body, reason }) as Promise<Settings>;
const widgetJson = async (guildId = guild()) => {
  const response = await server.api(null, "GET", `/guilds/${guildId}/widget.json`);
  return { status: response.status, body: (await response.json()) as Widget & { code?: number } };
};
const image = (query = "", headers: Record<string, string> = {}, guildId = guild()) =>
  server.api(null, "GET", `/guilds/${guildId}/widget.png${query}`, undefined, headers);

describe("Widget settings", () => {
  test("Manage Server reads them; helper and member 50013; outsider 50001", async () => {
    const current = await settings();
    expectOperationResponse("GET", "/guilds/{guild_id}/widget", 200, current);
    expect(current).toEqual({ enabled: true, channel_id: channel("general") });
    for (const who of ["helper", "member"])
      expect(await fail(settings(who))).toMatchObject({ status: 403, code: 50013 });
    expect(await fail(settings("outsider"))).toMatchObject({ status: 403, code: 50001 });
    expect(await fail(modify({ enabled: false }, "member"))).toMatchObject({ status: 403, code: 50013 });
  });

  test("Modify Guild Widget: a channel of the guild or null; GUILD_UPDATE with the guild and a GUILD_UPDATE audit entry when something changes", async () => {
    const since = await lastEventId();
    const audit = await lastAuditId();
    const moved = await modify({ channel_id: channel("welcome") }, "mod", "widget to #welcome");
    expectOperationResponse("PATCH", "/guilds/{guild_id}/widget", 200, moved);
    expect(moved).toEqual({ enabled: true, channel_id: channel("welcome") });
    const fired = await eventsSince(since);
    expect(fired.map((e) => e.type)).toEqual(["GUILD_UPDATE"]);
    expect(fired[0].d).toMatchObject({
      id: guild(),
      widget_enabled: true,
      widget_channel_id: channel("welcome"),
      name: "Guildhall HQ",
    });
    expect(await auditSince(guild(), audit)).toMatchObject([
      { action_type: 1n, user_id: BigInt(server.world.users.mod), reason: "widget to #welcome" },
    ]);
    expect(JSON.parse((await auditSince(guild(), audit))[0].changes!)).toEqual([
      { key: "widget_channel_id", old_value: channel("general"), new_value: channel("welcome") },
    ]);

    // The same settings again change nothing: no event, no entry.
    const quiet = await lastEventId();
    await modify({ channel_id: channel("welcome"), enabled: true });
    expect(await eventsSince(quiet)).toEqual([]);

    const side = (await sql.get("SELECT id FROM channels WHERE guild_id = ?", BigInt(server.world.sideGuildId))) as {
      id: bigint;
    };
    for (const channelId of [String(side.id), channel("Information"), "123456789"]) {
      const error = await fail(modify({ channel_id: channelId }));
      expect(error?.rawError).toMatchObject({
        code: 50035,
        errors: { channel_id: { _errors: [{ code: "CHANNEL_INVALID" }] } },
      });
    }
    expect(await modify({ channel_id: null })).toEqual({ enabled: true, channel_id: null });
    expect((await widgetJson()).body.instant_invite).toBeNull();
    expect(await modify({ channel_id: channel("general") })).toEqual({ enabled: true, channel_id: channel("general") });
  });
});

describe("Get Guild Widget (widget.json)", () => {
  test("no token: voice channels @everyone sees, up to 100 anonymized online members by username, presence count", async () => {
    const { status, body } = await widgetJson();
    expect(status).toBe(200);
    expectOperationResponse("GET", "/guilds/{guild_id}/widget.json", 200, body);
    expect(body).toMatchObject({ id: guild(), name: "Guildhall HQ" });
    expect(body.channels).toEqual([
      { id: channel("Lounge"), name: "Lounge", position: 0 },
      { id: channel("Gaming"), name: "Gaming", position: 1 },
      { id: channel("Town Hall"), name: "Town Hall", position: 2 },
      { id: channel("AFK"), name: "AFK", position: 3 },
    ]);
    const online = (await sql.all(
      "SELECT u.username FROM members m JOIN users u ON u.id = m.user_id WHERE m.guild_id = ? AND m.status != 'offline' ORDER BY m.username_key",
      BigInt(guild()),
    )) as Array<{ username: string }>;
    expect(body.presence_count).toBe(online.length);
    expect(body.members.map((m) => m.username)).toEqual(online.slice(0, 100).map((r) => r.username));
    body.members.forEach((member, index) => {
      expect(member).toMatchObject({
        id: String(index),
        discriminator: "0000",
        avatar: null,
        status: expect.stringMatching(/^(online|idle|dnd)$/),
      });
      expect(member.avatar_url).toMatch(/^https:\/\//);
    });
    // mod (idle) sits in the Lounge; member (online) is on the Town Hall stage, self-muted.
    expect(body.members.find((m) => m.username === "mod")).toMatchObject({
      status: "idle",
      channel_id: channel("Lounge"),
    });
    expect(body.members.find((m) => m.username === "member")).toMatchObject({
      channel_id: channel("Town Hall"),
      self_mute: true,
      suppress: true,
    });
    expect(body.members.find((m) => m.username === "owner")).not.toHaveProperty("channel_id");
  });

  test("the instant invite is created once for the widget channel (INVITE_CREATE), then reused while valid", async () => {
    await sql.run("DELETE FROM invites WHERE widget = TRUE");
    const since = await lastEventId();
    const first = (await widgetJson()).body.instant_invite!;
    expect(first).toMatch(/\/invite\/[0-9A-Za-z]{8,10}$/);
    const code = first.split("/").at(-1)!;
    const created = await eventsSince(since);
    expect(created.map((e) => e.type)).toEqual(["INVITE_CREATE"]);
    expect(created[0].d).toMatchObject({ code, channel_id: channel("general"), guild_id: guild() });
    expect(created[0].d).not.toHaveProperty("inviter");

    const again = await lastEventId();
    expect((await widgetJson()).body.instant_invite).toBe(first);
    expect(await eventsSince(again)).toEqual([]);
    // It is a real invite of the guild.
    expect(await server.rest("member").get(Routes.invite(code))).toMatchObject({
      code,
      channel: { id: channel("general") },
    });

    // Once expired, a new one replaces it.
    await sql.run("UPDATE invites SET expires_at = ? WHERE code = ?", BigInt(Date.now() - 1), code);
    const replaced = (await widgetJson()).body.instant_invite!;
    expect(replaced).not.toBe(first);

    // While invites are paused there is none to offer.
    await sql.run(
      "UPDATE guilds SET invites_disabled_until = ? WHERE id = ?",
      BigInt(Date.now() + 60_000),
      BigInt(guild()),
    );
    expect((await widgetJson()).body.instant_invite).toBeNull();
    await sql.run("UPDATE guilds SET invites_disabled_until = NULL WHERE id = ?", BigInt(guild()));
  });

  test("a voice channel hidden from @everyone is not listed, and its members show no channel", async () => {
    const overwrites = JSON.stringify([
      { id: guild(), type: 0, allow: "0", deny: String(PermissionFlagsBits.ViewChannel) },
    ]);
    await sql.run("UPDATE channels SET permission_overwrites = ? WHERE id = ?", overwrites, BigInt(channel("Lounge")));
    const { body } = await widgetJson();
    expect(body.channels.map((c) => c.name)).toEqual(["Gaming", "Town Hall", "AFK"]);
    expect(body.members.find((m) => m.username === "mod")).not.toHaveProperty("channel_id");
    await sql.run("UPDATE channels SET permission_overwrites = '[]' WHERE id = ?", BigInt(channel("Lounge")));
  });

  test("an unknown guild is 10004", async () => {
    expect(await widgetJson("123456789")).toMatchObject({ status: 404, body: { code: 10004 } });
  });
});

describe("Get Guild Widget Image (widget.png)", () => {
  test("every style decodes as a PNG of its size; shield is the default; public caching for 5 minutes with an ETag", async () => {
    for (const [style, size] of Object.entries(sizes)) {
      const response = await image(`?style=${style}`);
      expect(response.status, style).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/png");
      expect(response.headers.get("cache-control")).toBe("public, max-age=300");
      expect(response.headers.get("etag")).toMatch(/^".+"$/);
      const png = PNG.sync.read(Buffer.from(await response.arrayBuffer()));
      expect({ width: png.width, height: png.height }, style).toEqual({ width: size.width, height: size.height });
    }
    const plain = await image();
    const shield = await image("?style=shield");
    expect(plain.headers.get("etag")).toBe(shield.headers.get("etag"));
    const banner = await image("?style=banner2");
    expect(banner.headers.get("etag")).not.toBe(shield.headers.get("etag"));
  });

  test("If-None-Match with the ETag answers 304 without a body; a new guild name makes a new image", async () => {
    const first = await image("?style=banner3");
    const etag = first.headers.get("etag")!;
    const cached = await image("?style=banner3", { "if-none-match": etag });
    expect(cached.status).toBe(304);
    expect((await cached.arrayBuffer()).byteLength).toBe(0);
    expect(cached.headers.get("etag")).toBe(etag);
    expect(cached.headers.get("cache-control")).toBe("public, max-age=300");
    expect((await image("?style=banner3", { "if-none-match": '"stale"' })).status).toBe(200);

    await server.rest("mod").patch(Routes.guild(guild()), { body: { name: "Guildhall HQ Renamed" } });
    const renamed = await image("?style=banner3", { "if-none-match": etag });
    expect(renamed.status).toBe(200);
    expect(renamed.headers.get("etag")).not.toBe(etag);
    await server.rest("mod").patch(Routes.guild(guild()), { body: { name: "Guildhall HQ" } });
  });

  test("the guild's PNG icon is drawn into the banners", async () => {
    const redPixels = async () => {
      const png = PNG.sync.read(Buffer.from(await (await image("?style=banner1")).arrayBuffer()));
      let count = 0;
      for (let i = 0; i < png.data.length; i += 4)
        if (png.data[i] > 240 && png.data[i + 1] < 20 && png.data[i + 2] < 20 && png.data[i + 3] > 240) count++;
      return count;
    };
    expect(await redPixels()).toBe(0);
    const icon = new PNG({ width: 64, height: 64 });
    for (let i = 0; i < icon.data.length; i += 4) icon.data.set([255, 0, 0, 255], i);
    const dataUri = `data:image/png;base64,${PNG.sync.write(icon).toString("base64")}`;
    await server.rest("mod").patch(Routes.guild(guild()), { body: { icon: dataUri } });
    expect(await redPixels()).toBeGreaterThan(100);
    await server.rest("mod").patch(Routes.guild(guild()), { body: { icon: null } });
    expect(await redPixels()).toBe(0);
  });

  test("an unknown style is 400 50035; an unknown guild 404 10004", async () => {
    const bad = await image("?style=banner9");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      code: 50035,
      errors: { style: { _errors: [{ code: "BASE_TYPE_CHOICES" }] } },
    });
    const unknown = await image("", {}, "123456789");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 10004 });
  });
});

describe("A disabled widget", () => {
  test("widget.json and widget.png answer 403 50004 Widget Disabled; settings still readable", async () => {
    const since = await lastEventId();
    expect(await modify({ enabled: false })).toEqual({ enabled: false, channel_id: channel("general") });
    expect(await eventsSince(since)).toMatchObject([{ type: "GUILD_UPDATE", d: { widget_enabled: false } }]);
    expect(await widgetJson()).toMatchObject({ status: 403, body: { code: 50004, message: "Widget Disabled" } });
    const png = await image();
    expect(png.status).toBe(403);
    expect(await png.json()).toMatchObject({ code: 50004 });
    expect(await settings()).toEqual({ enabled: false, channel_id: channel("general") });
    await modify({ enabled: true });
    expect((await widgetJson()).status).toBe(200);
  });
});
