// Channel operations: Get Guild Channels, Create Guild Channel, Modify Guild Channel Positions, List Active Guild Threads.
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { ALL_PERMISSIONS, hasPermission } from "@/lib/discord/permissions";
import {
  DEFAULT_BITRATE,
  STAGE_BITRATE_MAX,
  STAGE_USER_LIMIT_MAX,
  VOICE_USER_LIMIT_MAX,
  maxVoiceBitrate,
} from "@/lib/discord/limits";
import { newSnowflake } from "@/lib/discord/snowflake";
import { AuditLogEvent, diffChanges, writeAuditLog, type AuditChange } from "../audit-log";
import { Errors, invalidFormBody, type FieldIssue } from "../errors";
import { emitEvent } from "../events";
import type { GuildAccess, OverwriteJson } from "../guards";
import type { CreateGuildChannelBody, ModifyGuildChannelPositionsBody, OverwriteBody } from "../schemas/channel";
import { sql, transaction } from "../store/db";
import { ChannelType, serializeChannel, serializeThread, type ChannelRow } from "../serializers/channel";

const NON_THREAD_CHANNELS =
  "SELECT * FROM channels WHERE guild_id = ? AND type NOT IN (10, 11, 12) ORDER BY position, id";
const findChannel = (guildId: bigint, channelId: bigint) =>
  sql("SELECT * FROM channels WHERE id = ? AND guild_id = ?").get(channelId, guildId) as ChannelRow | undefined;

/** Get Guild Channels: every non-thread channel, by position then id. */
export function listGuildChannels(access: GuildAccess) {
  return (sql(NON_THREAD_CHANNELS).all(access.guildId) as ChannelRow[]).map(serializeChannel);
}

/**
 * List Active Guild Threads: unarchived threads the caller can see (newest first), and the caller's thread
 * memberships among them.
 */
export function listActiveThreads(access: GuildAccess) {
  const rows = sql(
    "SELECT * FROM channels WHERE guild_id = ? AND type IN (10, 11, 12) AND archived = 0 ORDER BY id DESC",
  ).all(access.guildId) as ChannelRow[];
  const parents = new Map(
    (
      sql("SELECT id, permission_overwrites FROM channels WHERE guild_id = ? AND type NOT IN (10, 11, 12)").all(
        access.guildId,
      ) as Array<{ id: bigint; permission_overwrites: string }>
    ).map((c) => [c.id, c.permission_overwrites]),
  );
  const visible = rows.filter((thread) => {
    const overwrites = thread.parent_id === null ? undefined : parents.get(thread.parent_id);
    const permissions = overwrites === undefined ? access.permissions : access.channelPermissions(overwrites);
    if (!hasPermission(permissions, P.ViewChannel)) return false;
    // Private threads: their members and those who manage threads.
    if (Number(thread.type) === ChannelType.PrivateThread) {
      const member = sql("SELECT 1 FROM thread_members WHERE thread_id = ? AND user_id = ?").get(
        thread.id,
        access.caller.userId,
      );
      return Boolean(member) || hasPermission(permissions, P.ManageThreads);
    }
    return true;
  });
  const memberships = sql(
    "SELECT thread_id, user_id, join_timestamp, flags FROM thread_members WHERE user_id = ? AND thread_id = ?",
  );
  const members = visible.flatMap((thread) => {
    const row = memberships.get(access.caller.userId, thread.id) as
      { thread_id: bigint; user_id: bigint; join_timestamp: bigint; flags: bigint } | undefined;
    return row
      ? [
          {
            id: String(row.thread_id),
            user_id: String(row.user_id),
            join_timestamp: new Date(Number(row.join_timestamp)).toISOString(),
            flags: Number(row.flags),
          },
        ]
      : [];
  });
  return { threads: visible.map(serializeThread), members, has_more: false };
}

// ---------------------------------------------------------------------------------------------------------------
// Create Guild Channel

