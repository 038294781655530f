// Emoji, stickers and soundboard sounds: List, Get, Create, Modify and Delete of each.
import { Errors } from "../errors";
import { created, noContent, ok, parseWith, route, type RouteContext, type RouteDefinition } from "../http";
import { BODY_LIMITS } from "../request-body";
import { authorizedGuildAccess, guildAccess, snowflakeParam } from "../guards";
import {
  CreateGuildEmojiBodySchema,
  CreateGuildSoundboardSoundBodySchema,
  CreateGuildStickerBodySchema,
  ModifyGuildEmojiBodySchema,
  ModifyGuildSoundboardSoundBodySchema,
  ModifyGuildStickerBodySchema,
} from "../schemas/expressions";
import {
  createGuildEmoji,
  createGuildSoundboardSound,
  createGuildSticker,
  deleteGuildEmoji,
  deleteGuildSoundboardSound,
  deleteGuildSticker,
  getGuildEmoji,
  getGuildSoundboardSound,
  getGuildSticker,
  listGuildEmojis,
  listGuildSoundboardSounds,
  listGuildStickers,
  modifyGuildEmoji,
  modifyGuildSoundboardSound,
  modifyGuildSticker,
  type StickerUpload,
} from "../services/expressions";

// An emoji's or a sound's file travels as a base64 data URI in the JSON body.
const DATA_URI_BODY = { bodyLimit: BODY_LIMITS.images };

/** Create Guild Sticker's multipart form: its text fields through the schema, and the `file` part's bytes and type. */
async function readStickerForm(ctx: RouteContext) {
  const form = ctx.formData();
  const fields: Record<string, string> = {};
  for (const key of ["name", "tags", "description"]) {
    const value = form.get(key);
    if (typeof value === "string") fields[key] = value;
  }
  const body = parseWith(CreateGuildStickerBodySchema, fields);
  const file = form.get("file");
  if (file === null || typeof file === "string")
    throw Errors.invalidField(["file"], "BASE_TYPE_REQUIRED", "This field is required");
  const upload: StickerUpload = { bytes: Buffer.from(await file.arrayBuffer()), type: file.type };
  return { body, upload };
}

