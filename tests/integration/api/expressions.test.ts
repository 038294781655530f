// Emoji, stickers and soundboard sounds over HTTP: Discord's shapes (checked against the OpenAPI description) and
// status codes, Create Expressions for one's own uploads and Manage Expressions for everyone's, slots by premium tier
// (30008, 30018, 30039, 30045), files decoded before anything is stored (Discord's 50035, 50045, 50046), the audit
// entries and gateway events in the write transaction, Get Guild's lists, and the files served under /cdn.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { AuditLogEvent, PermissionFlagsBits as P, Routes } from "discord-api-types/v10";
import type { APIEmoji, APISoundboardSound, APISticker } from "discord-api-types/v10";
import { auditEntries, eventsSince, fail, fieldCodes, lastEventId } from "./read-back";
import { testServerForFile } from "../harness";
import { sql } from "@/lib/guild-api/store/db";
import { newSnowflake } from "@/lib/discord/snowflake";
import { dataUri, silentMp3, solidPng, vorbisOgg } from "@/lib/seed/media";
import { gif } from "../../fixtures/gif";
import { expectOperationResponse } from "../openapi";

const server = testServerForFile({ rateLimits: { enabled: false } });
const guild = () => server.world.guildId;
const users = () => server.world.users;

const png128 = solidPng(128, 128);
const emojiBody = (name: string, image = dataUri("image/png", png128), extra: Record<string, unknown> = {}) => ({
  name,
  image,
  ...extra,
});
const createEmoji = (body: Record<string, unknown>, as = "mod", reason?: string) =>
  server.rest(as).post(Routes.guildEmojis(guild()), { body, reason }) as Promise<APIEmoji>;
const createSticker = (
  fields: Record<string, string>,
  file: { data: Buffer; contentType: string; name?: string },
  as = "mod",
) =>
  server.rest(as).post(Routes.guildStickers(guild()), {
    body: fields,
    appendToFormData: true,
    files: [{ key: "file", name: file.name ?? "sticker", data: file.data, contentType: file.contentType }],
  }) as Promise<APISticker>;
const createSound = (body: Record<string, unknown>, as = "mod") =>
  server.rest(as).post(Routes.guildSoundboardSounds(guild()), { body }) as Promise<APISoundboardSound>;

/** Grants (or takes back) the Helper role's Create Expressions, so helpers may upload and change their own. */
const helperMayCreate = (yes: boolean) =>
  sql.run(
    "UPDATE roles SET permissions = ? WHERE id = ?",
    yes ? P.KickMembers | P.ViewAuditLog | P.CreateGuildExpressions : P.KickMembers | P.ViewAuditLog,
    BigInt(server.world.roles.helper),
  );
const setPremiumTier = (tier: number) =>
  sql.run("UPDATE guilds SET premium_tier = ? WHERE id = ?", tier, BigInt(guild()));

const cdn = (path: string) => fetch(`${server.baseUrl}/cdn/${path}`);

beforeAll(() => helperMayCreate(true));
afterAll(async () => {
  await helperMayCreate(false);
  await setPremiumTier(2);
});

