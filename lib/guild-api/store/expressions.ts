// The emojis and stickers tables (Discord's "expressions"). A guild's expressions are read through the read cache in
// one statement: Get Guild is a hot path, and one execution costs less than two.
import { sql } from "./db";
import type { MaybePromise } from "../maybe-promise";
import { readCache } from "./read-cache";

export interface EmojiRow {
  id: bigint;
  name: string;
  roles: string;
  user_id: bigint | null;
  require_colons: bigint;
  managed: bigint;
  animated: bigint;
  available: bigint;
}
export interface StickerRow {
  id: bigint;
  guild_id: bigint;
  name: string;
  description: string | null;
  tags: string;
  format_type: bigint;
  available: bigint;
}

// Emojis and stickers in one statement, each in creation order.
const EXPRESSIONS = `SELECT 0 AS kind, id, guild_id, name, roles, user_id, require_colons, managed, animated, available, NULL AS description, NULL AS tags, NULL AS format_type
  FROM emojis WHERE guild_id = @guild_id
  UNION ALL
  SELECT 1, id, guild_id, name, NULL, NULL, NULL, NULL, NULL, available, description, tags, format_type FROM stickers WHERE guild_id = @guild_id`;
type ExpressionRow = (EmojiRow & StickerRow) & { kind: bigint };

export interface GuildExpressions {
  emojis: readonly EmojiRow[];
  stickers: readonly StickerRow[];
}

/** The guild's emojis and stickers, through the read cache. */
export const listGuildExpressions: (guildId: bigint) => MaybePromise<GuildExpressions> = readCache(
  async (guildId: bigint) => {
    const emojis: EmojiRow[] = [];
    const stickers: StickerRow[] = [];
    for (const row of (await sql.all(EXPRESSIONS, { guild_id: guildId })) as ExpressionRow[])
      (row.kind === 0n ? emojis : stickers).push(row);
    return { emojis, stickers };
  },
  1_000,
);

/** The guild's emojis and stickers by id, read now (not through the cache). */
export async function listGuildExpressionsById(guildId: bigint): Promise<GuildExpressions> {
  return {
    emojis: (await sql.all("SELECT * FROM emojis WHERE guild_id = ? ORDER BY id", guildId)) as EmojiRow[],
    stickers: (await sql.all("SELECT * FROM stickers WHERE guild_id = ? ORDER BY id", guildId)) as StickerRow[],
  };
}

/** The guild's emoji `emojiId` (its name and whether it is animated). */
export async function findGuildEmoji(
  guildId: bigint,
  emojiId: bigint,
): Promise<{ name: string; animated: bigint } | undefined> {
  return (await sql.get("SELECT name, animated FROM emojis WHERE id = ? AND guild_id = ?", emojiId, guildId)) as
    { name: string; animated: bigint } | undefined;
}

// ── Writes and single reads (the services' transactions) ──

export interface EmojiInsert {
  id: bigint;
  guild_id: bigint;
  name: string;
  roles: string;
  user_id: bigint;
  animated: boolean;
}

export async function listGuildEmojiRows(guildId: bigint): Promise<EmojiRow[]> {
  return (await sql.all("SELECT * FROM emojis WHERE guild_id = ? ORDER BY id", guildId)) as EmojiRow[];
}

export async function findEmoji(guildId: bigint, emojiId: bigint): Promise<EmojiRow | undefined> {
  return (await sql.get("SELECT * FROM emojis WHERE guild_id = ? AND id = ?", guildId, emojiId)) as
    EmojiRow | undefined;
}

/** Emoji of the guild that are animated (or not). */
export async function countEmojis(guildId: bigint, animated: boolean): Promise<number> {
  return Number(
    (await sql.value(
      "SELECT COUNT(*) FROM emojis WHERE guild_id = ? AND animated = ?",
      guildId,
      animated ? 1 : 0,
    )) as bigint,
  );
}

export async function insertEmoji(row: EmojiInsert): Promise<void> {
  await sql.run(
    `INSERT INTO emojis (id, guild_id, name, roles, user_id, require_colons, managed, animated, available)
     VALUES (@id, @guild_id, @name, @roles, @user_id, TRUE, FALSE, @animated, TRUE)`,
    { ...row, animated: row.animated ? 1 : 0 },
  );
}

export async function updateEmoji(guildId: bigint, emojiId: bigint, name: string, roles: string): Promise<void> {
  await sql.run("UPDATE emojis SET name = ?, roles = ? WHERE guild_id = ? AND id = ?", name, roles, guildId, emojiId);
}