export const expressionRoutes: RouteDefinition[] = [
  // GET /guilds/{guild.id}/emojis: List Guild Emojis
  route("GET", "/guilds/:guildId/emojis", "List Guild Emojis", async (ctx) =>
    ok(await listGuildEmojis(await guildAccess(ctx))),
  ),

  // GET /guilds/{guild.id}/emojis/{emoji.id}: Get Guild Emoji
  route("GET", "/guilds/:guildId/emojis/:emojiId", "Get Guild Emoji", async (ctx) =>
    ok(await getGuildEmoji(await guildAccess(ctx), snowflakeParam(ctx, "emojiId"))),
  ),

  // POST /guilds/{guild.id}/emojis: Create Guild Emoji
  route(
    "POST",
    "/guilds/:guildId/emojis",
    "Create Guild Emoji",
    async (ctx) => {
      const access = await authorizedGuildAccess(ctx, "Create Guild Emoji");
      return created(await createGuildEmoji(access, ctx.json(CreateGuildEmojiBodySchema), ctx.auditReason));
    },
    DATA_URI_BODY,
  ),

  // PATCH /guilds/{guild.id}/emojis/{emoji.id}: Modify Guild Emoji
  route("PATCH", "/guilds/:guildId/emojis/:emojiId", "Modify Guild Emoji", async (ctx) => {
    const access = await authorizedGuildAccess(ctx, "Modify Guild Emoji");
    const emojiId = snowflakeParam(ctx, "emojiId");
    return ok(await modifyGuildEmoji(access, emojiId, ctx.json(ModifyGuildEmojiBodySchema), ctx.auditReason));
  }),

  // DELETE /guilds/{guild.id}/emojis/{emoji.id}: Delete Guild Emoji
  route("DELETE", "/guilds/:guildId/emojis/:emojiId", "Delete Guild Emoji", async (ctx) => {
    await deleteGuildEmoji(await guildAccess(ctx), snowflakeParam(ctx, "emojiId"), ctx.auditReason);
    return noContent();
  }),

  // GET /guilds/{guild.id}/stickers: List Guild Stickers
  route("GET", "/guilds/:guildId/stickers", "List Guild Stickers", async (ctx) =>
    ok(await listGuildStickers(await guildAccess(ctx))),
  ),

  // GET /guilds/{guild.id}/stickers/{sticker.id}: Get Guild Sticker
  route("GET", "/guilds/:guildId/stickers/:stickerId", "Get Guild Sticker", async (ctx) =>
    ok(await getGuildSticker(await guildAccess(ctx), snowflakeParam(ctx, "stickerId"))),
  ),

  // POST /guilds/{guild.id}/stickers: Create Guild Sticker (multipart: name, tags, description, file)
  route(
    "POST",
    "/guilds/:guildId/stickers",
    "Create Guild Sticker",
    async (ctx) => {
      const access = await authorizedGuildAccess(ctx, "Create Guild Sticker");
      const { body, upload } = await readStickerForm(ctx);
      return created(await createGuildSticker(access, body, upload, ctx.auditReason));
    },
    { bodyLimit: BODY_LIMITS.upload },
  ),

  // PATCH /guilds/{guild.id}/stickers/{sticker.id}: Modify Guild Sticker
  route("PATCH", "/guilds/:guildId/stickers/:stickerId", "Modify Guild Sticker", async (ctx) => {
    const access = await authorizedGuildAccess(ctx, "Modify Guild Sticker");
    const stickerId = snowflakeParam(ctx, "stickerId");
    return ok(await modifyGuildSticker(access, stickerId, ctx.json(ModifyGuildStickerBodySchema), ctx.auditReason));
  }),

  // DELETE /guilds/{guild.id}/stickers/{sticker.id}: Delete Guild Sticker
  route("DELETE", "/guilds/:guildId/stickers/:stickerId", "Delete Guild Sticker", async (ctx) => {
    await deleteGuildSticker(await guildAccess(ctx), snowflakeParam(ctx, "stickerId"), ctx.auditReason);
    return noContent();
  }),

  // GET /guilds/{guild.id}/soundboard-sounds: List Guild Soundboard Sounds
  route("GET", "/guilds/:guildId/soundboard-sounds", "List Guild Soundboard Sounds", async (ctx) =>
    ok(await listGuildSoundboardSounds(await guildAccess(ctx))),
  ),

  // GET /guilds/{guild.id}/soundboard-sounds/{sound.id}: Get Guild Soundboard Sound
  route("GET", "/guilds/:guildId/soundboard-sounds/:soundId", "Get Guild Soundboard Sound", async (ctx) =>
    ok(await getGuildSoundboardSound(await guildAccess(ctx), snowflakeParam(ctx, "soundId"))),
  ),

  // POST /guilds/{guild.id}/soundboard-sounds: Create Guild Soundboard Sound
  route(
    "POST",
    "/guilds/:guildId/soundboard-sounds",
    "Create Guild Soundboard Sound",
    async (ctx) => {
      const access = await authorizedGuildAccess(ctx, "Create Guild Soundboard Sound");
      const body = ctx.json(CreateGuildSoundboardSoundBodySchema);
      return created(await createGuildSoundboardSound(access, body, ctx.auditReason));
    },
    DATA_URI_BODY,
  ),

  // PATCH /guilds/{guild.id}/soundboard-sounds/{sound.id}: Modify Guild Soundboard Sound
  route("PATCH", "/guilds/:guildId/soundboard-sounds/:soundId", "Modify Guild Soundboard Sound", async (ctx) => {
    const access = await authorizedGuildAccess(ctx, "Modify Guild Soundboard Sound");
    const soundId = snowflakeParam(ctx, "soundId");
    const body = ctx.json(ModifyGuildSoundboardSoundBodySchema);
    return ok(await modifyGuildSoundboardSound(access, soundId, body, ctx.auditReason));
  }),

  // DELETE /guilds/{guild.id}/soundboard-sounds/{sound.id}: Delete Guild Soundboard Sound
  route("DELETE", "/guilds/:guildId/soundboard-sounds/:soundId", "Delete Guild Soundboard Sound", async (ctx) => {
    await deleteGuildSoundboardSound(await guildAccess(ctx), snowflakeParam(ctx, "soundId"), ctx.auditReason);
    return noContent();
  }),
];