const { Text, Voice, Category, Announcement, Stage, Forum, Media } = ChannelType;
type TypedField = Exclude<keyof CreateGuildChannelBody, "name" | "type" | "position" | "permission_overwrites">;
/** The spec's table: which channel types take each type-specific field. */
const FIELD_TYPES: Record<TypedField, readonly number[]> = {
  topic: [Text, Announcement, Forum, Media],
  bitrate: [Voice, Stage],
  user_limit: [Voice, Stage],
  rate_limit_per_user: [Text, Voice, Stage, Forum, Media],
  parent_id: [Text, Voice, Announcement, Stage, Forum, Media],
  nsfw: [Text, Voice, Announcement, Stage, Forum],
  rtc_region: [Voice, Stage],
  video_quality_mode: [Voice, Stage],
  default_auto_archive_duration: [Text, Announcement, Forum, Media],
  default_reaction_emoji: [Forum, Media],
  available_tags: [Forum, Media],
  default_sort_order: [Forum, Media],
  default_forum_layout: [Forum],
  default_thread_rate_limit_per_user: [Text, Announcement, Forum, Media],
};
const TYPED_FIELDS = Object.keys(FIELD_TYPES) as TypedField[];
const TYPE_NAMES: Record<number, string> = {
  0: "text",
  2: "voice",
  4: "category",
  5: "announcement",
  13: "stage",
  15: "forum",
  16: "media",
};
/** Channel types a guild feature unlocks: announcement channels need COMMUNITY or NEWS, stage channels COMMUNITY. */
const TYPE_FEATURES: Record<number, readonly string[]> = {
  [Announcement]: ["COMMUNITY", "NEWS"],
  [Stage]: ["COMMUNITY"],
};

// Field error codes for rules Discord documents no code for.
const FIELD_NOT_APPLICABLE = "FIELD_NOT_APPLICABLE";
const CHANNEL_PARENT_INVALID = "CHANNEL_PARENT_INVALID";
const GUILD_FEATURE_REQUIRED = "GUILD_FEATURE_REQUIRED";
const OVERWRITE_TARGET_INVALID = "OVERWRITE_TARGET_INVALID";

const tooBig = (path: FieldIssue["path"], max: number): FieldIssue => ({
  path,
  code: "NUMBER_TYPE_MAX",
  message: `int value should be less than or equal to ${max}.`,
});

/**
 * Overwrites as stored: ids checked against the guild's roles (type 0) and members (type 1), the type inferred
 * when absent, allow and deny defaulting to "0". The caller may only allow or deny permissions it holds in the
 * guild, and only administrators may put MANAGE_ROLES in an overwrite (403 Missing Permissions otherwise).
 */
function resolveOverwrites(
  access: GuildAccess,
  overwrites: readonly OverwriteBody[],
  path: string,
  issues: FieldIssue[],
): OverwriteJson[] {
  const isAdmin = access.has(P.Administrator);
  const isMember = sql("SELECT 1 FROM members WHERE guild_id = ? AND user_id = ?");
  const seen = new Set<string>();
  const resolved: OverwriteJson[] = [];
  overwrites.forEach((overwrite, index) => {
    const allow = overwrite.allow ?? 0n;
    const deny = overwrite.deny ?? 0n;
    const bits = allow | deny;
    if (!isAdmin && ((bits & ~access.permissions) !== 0n || (bits & P.ManageRoles) !== 0n))
      throw Errors.missingPermissions();
    const isRole = access.role(overwrite.id) !== undefined;
    const type = overwrite.type ?? (isRole ? 0 : 1);
    const exists = type === 0 ? isRole : Boolean(isMember.get(access.guildId, BigInt(overwrite.id)));
    if (!exists)
      issues.push({
        path: [path, index, "id"],
        code: OVERWRITE_TARGET_INVALID,
        message: `Not a ${type === 0 ? "role" : "member"} of this guild.`,
      });
    else if (seen.has(overwrite.id))
      issues.push({
        path: [path, index, "id"],
        code: OVERWRITE_TARGET_INVALID,
        message: "Duplicate overwrite for this id.",
      });
    seen.add(overwrite.id);
    // Bits no permission uses are dropped, as Discord does.
    resolved.push({
      id: overwrite.id,
      type,
      allow: String(allow & ALL_PERMISSIONS),
      deny: String(deny & ALL_PERMISSIONS),
    });
  });
  return resolved;
}

const INSERT_CHANNEL = `INSERT INTO channels (id, guild_id, type, name, position, parent_id, topic, nsfw, bitrate, user_limit, rate_limit_per_user,
  rtc_region, video_quality_mode, default_auto_archive_duration, default_reaction_emoji, available_tags, default_sort_order, default_forum_layout,
  default_thread_rate_limit_per_user, flags, permission_overwrites)
  VALUES (@id, @guild_id, @type, @name, @position, @parent_id, @topic, @nsfw, @bitrate, @user_limit, @rate_limit_per_user, @rtc_region,
  @video_quality_mode, @default_auto_archive_duration, @default_reaction_emoji, @available_tags, @default_sort_order, @default_forum_layout,
  @default_thread_rate_limit_per_user, 0, @permission_overwrites)`;

