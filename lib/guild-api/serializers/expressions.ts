// Emoji, stickers and soundboard sounds as Discord answers them. `user` (who uploaded it) is shown only to callers
// who may create or manage expressions, as Discord shows it.
import type { EmojiRow, SoundboardSoundRow, StickerRowWithUser } from "../store/expressions";
import type { UserRow } from "../store/users";
import { serializeEmoji, serializeSticker } from "./guilds";
import { serializeUser } from "./users";

type Uploader = UserRow | undefined;

export function serializeEmojiWithUser(row: EmojiRow, user: Uploader) {
  return { ...serializeEmoji(row), ...(user ? { user: serializeUser(user) } : {}) };
}

export function serializeGuildSticker(row: StickerRowWithUser, user: Uploader) {
  return { ...serializeSticker(row), ...(user ? { user: serializeUser(user) } : {}) };
}

export function serializeSoundboardSound(row: SoundboardSoundRow, user: Uploader) {
  return {
    name: row.name,
    sound_id: String(row.id),
    volume: Number(row.volume),
    emoji_id: row.emoji_id === null ? null : String(row.emoji_id),
    emoji_name: row.emoji_name,
    guild_id: String(row.guild_id),
    available: Boolean(row.available),
    ...(user ? { user: serializeUser(user) } : {}),
  };
}