describe("emoji", () => {
  test("members list and get them; uploaders are shown only to those who may create or manage", async () => {
    const asMember = (await server.rest("member").get(Routes.guildEmojis(guild()))) as APIEmoji[];
    expectOperationResponse("GET", "/guilds/{guild_id}/emojis", 200, asMember);
    expect(asMember.map((emoji) => emoji.name)).toEqual(["guildhall", "party_blob", "ban_hammer"]);
    expect(asMember[0]).not.toHaveProperty("user");
    const asMod = (await server.rest("mod").get(Routes.guildEmojis(guild()))) as APIEmoji[];
    expect(asMod[0].user?.id).toBe(users().admin);
    const one = (await server.rest("member").get(Routes.guildEmoji(guild(), asMember[1].id!))) as APIEmoji;
    expectOperationResponse("GET", "/guilds/{guild_id}/emojis/{emoji_id}", 200, one);
    expect(one).toMatchObject({ name: "party_blob", animated: true });
    expect(await fail(server.rest("member").get(Routes.guildEmoji(guild(), "1234")))).toMatchObject({
      status: 404,
      code: 10014,
    });
    expect(await fail(server.rest("outsider").get(Routes.guildEmojis(guild())))).toMatchObject({ code: 50001 });
    // The seeded files are served under /cdn.
    const served = await cdn(`emojis/${asMember[0].id}.png`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
  });

  test("create, modify, delete: 201/200/204, GUILD_EMOJIS_UPDATE, audit 60/61/62, the file under /cdn", async () => {
    const before = await lastEventId();
    const emoji = await createEmoji(
      emojiBody("hello_world", undefined, { roles: [server.world.roles.regular] }),
      "mod",
      "new emoji",
    );
    expectOperationResponse("POST", "/guilds/{guild_id}/emojis", 201, emoji);
    expect(emoji).toMatchObject({
      name: "hello_world",
      roles: [server.world.roles.regular],
      animated: false,
      managed: false,
      available: true,
      require_colons: true,
      user: { id: users().mod },
    });
    const events = await eventsSince(before);
    expect(events.map((event) => event.type)).toEqual(["GUILD_EMOJIS_UPDATE"]);
    const d = events[0].d as { guild_id: string; emojis: APIEmoji[] };
    expect(d.guild_id).toBe(guild());
    expect(d.emojis.map((e) => e.name)).toContain("hello_world");
    expect(await auditEntries(guild(), AuditLogEvent.EmojiCreate, emoji.id!)).toEqual([
      expect.objectContaining({
        userId: users().mod,
        reason: "new emoji",
        changes: [{ key: "name", new_value: "hello_world" }],
      }),
    ]);
    const served = await cdn(`emojis/${emoji.id}.png`);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await served.arrayBuffer()).equals(png128)).toBe(true);
    const inGuild = (await server.rest("member").get(Routes.guild(guild()))) as { emojis: APIEmoji[] };
    expect(inGuild.emojis.map((e) => e.name)).toContain("hello_world");

    const modified = (await server.rest("mod").patch(Routes.guildEmoji(guild(), emoji.id!), {
      body: { name: "hello_again", roles: [] },
    })) as APIEmoji;
    expectOperationResponse("PATCH", "/guilds/{guild_id}/emojis/{emoji_id}", 200, modified);
    expect(modified).toMatchObject({ name: "hello_again", roles: [] });
    expect((await auditEntries(guild(), AuditLogEvent.EmojiUpdate, emoji.id!))[0].changes).toEqual([
      { key: "name", old_value: "hello_world", new_value: "hello_again" },
      { key: "roles", old_value: [server.world.roles.regular], new_value: [] },
    ]);

    const beforeDelete = await lastEventId();
    await server.rest("mod").delete(Routes.guildEmoji(guild(), emoji.id!));
    expect((await eventsSince(beforeDelete)).map((event) => event.type)).toEqual(["GUILD_EMOJIS_UPDATE"]);
    expect((await auditEntries(guild(), AuditLogEvent.EmojiDelete, emoji.id!))[0].changes).toEqual([
      { key: "name", old_value: "hello_again" },
    ]);
    expect(await fail(server.rest("mod").get(Routes.guildEmoji(guild(), emoji.id!)))).toMatchObject({ code: 10014 });
    expect((await cdn(`emojis/${emoji.id}.png`)).status).toBe(404);
  });

  test("animated GIFs and APNGs are animated emoji; GIF files are served as GIFs", async () => {
    const animated = await createEmoji(emojiBody("dancing", dataUri("image/gif", gif(32, 32, 3))));
    expect(animated.animated).toBe(true);
    expect((await cdn(`emojis/${animated.id}.gif`)).headers.get("content-type")).toBe("image/gif");
    const apng = await createEmoji(emojiBody("blinking", dataUri("image/png", solidPng(32, 32, 1, { frames: 2 }))));
    expect(apng.animated).toBe(true);
    for (const emoji of [animated, apng]) await server.rest("mod").delete(Routes.guildEmoji(guild(), emoji.id!));
  });

  test("Create Expressions: one's own only; Manage Expressions: anyone's; neither: 50013", async () => {
    const helpers = await createEmoji(emojiBody("helpers_own"), "helper");
    expect(helpers.user?.id).toBe(users().helper);
    const mods = await createEmoji(emojiBody("mods_own"), "mod");
    await server.rest("helper").patch(Routes.guildEmoji(guild(), helpers.id!), { body: { name: "helpers_too" } });
    expect(
      await fail(server.rest("helper").patch(Routes.guildEmoji(guild(), mods.id!), { body: { name: "taken" } })),
    ).toMatchObject({ status: 403, code: 50013 });
    expect(await fail(server.rest("helper").delete(Routes.guildEmoji(guild(), mods.id!)))).toMatchObject({
      code: 50013,
    });
    expect(await fail(createEmoji(emojiBody("nope"), "member"))).toMatchObject({ status: 403, code: 50013 });
    await server.rest("mod").delete(Routes.guildEmoji(guild(), helpers.id!));
    await server
      .rest("helper")
      .delete(Routes.guildEmoji(guild(), mods.id!))
      .catch(() => undefined);
    await server.rest("mod").delete(Routes.guildEmoji(guild(), mods.id!));
  });

  test("names, roles and images are checked; nothing undecodable is stored", async () => {
    const count = async () =>
      Number(await sql.value("SELECT COUNT(*) FROM emojis WHERE guild_id = ?", BigInt(guild())));
    const before = await count();
    expect(fieldCodes(await fail(createEmoji(emojiBody("a"))), "name")).toEqual(["BASE_TYPE_BAD_LENGTH"]);
    expect(fieldCodes(await fail(createEmoji(emojiBody("no spaces"))), "name")).toEqual(["STRING_TYPE_REGEX"]);
    expect(
      fieldCodes(await fail(createEmoji(emojiBody("roles_x", undefined, { roles: ["1234"] }))), "roles", 0),
    ).toEqual(["ROLE_INVALID"]);
    const image = (uri: string) => fail(createEmoji(emojiBody("bad_image", uri)));
    expect(fieldCodes(await image("data:image/png;base64,aGVsbG8="), "image")).toEqual(["IMAGE_INVALID"]);
    expect(fieldCodes(await image(dataUri("text/plain", png128)), "image")).toEqual(["IMAGE_INVALID"]);
    expect(fieldCodes(await image(dataUri("image/png", png128.subarray(0, png128.length - 20))), "image")).toEqual([
      "IMAGE_INVALID",
    ]);
    const large = dataUri("image/png", Buffer.concat([png128, Buffer.alloc(260 * 1024)]));
    expect(fieldCodes(await image(large), "image")).toEqual(["BINARY_TYPE_MAX_SIZE"]);
    expect(await count()).toBe(before);
  });

  test("slots by premium tier: 50 static and 50 animated at tier 0 (30008, 30018)", async () => {
    await setPremiumTier(0);
    const fill = async (animated: boolean, upTo: number) => {
      const have = Number(
        await sql.value(
          "SELECT COUNT(*) FROM emojis WHERE guild_id = ? AND animated = ?",
          BigInt(guild()),
          animated ? 1 : 0,
        ),
      );
      for (let i = have; i < upTo; i++)
        await sql.run(
          "INSERT INTO emojis (id, guild_id, name, roles, animated) VALUES (?, ?, ?, '[]', ?)",
          newSnowflake(),
          BigInt(guild()),
          `filler_${animated ? "a" : "s"}${i}`,
          animated ? 1 : 0,
        );
    };
    try {
      await fill(false, 50);
      expect(await fail(createEmoji(emojiBody("one_more")))).toMatchObject({ status: 400, code: 30008 });
      // Animated slots are counted apart.
      const animated = await createEmoji(emojiBody("still_room", dataUri("image/gif", gif(16, 16, 2))));
      await fill(true, 50);
      expect(await fail(createEmoji(emojiBody("one_more", dataUri("image/gif", gif(16, 16, 2)))))).toMatchObject({
        code: 30018,
      });
      await setPremiumTier(1);
      await server.rest("mod").delete(Routes.guildEmoji(guild(), animated.id!));
      const fits = await createEmoji(emojiBody("tier_one"));
      await server.rest("mod").delete(Routes.guildEmoji(guild(), fits.id!));
    } finally {
      await sql.run("DELETE FROM emojis WHERE guild_id = ? AND name LIKE 'filler_%'", BigInt(guild()));
      await setPremiumTier(2);
    }
  });
});

