"use server";

// Server actions of the emoji, stickers and soundboard pages. Files arrive as data URIs and go to the API as they
// are (emoji, sounds) or as a multipart file (stickers); the history keeps the names, never the files.
import { PermissionFlagsBits, type APIEmoji, type APISoundboardSound, type APISticker } from "discord-api-types/v10";
import type { OperationName } from "@/lib/discord/policies";
import { guildAction } from "./guild-action";
import type { ModeratorCheck } from "./moderator";
import {
  CreateEmojiInputSchema,
  CreateSoundInputSchema,
  CreateStickerInputSchema,
  DeleteEmojiInputSchema,
  DeleteSoundInputSchema,
  DeleteStickerInputSchema,
  ModifyEmojiInputSchema,
  ModifySoundInputSchema,
  ModifyStickerInputSchema,
} from "./schemas/expressions";
import { pick } from "./snapshots";

const emojiView = (emoji: APIEmoji) => pick(emoji, ["id", "name", "roles", "animated"]);
const stickerView = (sticker: APISticker) => pick(sticker, ["id", "name", "tags", "description", "format_type"]);
const soundView = (sound: APISoundboardSound) => pick(sound, ["sound_id", "name", "volume", "emoji_id", "emoji_name"]);
const nameOf = (value: unknown) => (value as { name?: string } | null | undefined)?.name ?? null;

/** A data URI's bytes and declared media type. */
function fromDataUri(uri: string): { type: string; bytes: Buffer } {
  const comma = uri.indexOf(",");
  const type = /^data:([^;,]+)/.exec(uri)?.[1] ?? "application/octet-stream";
  return { type, bytes: Buffer.from(uri.slice(comma + 1), "base64") };
}

/** POST /guilds/{guild.id}/emojis: Create Guild Emoji */
export const createGuildEmojiAction = guildAction({
  action: "Create Guild Emoji",
  schema: CreateEmojiInputSchema,
  target: (input, { result }) => ({
    type: "emoji",
    id: (result as APIEmoji | undefined)?.id ?? null,
    name: input.name,
  }),
  request: (input) => ({ name: input.name }),
  authorize: (check) => check.may("Create Guild Emoji"),
  run: ({ api, guildId, input, reason }) =>
    api.expressions.createEmoji(guildId, { name: input.name, image: input.image }, { reason }),
  after: emojiView,
  message: (emoji) => `Uploaded :${emoji.name}:.`,
});

/**
 * Bot mode's rule for changing an upload: the API sees only the bot, whose every upload through the dashboard is its
 * own, so whose it was cannot be told there. Renaming or deleting one needs Manage Expressions, not only Create
 * Expressions (which lets its holder change their own uploads, as the API judges in user mode).
 */
const mayChangeUpload = (check: ModeratorCheck, operation: OperationName) =>
  check.may(operation) ?? check.missing(PermissionFlagsBits.ManageGuildExpressions);

/** PATCH /guilds/{guild.id}/emojis/{emoji.id}: Modify Guild Emoji */
export const modifyGuildEmojiAction = guildAction({
  action: "Modify Guild Emoji",
  schema: ModifyEmojiInputSchema,
  target: (input, { before }) => ({ type: "emoji", id: input.emojiId, name: nameOf(before) ?? input.name }),
  authorize: (check) => mayChangeUpload(check, "Modify Guild Emoji"),
  before: async ({ api, guildId, input }) => emojiView(await api.expressions.getEmoji(guildId, input.emojiId)),
  run: ({ api, guildId, input, reason }) =>
    api.expressions.editEmoji(guildId, input.emojiId, { name: input.name }, { reason }),
  after: emojiView,
  message: (emoji) => `Renamed to :${emoji.name}:.`,
});

/** DELETE /guilds/{guild.id}/emojis/{emoji.id}: Delete Guild Emoji */
export const deleteGuildEmojiAction = guildAction({
  action: "Delete Guild Emoji",
  schema: DeleteEmojiInputSchema,
  target: (input, { before }) => ({ type: "emoji", id: input.emojiId, name: nameOf(before) ?? input.name }),
  authorize: (check) => mayChangeUpload(check, "Delete Guild Emoji"),
  before: async ({ api, guildId, input }) => emojiView(await api.expressions.getEmoji(guildId, input.emojiId)),
  run: ({ api, guildId, input, reason }) => api.expressions.deleteEmoji(guildId, input.emojiId, { reason }),
  message: (_result, input, { before }) => `Deleted :${nameOf(before) ?? input.name}:.`,
});

/** POST /guilds/{guild.id}/stickers: Create Guild Sticker */
export const createGuildStickerAction = guildAction({
  action: "Create Guild Sticker",
  schema: CreateStickerInputSchema,
  target: (input, { result }) => ({
    type: "sticker",
    id: (result as APISticker | undefined)?.id ?? null,
    name: input.name,
  }),
  request: (input) => ({ name: input.name, tags: input.tags, description: input.description }),
  authorize: (check) => check.may("Create Guild Sticker"),
  run: ({ api, guildId, input, reason }) => {
    const { type, bytes } = fromDataUri(input.file);
    return api.expressions.createSticker(
      guildId,
      {
        name: input.name,
        tags: input.tags,
        description: input.description || null,
        file: new Blob([new Uint8Array(bytes)], { type }),
        fileName: input.fileName,
      },
      { reason },
    );
  },
  after: stickerView,
  message: (sticker) => `Uploaded the sticker ${sticker.name}.`,
});