export async function deleteEmoji(guildId: bigint, emojiId: bigint): Promise<boolean> {
  return (await sql.run("DELETE FROM emojis WHERE guild_id = ? AND id = ?", guildId, emojiId)).changes > 0;
}

export interface StickerWriteRow {
  id: bigint;
  guild_id: bigint;
  name: string;
  description: string | null;
  tags: string;
  format_type: bigint;
  user_id: bigint | null;
}
export type StickerRowWithUser = StickerRow & { user_id: bigint | null };

export async function listGuildStickerRows(guildId: bigint): Promise<StickerRowWithUser[]> {
  return (await sql.all("SELECT * FROM stickers WHERE guild_id = ? ORDER BY id", guildId)) as StickerRowWithUser[];
}

export async function findSticker(guildId: bigint, stickerId: bigint): Promise<StickerRowWithUser | undefined> {
  return (await sql.get("SELECT * FROM stickers WHERE guild_id = ? AND id = ?", guildId, stickerId)) as
    StickerRowWithUser | undefined;
}

export async function countStickers(guildId: bigint): Promise<number> {
  return Number((await sql.value("SELECT COUNT(*) FROM stickers WHERE guild_id = ?", guildId)) as bigint);
}

export async function insertSticker(row: StickerWriteRow): Promise<void> {
  await sql.run(
    `INSERT INTO stickers (id, guild_id, name, description, tags, format_type, available, user_id)
     VALUES (@id, @guild_id, @name, @description, @tags, @format_type, TRUE, @user_id)`,
    row,
  );
}

export async function updateSticker(
  guildId: bigint,
  stickerId: bigint,
  fields: { name: string; description: string | null; tags: string },
): Promise<void> {
  await sql.run(
    "UPDATE stickers SET name = @name, description = @description, tags = @tags WHERE guild_id = @guild_id AND id = @id",
    { ...fields, guild_id: guildId, id: stickerId },
  );
}

export async function deleteSticker(guildId: bigint, stickerId: bigint): Promise<boolean> {
  return (await sql.run("DELETE FROM stickers WHERE guild_id = ? AND id = ?", guildId, stickerId)).changes > 0;
}

// ── Soundboard sounds ──

export interface SoundboardSoundRow {
  id: bigint;
  guild_id: bigint;
  name: string;
  volume: number;
  emoji_id: bigint | null;
  emoji_name: string | null;
  user_id: bigint | null;
  available: bigint | boolean;
}

export async function listGuildSoundboardSounds(guildId: bigint): Promise<SoundboardSoundRow[]> {
  return (await sql.all(
    "SELECT * FROM soundboard_sounds WHERE guild_id = ? ORDER BY id",
    guildId,
  )) as SoundboardSoundRow[];
}

export async function findSoundboardSound(guildId: bigint, soundId: bigint): Promise<SoundboardSoundRow | undefined> {
  return (await sql.get("SELECT * FROM soundboard_sounds WHERE guild_id = ? AND id = ?", guildId, soundId)) as
    SoundboardSoundRow | undefined;
}

export async function countSoundboardSounds(guildId: bigint): Promise<number> {
  return Number((await sql.value("SELECT COUNT(*) FROM soundboard_sounds WHERE guild_id = ?", guildId)) as bigint);
}

export async function insertSoundboardSound(row: SoundboardSoundRow): Promise<void> {
  await sql.run(
    `INSERT INTO soundboard_sounds (id, guild_id, name, volume, emoji_id, emoji_name, user_id, available)
     VALUES (@id, @guild_id, @name, @volume, @emoji_id, @emoji_name, @user_id, TRUE)`,
    {
      id: row.id,
      guild_id: row.guild_id,
      name: row.name,
      volume: row.volume,
      emoji_id: row.emoji_id,
      emoji_name: row.emoji_name,
      user_id: row.user_id,
    },
  );
}

export async function updateSoundboardSound(row: SoundboardSoundRow): Promise<void> {
  await sql.run(
    `UPDATE soundboard_sounds SET name = @name, volume = @volume, emoji_id = @emoji_id, emoji_name = @emoji_name
     WHERE guild_id = @guild_id AND id = @id`,
    {
      id: row.id,
      guild_id: row.guild_id,
      name: row.name,
      volume: row.volume,
      emoji_id: row.emoji_id,
      emoji_name: row.emoji_name,
    },
  );
}

export async function deleteSoundboardSound(guildId: bigint, soundId: bigint): Promise<boolean> {
  return (await sql.run("DELETE FROM soundboard_sounds WHERE guild_id = ? AND id = ?", guildId, soundId)).changes > 0;
}