/**
 * Create Guild Channel (MANAGE_CHANNELS): the type-specific fields only where the spec's table allows them (a
 * non-null field the type does not take is a field error), bounds that depend on the guild (bitrate by boost tier,
 * user limits by type, the parent category), then one transaction inserts the channel, writes the audit-log entry
 * (CHANNEL_CREATE) and fires CHANNEL_CREATE. Without a position the channel goes last among its siblings.
 */
export function createGuildChannel(access: GuildAccess, body: CreateGuildChannelBody, reason: string | null) {
  access.authorize("Create Guild Channel");
  const guildId = access.guildId;
  const type = body.type ?? Text;
  const features = JSON.parse(access.guild.features) as string[];
  const issues: FieldIssue[] = [];
  const takes = (field: TypedField) => FIELD_TYPES[field].includes(type);

  const needs = TYPE_FEATURES[type];
  if (needs && !needs.some((feature) => features.includes(feature)))
    issues.push({
      path: ["type"],
      code: GUILD_FEATURE_REQUIRED,
      message: `${TYPE_NAMES[type]} channels need the ${needs.join(" or ")} feature.`,
    });
  for (const field of TYPED_FIELDS) {
    if (body[field] !== undefined && body[field] !== null && !takes(field))
      issues.push({
        path: [field],
        code: FIELD_NOT_APPLICABLE,
        message: `${TYPE_NAMES[type]} channels do not take ${field}.`,
      });
  }

  const isStage = type === Stage;
  if (body.bitrate != null && takes("bitrate")) {
    const max = isStage ? STAGE_BITRATE_MAX : maxVoiceBitrate(Number(access.guild.premium_tier), features);
    if (body.bitrate > max) issues.push(tooBig(["bitrate"], max));
  }
  if (body.user_limit != null && takes("user_limit")) {
    const max = isStage ? STAGE_USER_LIMIT_MAX : VOICE_USER_LIMIT_MAX;
    if (body.user_limit > max) issues.push(tooBig(["user_limit"], max));
  }
  if (body.parent_id != null && takes("parent_id")) {
    const parent = findChannel(guildId, BigInt(body.parent_id));
    if (!parent || Number(parent.type) !== Category)
      issues.push({ path: ["parent_id"], code: CHANNEL_PARENT_INVALID, message: "Must be a category of this guild." });
  }
  const reaction = body.default_reaction_emoji;
  if (
    reaction &&
    (reaction.emoji_id == null) === (reaction.emoji_name == null) &&
    (reaction.emoji_id != null || reaction.emoji_name != null)
  )
    issues.push({
      path: ["default_reaction_emoji"],
      code: "BASE_TYPE_INVALID",
      message: "Set exactly one of emoji_id and emoji_name.",
    });
  body.available_tags?.forEach((tag, index) => {
    if (tag.emoji_id != null && tag.emoji_name != null)
      issues.push({
        path: ["available_tags", index],
        code: "BASE_TYPE_INVALID",
        message: "Set at most one of emoji_id and emoji_name.",
      });
  });
  const overwrites = resolveOverwrites(access, body.permission_overwrites ?? [], "permission_overwrites", issues);
  if (issues.length > 0) throw invalidFormBody(issues);

  const parentId = body.parent_id == null ? null : BigInt(body.parent_id);
  return transaction(() => {
    const id = newSnowflake();
    const last = sql(
      "SELECT MAX(position) AS p FROM channels WHERE guild_id = ? AND type NOT IN (10, 11, 12) AND parent_id IS ?",
    ).get(guildId, parentId) as { p: bigint | null };
    sql(INSERT_CHANNEL).run({
      id,
      guild_id: guildId,
      type,
      name: body.name,
      position: body.position ?? (last.p === null ? 0 : Number(last.p) + 1),
      parent_id: parentId,
      topic: takes("topic") ? (body.topic ?? null) : null,
      nsfw: body.nsfw ? 1 : 0,
      bitrate: takes("bitrate") ? (body.bitrate ?? DEFAULT_BITRATE) : null,
      user_limit: takes("user_limit") ? (body.user_limit ?? 0) : null,
      rate_limit_per_user: takes("rate_limit_per_user") ? (body.rate_limit_per_user ?? 0) : null,
      rtc_region: body.rtc_region ?? null,
      video_quality_mode: body.video_quality_mode ?? null,
      default_auto_archive_duration: body.default_auto_archive_duration ?? null,
      default_reaction_emoji:
        reaction && (reaction.emoji_id != null || reaction.emoji_name != null)
          ? JSON.stringify({ emoji_id: reaction.emoji_id ?? null, emoji_name: reaction.emoji_name ?? null })
          : null,
      available_tags: takes("available_tags")
        ? JSON.stringify(
            (body.available_tags ?? []).map((tag) => ({
              id: String(newSnowflake()),
              name: tag.name,
              moderated: tag.moderated ?? false,
              emoji_id: tag.emoji_id ?? null,
              emoji_name: tag.emoji_name ?? null,
            })),
          )
        : null,
      default_sort_order: body.default_sort_order ?? null,
      default_forum_layout: type === Forum ? (body.default_forum_layout ?? 0) : null,
      default_thread_rate_limit_per_user: takes("default_thread_rate_limit_per_user")
        ? (body.default_thread_rate_limit_per_user ?? 0)
        : null,
      permission_overwrites: JSON.stringify(overwrites),
    });
    const channel = serializeChannel(findChannel(guildId, id) as ChannelRow);
    const changes: AuditChange[] = Object.entries(channel)
      .filter(([key, value]) => !["id", "guild_id", "last_message_id", "flags"].includes(key) && value !== null)
      .map(([key, value]) => ({ key, new_value: value }));
    writeAuditLog({
      guildId,
      userId: access.caller.userId,
      actionType: AuditLogEvent.ChannelCreate,
      targetId: id,
      reason,
      changes,
    });
    emitEvent(guildId, "CHANNEL_CREATE", channel);
    return channel;
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Modify Guild Channel Positions

/**
 * Modify Guild Channel Positions (MANAGE_CHANNELS): all or nothing. Every id must be a channel of the guild (404
 * Unknown Channel otherwise), at most once; a parent must be a category (null: no parent) and categories take no
 * parent; lock_permissions copies the new parent's overwrites. One transaction updates the channels, and writes one
 * CHANNEL_UPDATE event and audit-log entry per channel that changed.
 */
export function modifyGuildChannelPositions(
  access: GuildAccess,
  items: ModifyGuildChannelPositionsBody,
  reason: string | null,
): void {
  access.authorize("Modify Guild Channel Positions");
  const guildId = access.guildId;
  transaction(() => {
    const channels = new Map(
      (sql(NON_THREAD_CHANNELS).all(guildId) as ChannelRow[]).map((row) => [String(row.id), row]),
    );
    const issues: FieldIssue[] = [];
    const seen = new Set<string>();
    items.forEach((item, index) => {
      const channel = channels.get(item.id);
      if (!channel) throw Errors.unknownChannel();
      if (seen.has(item.id))
        issues.push({ path: [index, "id"], code: "BASE_TYPE_INVALID", message: "Each channel may appear once." });
      seen.add(item.id);
      if (item.parent_id != null) {
        const parent = channels.get(item.parent_id);
        if (Number(channel.type) === Category)
          issues.push({
            path: [index, "parent_id"],
            code: CHANNEL_PARENT_INVALID,
            message: "Categories cannot have a parent.",
          });
        else if (!parent || Number(parent.type) !== Category)
          issues.push({
            path: [index, "parent_id"],
            code: CHANNEL_PARENT_INVALID,
            message: "Must be a category of this guild.",
          });
      }
    });
    if (issues.length > 0) throw invalidFormBody(issues);

    const update = sql("UPDATE channels SET position = ?, parent_id = ?, permission_overwrites = ? WHERE id = ?");
    for (const item of items) {
      const row = channels.get(item.id) as ChannelRow;
      const position = item.position ?? row.position;
      const parentId =
        item.parent_id === undefined ? row.parent_id : item.parent_id === null ? null : BigInt(item.parent_id);
      const overwrites =
        item.lock_permissions && parentId !== null
          ? (channels.get(String(parentId)) as ChannelRow).permission_overwrites
          : row.permission_overwrites;
      if (BigInt(position) === row.position && parentId === row.parent_id && overwrites === row.permission_overwrites)
        continue;
      update.run(position, parentId, overwrites, row.id);
      const before = serializeChannel(row);
      const after = serializeChannel(findChannel(guildId, row.id) as ChannelRow);
      const changes = diffChanges(before, after, ["position", "parent_id", "permission_overwrites"]);
      writeAuditLog({
        guildId,
        userId: access.caller.userId,
        actionType: AuditLogEvent.ChannelUpdate,
        targetId: row.id,
        reason,
        changes,
      });
      emitEvent(guildId, "CHANNEL_UPDATE", after);
    }
  });
}
