// Guild operations.
import { Errors } from "../errors";
import type { GuildAccess } from "../guards";
import type { Identity } from "../auth";
import { sql } from "../store/db";
import { findGuild } from "../store/guild-context";
import { serializeGuild, serializeEmoji, serializeSticker, type EmojiRow, type StickerRow } from "../serializers/guild";

const emojisOf = (guildId: bigint) => sql("SELECT * FROM emojis WHERE guild_id = ? ORDER BY id").all(guildId) as EmojiRow[];
const stickersOf = (guildId: bigint) => sql("SELECT * FROM stickers WHERE guild_id = ? ORDER BY id").all(guildId) as StickerRow[];

export function presenceCount(guildId: bigint): number {
  return Number((sql("SELECT COUNT(*) AS n FROM members WHERE guild_id = ? AND status != 'offline'").get(guildId) as { n: bigint }).n);
}

/** Get Guild: the guild as its member sees it; with_counts adds the approximate counts. */
export function getGuild(access: GuildAccess, withCounts: boolean) {
  const guild = serializeGuild(access.guild, access.roles, emojisOf(access.guildId), stickersOf(access.guildId));
  if (!withCounts) return guild;
  return { ...guild, approximate_member_count: Number(access.guild.member_count), approximate_presence_count: presenceCount(access.guildId) };
}

/** Get Guild Preview: members always; others only when the guild is DISCOVERABLE. */
export function getGuildPreview(caller: Identity, guildId: bigint) {
  const guild = findGuild(guildId);
  if (!guild) throw Errors.unknownGuild();
  const features = JSON.parse(guild.features) as string[];
  const isMember = Boolean(sql("SELECT 1 FROM members WHERE guild_id = ? AND user_id = ?").get(guildId, caller.userId));
  if (!isMember && !features.includes("DISCOVERABLE")) throw Errors.unknownGuild();
  return {
    id: String(guild.id),
    name: guild.name,
    icon: guild.icon,
    splash: guild.splash,
    discovery_splash: guild.discovery_splash,
    home_header: null,
    emojis: emojisOf(guildId).map(serializeEmoji),
    stickers: stickersOf(guildId).map(serializeSticker),
    features,
    approximate_member_count: Number(guild.member_count),
    approximate_presence_count: presenceCount(guildId),
    description: guild.description,
  };
}
