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
