// Emoji, stickers and soundboard sounds: the forms' values and the actions' inputs, with Discord's limits (shared
// with the API: lib/discord/limits.ts). Files travel from the browser as data URIs; the API decodes them.
import { z } from "zod";
import {
  EMOJI_CUSTOM_NAME_LENGTH,
  EMOJI_CUSTOM_NAME_PATTERN,
  EMOJI_IMAGE_MAX_BYTES,
  SOUND_EMOJI_NAME_MAX,
  SOUND_MAX_BYTES,
  SOUND_NAME_LENGTH,
  STICKER_DESCRIPTION_LENGTH,
  STICKER_FILE_MAX_BYTES,
  STICKER_NAME_LENGTH,
  STICKER_TAGS_LENGTH,
} from "@/lib/discord/limits";
import { guildActionBase, snowflakeSchema } from "./common";

/** A data URI's length for `bytes` of payload, base64, with room for its header. */
const dataUriMax = (bytes: number) => Math.ceil(bytes / 3) * 4 + 100;
const dataUri = (prefix: string, maxBytes: number, what: string) =>
  z
    .string()
    .startsWith(prefix, `Not ${what}.`)
    .max(dataUriMax(maxBytes), `The file is too large: at most ${Math.round(maxBytes / 1024)} KB.`);

const between = (min: number, max: number, what: string) =>
  z
    .string()
    .trim()
    .min(min, `${what} must be ${min} to ${max} characters.`)
    .max(max, `${what} must be ${min} to ${max} characters.`);

export const EmojiNameSchema = between(EMOJI_CUSTOM_NAME_LENGTH.min, EMOJI_CUSTOM_NAME_LENGTH.max, "A name").regex(
  EMOJI_CUSTOM_NAME_PATTERN,
  "Only letters, numbers and underscores.",
);

/** A file's name as an emoji name: letters, digits and underscores, 2–32 of them ("party blob.png" → party_blob). */
export function emojiNameFromFile(fileName: string): string {
  const base = fileName
    .replace(/\.[^.]*$/, "")
    .replace(/[^A-Za-z0-9_]+/g, "_")
    .replace(/^_+|_+$/g, "");
  const name = base.slice(0, EMOJI_CUSTOM_NAME_LENGTH.max);
  return name.length >= EMOJI_CUSTOM_NAME_LENGTH.min ? name : `emoji_${name}`.slice(0, EMOJI_CUSTOM_NAME_LENGTH.max);
}

export const EmojiFieldsSchema = z.object({ name: EmojiNameSchema });
export type EmojiFieldsValues = z.infer<typeof EmojiFieldsSchema>;

export const CreateEmojiInputSchema = z.object({
  ...guildActionBase,
  name: EmojiNameSchema,
  image: dataUri("data:image/", EMOJI_IMAGE_MAX_BYTES, "an image"),
});
export type CreateEmojiInput = z.input<typeof CreateEmojiInputSchema>;

export const ModifyEmojiInputSchema = EmojiFieldsSchema.extend({ ...guildActionBase, emojiId: snowflakeSchema });
export type ModifyEmojiInput = z.input<typeof ModifyEmojiInputSchema>;

export const DeleteEmojiInputSchema = z.object({ ...guildActionBase, emojiId: snowflakeSchema, name: z.string() });

export const StickerFieldsSchema = z.object({
  name: between(STICKER_NAME_LENGTH.min, STICKER_NAME_LENGTH.max, "A name"),
  /** Discord's autocomplete tags: the emoji or words it is suggested for. */
  tags: between(STICKER_TAGS_LENGTH.min, STICKER_TAGS_LENGTH.max, "Tags"),
  description: z
    .string()
    .trim()
    .refine(
      (value) =>
        value === "" ||
        (value.length >= STICKER_DESCRIPTION_LENGTH.min && value.length <= STICKER_DESCRIPTION_LENGTH.max),
      `A description must be ${STICKER_DESCRIPTION_LENGTH.min} to ${STICKER_DESCRIPTION_LENGTH.max} characters.`,
    ),
});
export type StickerFieldsValues = z.infer<typeof StickerFieldsSchema>;

export const CreateStickerInputSchema = StickerFieldsSchema.extend({
  ...guildActionBase,
  file: dataUri("data:", STICKER_FILE_MAX_BYTES, "a file"),
  fileName: z.string().max(200),
});
export type CreateStickerInput = z.input<typeof CreateStickerInputSchema>;

export const ModifyStickerInputSchema = StickerFieldsSchema.extend({ ...guildActionBase, stickerId: snowflakeSchema });
export type ModifyStickerInput = z.input<typeof ModifyStickerInputSchema>;

export const DeleteStickerInputSchema = z.object({ ...guildActionBase, stickerId: snowflakeSchema, name: z.string() });

export const SoundFieldsSchema = z.object({
  name: between(SOUND_NAME_LENGTH.min, SOUND_NAME_LENGTH.max, "A name"),
  /** 0 to 1, as Discord stores it (the form shows per cent). */
  volume: z.number().min(0).max(1),
  /** A standard emoji shown beside the sound, or "" for none. */
  emoji_name: z.string().trim().max(SOUND_EMOJI_NAME_MAX),
});
export type SoundFieldsValues = z.infer<typeof SoundFieldsSchema>;

export const CreateSoundInputSchema = SoundFieldsSchema.extend({
  ...guildActionBase,
  sound: dataUri("data:audio/", SOUND_MAX_BYTES, "an MP3 or OGG file"),
});
export type CreateSoundInput = z.input<typeof CreateSoundInputSchema>;

/** Modify Guild Soundboard Sound: the emoji is left as it is unless `emoji_name` is sent ("" clears it). */
export const ModifySoundInputSchema = SoundFieldsSchema.extend({
  ...guildActionBase,
  soundId: snowflakeSchema,
  emoji_name: SoundFieldsSchema.shape.emoji_name.optional(),
});
export type ModifySoundInput = z.input<typeof ModifySoundInputSchema>;

export const DeleteSoundInputSchema = z.object({ ...guildActionBase, soundId: snowflakeSchema, name: z.string() });