describe("stickers", () => {
  const png320 = solidPng(320, 320);

  test("list and get; create from multipart (PNG, APNG, GIF), modify, delete, with events and audit entries", async () => {
    const listed = (await server.rest("member").get(Routes.guildStickers(guild()))) as APISticker[];
    expectOperationResponse("GET", "/guilds/{guild_id}/stickers", 200, listed);
    expect(listed.map((sticker) => [sticker.name, sticker.format_type])).toEqual([
      ["Wave", 1],
      ["Party", 2],
    ]);

    const before = await lastEventId();
    const sticker = await createSticker(
      { name: "Thumbs", tags: "thumbsup", description: "Nice one" },
      { data: png320, contentType: "image/png", name: "thumbs.png" },
    );
    expectOperationResponse("POST", "/guilds/{guild_id}/stickers", 201, sticker);
    expect(sticker).toMatchObject({
      name: "Thumbs",
      tags: "thumbsup",
      description: "Nice one",
      type: 2,
      format_type: 1,
      available: true,
      guild_id: guild(),
      user: { id: users().mod },
    });
    expect((await eventsSince(before)).map((event) => event.type)).toEqual(["GUILD_STICKERS_UPDATE"]);
    expect((await auditEntries(guild(), AuditLogEvent.StickerCreate, sticker.id))[0].changes).toEqual([
      { key: "name", new_value: "Thumbs" },
      { key: "tags", new_value: "thumbsup" },
      { key: "description", new_value: "Nice one" },
      { key: "format_type", new_value: 1 },
    ]);
    const served = await cdn(`stickers/${sticker.id}.png`);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await served.arrayBuffer()).equals(png320)).toBe(true);
    const got = (await server.rest("member").get(Routes.guildSticker(guild(), sticker.id))) as APISticker;
    expectOperationResponse("GET", "/guilds/{guild_id}/stickers/{sticker_id}", 200, got);
    const inGuild = (await server.rest("member").get(Routes.guild(guild()))) as { stickers: APISticker[] };
    expect(inGuild.stickers.map((s) => s.name)).toContain("Thumbs");

    const modified = (await server.rest("mod").patch(Routes.guildSticker(guild(), sticker.id), {
      body: { name: "Thumbs up", description: "" },
    })) as APISticker;
    expectOperationResponse("PATCH", "/guilds/{guild_id}/stickers/{sticker_id}", 200, modified);
    expect(modified).toMatchObject({ name: "Thumbs up", description: null, tags: "thumbsup" });
    expect((await auditEntries(guild(), AuditLogEvent.StickerUpdate, sticker.id))[0].changes).toEqual([
      { key: "name", old_value: "Thumbs", new_value: "Thumbs up" },
      { key: "description", old_value: "Nice one", new_value: null },
    ]);

    const apng = await createSticker(
      { name: "Blink", tags: "eyes" },
      { data: solidPng(320, 320, 1, { frames: 3 }), contentType: "image/png" },
    );
    expect(apng.format_type).toBe(2);
    const animatedGif = await createSticker(
      { name: "Spin", tags: "spin" },
      { data: gif(320, 320, 2), contentType: "image/gif" },
    );
    expect(animatedGif.format_type).toBe(4);
    expect((await cdn(`stickers/${animatedGif.id}.gif`)).headers.get("content-type")).toBe("image/gif");

    for (const id of [sticker.id, apng.id, animatedGif.id])
      await server.rest("mod").delete(Routes.guildSticker(guild(), id));
    expect((await auditEntries(guild(), AuditLogEvent.StickerDelete, sticker.id)).length).toBe(1);
    expect(await fail(server.rest("mod").get(Routes.guildSticker(guild(), sticker.id)))).toMatchObject({
      status: 404,
      code: 10060,
    });
    expect((await cdn(`stickers/${sticker.id}.png`)).status).toBe(404);
  });

  test("files must be what they say, 320 × 320 and at most 512 KiB; Lottie only for verified or partnered guilds", async () => {
    const count = async () =>
      Number(await sql.value("SELECT COUNT(*) FROM stickers WHERE guild_id = ?", BigInt(guild())));
    const before = await count();
    const fields = { name: "Bad", tags: "bad" };
    expect(await fail(createSticker(fields, { data: png320, contentType: "image/gif" }))).toMatchObject({
      code: 50046,
    });
    expect(await fail(createSticker(fields, { data: Buffer.from("hello"), contentType: "image/png" }))).toMatchObject({
      code: 50046,
    });
    expect(
      fieldCodes(await fail(createSticker(fields, { data: solidPng(128, 128), contentType: "image/png" })), "file"),
    ).toEqual(["IMAGE_DIMENSIONS_INVALID"]);
    const large = Buffer.concat([png320, Buffer.alloc(520 * 1024)]);
    expect(await fail(createSticker(fields, { data: large, contentType: "image/png" }))).toMatchObject({ code: 50045 });
    const lottie = Buffer.from(JSON.stringify({ w: 320, h: 320, fr: 30, ip: 0, op: 30, layers: [] }));
    expect(await fail(createSticker(fields, { data: lottie, contentType: "application/json" }))).toMatchObject({
      code: 50046,
    });
    expect(
      fieldCodes(
        await fail(createSticker({ name: "B", tags: "x" }, { data: png320, contentType: "image/png" })),
        "name",
      ),
    ).toEqual(["BASE_TYPE_BAD_LENGTH"]);
    expect(await count()).toBe(before);
  });

  test("Create Expressions: one's own; slots by tier (5 at tier 0: 30039)", async () => {
    const helpers = await createSticker(
      { name: "Mine", tags: "mine" },
      { data: png320, contentType: "image/png" },
      "helper",
    );
    const seeded = ((await server.rest("member").get(Routes.guildStickers(guild()))) as APISticker[])[0];
    expect(
      await fail(server.rest("helper").patch(Routes.guildSticker(guild(), seeded.id), { body: { name: "Taken" } })),
    ).toMatchObject({ code: 50013 });
    await server.rest("helper").patch(Routes.guildSticker(guild(), helpers.id), { body: { tags: "still mine" } });
    expect(
      await fail(createSticker({ name: "Nope", tags: "nope" }, { data: png320, contentType: "image/png" }, "member")),
    ).toMatchObject({ code: 50013 });

    await setPremiumTier(0);
    try {
      const made: string[] = [helpers.id];
      for (let i = 3; i < 5; i++)
        made.push(
          (await createSticker({ name: `Fill ${i}`, tags: "fill" }, { data: png320, contentType: "image/png" })).id,
        );
      expect(
        await fail(createSticker({ name: "Sixth", tags: "x" }, { data: png320, contentType: "image/png" })),
      ).toMatchObject({
        status: 400,
        code: 30039,
      });
      for (const id of made) await server.rest("mod").delete(Routes.guildSticker(guild(), id));
    } finally {
      await setPremiumTier(2);
    }
  });
});