/** PATCH /guilds/{guild.id}/stickers/{sticker.id}: Modify Guild Sticker */
export const modifyGuildStickerAction = guildAction({
  action: "Modify Guild Sticker",
  schema: ModifyStickerInputSchema,
  target: (input, { before }) => ({ type: "sticker", id: input.stickerId, name: nameOf(before) ?? input.name }),
  authorize: (check) => mayChangeUpload(check, "Modify Guild Sticker"),
  before: async ({ api, guildId, input }) => stickerView(await api.expressions.getSticker(guildId, input.stickerId)),
  run: ({ api, guildId, input, reason }) =>
    api.expressions.editSticker(
      guildId,
      input.stickerId,
      { name: input.name, tags: input.tags, description: input.description || null },
      { reason },
    ),
  after: stickerView,
  message: (sticker) => `Saved the sticker ${sticker.name}.`,
});

/** DELETE /guilds/{guild.id}/stickers/{sticker.id}: Delete Guild Sticker */
export const deleteGuildStickerAction = guildAction({
  action: "Delete Guild Sticker",
  schema: DeleteStickerInputSchema,
  target: (input, { before }) => ({ type: "sticker", id: input.stickerId, name: nameOf(before) ?? input.name }),
  authorize: (check) => mayChangeUpload(check, "Delete Guild Sticker"),
  before: async ({ api, guildId, input }) => stickerView(await api.expressions.getSticker(guildId, input.stickerId)),
  run: ({ api, guildId, input, reason }) => api.expressions.deleteSticker(guildId, input.stickerId, { reason }),
  message: (_result, input, { before }) => `Deleted the sticker ${nameOf(before) ?? input.name}.`,
});

/** POST /guilds/{guild.id}/soundboard-sounds: Create Guild Soundboard Sound */
export const createGuildSoundboardSoundAction = guildAction({
  action: "Create Guild Soundboard Sound",
  schema: CreateSoundInputSchema,
  target: (input, { result }) => ({
    type: "soundboard_sound",
    id: (result as APISoundboardSound | undefined)?.sound_id ?? null,
    name: input.name,
  }),
  request: (input) => ({ name: input.name, volume: input.volume, emoji_name: input.emoji_name || null }),
  authorize: (check) => check.may("Create Guild Soundboard Sound"),
  run: ({ api, guildId, input, reason }) =>
    api.expressions.createSoundboardSound(
      guildId,
      { name: input.name, sound: input.sound, volume: input.volume, emoji_name: input.emoji_name || null },
      { reason },
    ),
  after: soundView,
  message: (sound) => `Added the sound ${sound.name}.`,
});

/** PATCH /guilds/{guild.id}/soundboard-sounds/{sound.id}: Modify Guild Soundboard Sound */
export const modifyGuildSoundboardSoundAction = guildAction({
  action: "Modify Guild Soundboard Sound",
  schema: ModifySoundInputSchema,
  target: (input, { before }) => ({ type: "soundboard_sound", id: input.soundId, name: nameOf(before) ?? input.name }),
  authorize: (check) => mayChangeUpload(check, "Modify Guild Soundboard Sound"),
  before: async ({ api, guildId, input }) =>
    soundView(await api.expressions.getSoundboardSound(guildId, input.soundId)),
  run: ({ api, guildId, input, reason }) =>
    api.expressions.editSoundboardSound(
      guildId,
      input.soundId,
      {
        name: input.name,
        volume: input.volume,
        ...(input.emoji_name === undefined ? {} : { emoji_name: input.emoji_name || null }),
      },
      { reason },
    ),
  after: soundView,
  message: (sound) => `Saved the sound ${sound.name}.`,
});

/** DELETE /guilds/{guild.id}/soundboard-sounds/{sound.id}: Delete Guild Soundboard Sound */
export const deleteGuildSoundboardSoundAction = guildAction({
  action: "Delete Guild Soundboard Sound",
  schema: DeleteSoundInputSchema,
  target: (input, { before }) => ({ type: "soundboard_sound", id: input.soundId, name: nameOf(before) ?? input.name }),
  authorize: (check) => mayChangeUpload(check, "Delete Guild Soundboard Sound"),
  before: async ({ api, guildId, input }) =>
    soundView(await api.expressions.getSoundboardSound(guildId, input.soundId)),
  run: ({ api, guildId, input, reason }) => api.expressions.deleteSoundboardSound(guildId, input.soundId, { reason }),
  message: (_result, input, { before }) => `Deleted the sound ${nameOf(before) ?? input.name}.`,
});
