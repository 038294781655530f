// Emoji, sticker and soundboard request bodies (Create/Modify Guild Emoji, Create/Modify Guild Sticker, Create/Modify
// Guild Soundboard Sound), with Discord's lengths. The files themselves are decoded by expression-files.ts.
import { z } from "zod";
import {
  EMOJI_CUSTOM_NAME_LENGTH,
  EMOJI_CUSTOM_NAME_PATTERN,
  SOUND_EMOJI_NAME_MAX,
  SOUND_NAME_LENGTH,
  STICKER_DESCRIPTION_LENGTH,
  STICKER_NAME_LENGTH,
  STICKER_TAGS_LENGTH,
} from "@/lib/discord/limits";
import { displayName, lengthBetween, snowflake, uniqueSnowflakes } from "./common";

/** An emoji's name: 2–32 letters, digits and underscores. */
const emojiName = lengthBetween(EMOJI_CUSTOM_NAME_LENGTH.min, EMOJI_CUSTOM_NAME_LENGTH.max).superRefine(
  (value, ctx) => {
    if (!EMOJI_CUSTOM_NAME_PATTERN.test(value))
      ctx.addIssue({
        code: "custom",
        message: "Must contain only letters, numbers and underscores.",
        params: { code: "STRING_TYPE_REGEX" },
      });
  },
);
const emojiRoles = uniqueSnowflakes(250);

export const CreateGuildEmojiBodySchema = z.object({
  name: emojiName,
  image: z.string(),
  roles: emojiRoles.nullish(),
});
export type CreateGuildEmojiBody = z.output<typeof CreateGuildEmojiBodySchema>;

export const ModifyGuildEmojiBodySchema = z.object({
  name: emojiName.optional(),
  roles: emojiRoles.nullish(),
});
export type ModifyGuildEmojiBody = z.output<typeof ModifyGuildEmojiBodySchema>;

const stickerName = displayName(lengthBetween(STICKER_NAME_LENGTH.min, STICKER_NAME_LENGTH.max));
const stickerTags = lengthBetween(STICKER_TAGS_LENGTH.min, STICKER_TAGS_LENGTH.max);
// An empty description is no description; otherwise 2–100 characters.
const stickerDescription = z
  .string()
  .transform((value) => (value === "" ? null : value))
  .pipe(lengthBetween(STICKER_DESCRIPTION_LENGTH.min, STICKER_DESCRIPTION_LENGTH.max).nullable());

/** Create Guild Sticker's form fields (the file part is read apart). */
export const CreateGuildStickerBodySchema = z.object({
  name: stickerName,
  tags: stickerTags,
  description: stickerDescription.nullish(),
});
export type CreateGuildStickerBody = z.output<typeof CreateGuildStickerBodySchema>;

export const ModifyGuildStickerBodySchema = z.object({
  name: stickerName.optional(),
  tags: stickerTags.optional(),
  description: stickerDescription.nullish(),
});
export type ModifyGuildStickerBody = z.output<typeof ModifyGuildStickerBodySchema>;

const soundName = displayName(lengthBetween(SOUND_NAME_LENGTH.min, SOUND_NAME_LENGTH.max));
const soundFields = {
  name: soundName,
  volume: z.number().min(0).max(1).nullish(),
  emoji_id: snowflake.nullish(),
  emoji_name: lengthBetween(1, SOUND_EMOJI_NAME_MAX).nullish(),
};

export const CreateGuildSoundboardSoundBodySchema = z.object({ ...soundFields, sound: z.string() });
export type CreateGuildSoundboardSoundBody = z.output<typeof CreateGuildSoundboardSoundBodySchema>;

export const ModifyGuildSoundboardSoundBodySchema = z.object({ ...soundFields, name: soundName.optional() });
export type ModifyGuildSoundboardSoundBody = z.output<typeof ModifyGuildSoundboardSoundBodySchema>;