describe("soundboard", () => {
  test("list ({ items }), get, create MP3 and OGG, modify, delete, with dispatches and audit entries", async () => {
    const listed = (await server.rest("member").get(Routes.guildSoundboardSounds(guild()))) as {
      items: APISoundboardSound[];
    };
    expectOperationResponse("GET", "/guilds/{guild_id}/soundboard-sounds", 200, listed);
    expect(listed.items.map((sound) => sound.name)).toEqual(["airhorn", "applause", "party"]);

    const mp3 = silentMp3(100);
    const before = await lastEventId();
    const sound = await createSound({ name: "boop", sound: dataUri("audio/mpeg", mp3), volume: 0.5, emoji_name: "🔔" });
    expectOperationResponse("POST", "/guilds/{guild_id}/soundboard-sounds", 201, sound);
    expect(sound).toMatchObject({
      name: "boop",
      volume: 0.5,
      emoji_id: null,
      emoji_name: "🔔",
      guild_id: guild(),
      available: true,
      user: { id: users().mod },
    });
    const events = await eventsSince(before);
    expect(events.map((event) => event.type)).toEqual(["GUILD_SOUNDBOARD_SOUND_CREATE"]);
    expect(events[0].d).toMatchObject({ sound_id: sound.sound_id, guild_id: guild(), name: "boop" });
    expect((await auditEntries(guild(), AuditLogEvent.SoundboardSoundCreate, sound.sound_id))[0].changes).toEqual([
      { key: "name", new_value: "boop" },
      { key: "volume", new_value: 0.5 },
      { key: "emoji_name", new_value: "🔔" },
    ]);
    const served = await cdn(`soundboard-sounds/${sound.sound_id}`);
    expect(served.headers.get("content-type")).toBe("audio/mpeg");
    expect(Buffer.from(await served.arrayBuffer()).equals(mp3)).toBe(true);
    const got = (await server
      .rest("member")
      .get(Routes.guildSoundboardSound(guild(), sound.sound_id))) as APISoundboardSound;
    expectOperationResponse("GET", "/guilds/{guild_id}/soundboard-sounds/{sound_id}", 200, got);

    const emojiId = ((await server.rest("member").get(Routes.guildEmojis(guild()))) as APIEmoji[])[0].id!;
    const beforeModify = await lastEventId();
    const modified = (await server.rest("mod").patch(Routes.guildSoundboardSound(guild(), sound.sound_id), {
      body: { volume: 1, emoji_id: emojiId },
    })) as APISoundboardSound;
    expectOperationResponse("PATCH", "/guilds/{guild_id}/soundboard-sounds/{sound_id}", 200, modified);
    expect(modified).toMatchObject({ volume: 1, emoji_id: emojiId, emoji_name: null, name: "boop" });
    expect((await eventsSince(beforeModify)).map((event) => event.type)).toEqual(["GUILD_SOUNDBOARD_SOUND_UPDATE"]);

    const ogg = await createSound({ name: "ogg sound", sound: dataUri("audio/ogg", vorbisOgg(44100 * 4)) });
    expect((await cdn(`soundboard-sounds/${ogg.sound_id}`)).headers.get("content-type")).toBe("audio/ogg");

    const beforeDelete = await lastEventId();
    await server.rest("mod").delete(Routes.guildSoundboardSound(guild(), sound.sound_id));
    await server.rest("mod").delete(Routes.guildSoundboardSound(guild(), ogg.sound_id));
    expect(await eventsSince(beforeDelete)).toEqual([
      { type: "GUILD_SOUNDBOARD_SOUND_DELETE", d: { sound_id: sound.sound_id, guild_id: guild() } },
      { type: "GUILD_SOUNDBOARD_SOUND_DELETE", d: { sound_id: ogg.sound_id, guild_id: guild() } },
    ]);
    expect(await fail(server.rest("mod").get(Routes.guildSoundboardSound(guild(), sound.sound_id)))).toMatchObject({
      status: 404,
      code: 10097,
    });
    expect((await cdn(`soundboard-sounds/${sound.sound_id}`)).status).toBe(404);
  });

  test("sounds are measured: over 5.2 s, not MP3/OGG or mislabelled, too large; emoji must be the guild's", async () => {
    const count = async () =>
      Number(await sql.value("SELECT COUNT(*) FROM soundboard_sounds WHERE guild_id = ?", BigInt(guild())));
    const before = await count();
    const sound = (uri: string) => fail(createSound({ name: "bad", sound: uri }));
    expect(fieldCodes(await sound(dataUri("audio/mpeg", silentMp3(250))), "sound")).toEqual([
      "AUDIO_DURATION_TOO_LONG",
    ]);
    expect(fieldCodes(await sound(dataUri("audio/ogg", vorbisOgg(44100 * 6))), "sound")).toEqual([
      "AUDIO_DURATION_TOO_LONG",
    ]);
    expect(fieldCodes(await sound(dataUri("audio/ogg", silentMp3(20))), "sound")).toEqual(["AUDIO_INVALID"]);
    expect(fieldCodes(await sound(dataUri("audio/mpeg", Buffer.from("ID3 not really"))), "sound")).toEqual([
      "AUDIO_INVALID",
    ]);
    expect(fieldCodes(await sound(dataUri("audio/mpeg", silentMp3(1300))), "sound")).toEqual(["BINARY_TYPE_MAX_SIZE"]);
    const short = dataUri("audio/mpeg", silentMp3(10));
    expect(fieldCodes(await fail(createSound({ name: "xx", sound: short, emoji_id: "1234" })), "emoji_id")).toEqual([
      "EMOJI_INVALID",
    ]);
    expect(fieldCodes(await fail(createSound({ name: "xx", sound: short, emoji_name: "abc" })), "emoji_name")).toEqual([
      "EMOJI_INVALID",
    ]);
    expect(fieldCodes(await fail(createSound({ name: "xx", sound: short, volume: 2 })), "volume").length).toBe(1);
    expect(await count()).toBe(before);
  });

  test("Create Expressions: one's own; slots by tier (8 at tier 0: 30045)", async () => {
    const short = dataUri("audio/mpeg", silentMp3(10));
    const helpers = await createSound({ name: "helper sound", sound: short }, "helper");
    const seeded = (
      (await server.rest("member").get(Routes.guildSoundboardSounds(guild()))) as { items: APISoundboardSound[] }
    ).items[0];
    expect(
      await fail(server.rest("helper").delete(Routes.guildSoundboardSound(guild(), seeded.sound_id))),
    ).toMatchObject({
      code: 50013,
    });
    expect(await fail(createSound({ name: "nope", sound: short }, "member"))).toMatchObject({ code: 50013 });
    await setPremiumTier(0);
    try {
      const made = [helpers.sound_id];
      for (let i = 4; i < 8; i++) made.push((await createSound({ name: `fill ${i}`, sound: short })).sound_id);
      expect(await fail(createSound({ name: "ninth", sound: short }))).toMatchObject({ status: 400, code: 30045 });
      await server.rest("helper").delete(Routes.guildSoundboardSound(guild(), helpers.sound_id));
      for (const id of made.slice(1)) await server.rest("mod").delete(Routes.guildSoundboardSound(guild(), id));
    } finally {
      await setPremiumTier(2);
    }
  });
});
