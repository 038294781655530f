// Channel operations: Get Guild Channels, Create Guild Channel, Modify Guild Channel Positions, List Active Guild
// Threads, Get/Modify/Delete Channel, Get Channel Invites, Edit Channel Permissions, Delete Channel Permission.
import { PermissionFlagsBits as P, RESTJSONErrorCodes } from "discord-api-types/v10";
import { ALL_PERMISSIONS, hasPermission } from "@/lib/discord/permissions";
import { normaliseChannelName } from "@/lib/discord/channel-names";
import { maySeeThread, overwriteGrantableBits } from "@/lib/discord/channel-permissions";
import {
  CHANNEL_NAME_LENGTH,
  CHANNEL_TOPIC_MAX,
  DEFAULT_BITRATE,
  STAGE_BITRATE_MAX,
  STAGE_USER_LIMIT_MAX,
  VOICE_USER_LIMIT_MAX,
  maxVoiceBitrate,
} from "@/lib/discord/limits";
import { newSnowflake } from "@/lib/discord/snowflake";
import { AuditLogEvent, diffChanges, writeAuditLog, type AuditChange, auditByCaller } from "../audit-log";
import { ApiError, Errors, invalidFormBody, type FieldIssue, FieldErrorCode } from "../errors";
import { emitEvent } from "../events";
import type { Identity } from "../auth";
import {
  channelAccessFor,
  authorizeInChannel,
  parseOverwrites,
  requireInChannel,
  type ChannelAccess,
  type GuildAccess,
  type OverwriteJson,
} from "../guards";
import type {
  CreateGuildChannelBody,
  EditChannelPermissionsBody,
  ModifyChannelBody,
  ModifyGuildChannelPositionsBody,
  ModifyThreadBody,
  OverwriteBody,
} from "../schemas/channels";
import { transaction } from "../store/db";
import {
  clearChildChannelsParent,
  deleteChannelWithThreads,
  findChannel,
  findChannelType,
  findThreadMember,
  insertChannel,
  listActiveThreads as listActiveThreadRows,
  listChannelOverwrites,
  listChildChannels,
  listGuildChannels as listGuildChannelRows,
  maxChannelPosition,
  updateChannel,
  updateChannelOverwrites,
  updateChannelPlacement,
  updateThread,
  type ChannelRow,
  type ChannelSettings,
} from "../store/channels";
import { listGuildExpressions } from "../store/expressions";
import { clearGuildChannelReferences, findGuild, GUILD_CHANNEL_REFERENCES, type GuildRow } from "../store/guilds";
import { deleteChannelInvites, listValidChannelInvites } from "../store/invites";
import { isMember } from "../store/members";
import { ChannelType, serializeChannel, serializeThread, THREAD_TYPES } from "../serializers/channels";
import { serializeGuild } from "../serializers/guilds";
import { serializeInvite } from "../serializers/invites";
import { inviteRefs } from "./invites";

/** Get Guild Channels: every non-thread channel, by position then id. */
export async function listGuildChannels(access: GuildAccess) {
  return (await listGuildChannelRows(access.guildId)).map(serializeChannel);
}

/**
 * List Active Guild Threads: unarchived threads the caller can see (newest first), and the caller's thread
 * memberships among them.
 */
export async function listActiveThreads(access: GuildAccess) {
  const rows = await listActiveThreadRows(access.guildId);
  const parents = new Map((await listChannelOverwrites(access.guildId)).map((c) => [c.id, c.permission_overwrites]));
  const visible: typeof rows = [];
  const members = [];
  for (const thread of rows) {
    const overwrites = thread.parent_id === null ? undefined : parents.get(thread.parent_id);
    const permissions = overwrites === undefined ? access.permissions : access.channelPermissions(overwrites);
    if (!hasPermission(permissions, P.ViewChannel)) continue;
    const row = await findThreadMember(thread.id, access.caller.userId);
    if (!maySeeThread({ type: Number(thread.type) }, permissions, row !== undefined)) continue;
    visible.push(thread);
    if (row)
      members.push({
        id: String(row.thread_id),
        user_id: String(row.user_id),
        join_timestamp: new Date(Number(row.join_timestamp)).toISOString(),
        flags: Number(row.flags),
      });
  }
  return { threads: visible.map(serializeThread), members, has_more: false };
}

// ---------------------------------------------------------------------------------------------------------------
// Create Guild Channel

const { Text, Voice, Category, Announcement, Stage, Forum, Media } = ChannelType;
type TypedField = Exclude<keyof CreateGuildChannelBody, "name" | "type" | "position" | "permission_overwrites">;
/** The type-specific fields as both Create Guild Channel and Modify Channel send them. */
type TypedFields = Partial<Record<TypedField, unknown>> &
  Pick<CreateGuildChannelBody, "bitrate" | "user_limit" | "parent_id" | "default_reaction_emoji"> & {
    available_tags?: ReadonlyArray<{ emoji_id?: string | null; emoji_name?: string | null }> | null;
  };
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

const { FIELD_NOT_APPLICABLE, CHANNEL_PARENT_INVALID, GUILD_FEATURE_REQUIRED, OVERWRITE_TARGET_INVALID } =
  FieldErrorCode;

const cannotExecuteOnChannelType = () =>
  new ApiError(
    400,
    RESTJSONErrorCodes.CannotExecuteActionOnThisChannelType,
    "Cannot execute action on this channel type",
  );

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
async function resolveOverwrites(
  access: GuildAccess,
  overwrites: readonly OverwriteBody[],
  path: string,
  issues: FieldIssue[],
): Promise<OverwriteJson[]> {
  const isAdmin = access.has(P.Administrator);
  const seen = new Set<string>();
  const resolved: OverwriteJson[] = [];
  for (const [index, overwrite] of overwrites.entries()) {
    const allow = overwrite.allow ?? 0n;
    const deny = overwrite.deny ?? 0n;
    const bits = allow | deny;
    if (!isAdmin && ((bits & ~access.permissions) !== 0n || (bits & P.ManageRoles) !== 0n))
      throw Errors.missingPermissions();
    const isRole = access.role(overwrite.id) !== undefined;
    const type = overwrite.type ?? (isRole ? 0 : 1);
    const exists = type === 0 ? isRole : await isMember(access.guildId, BigInt(overwrite.id));
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
  }
  return resolved;
}

/** The body's fields checked against the channel type: fields the type does not take, bounds that depend on the guild. */
async function typedFieldIssues(access: GuildAccess, type: number, body: TypedFields): Promise<FieldIssue[]> {
  const issues: FieldIssue[] = [];
  const features = JSON.parse(access.guild.features) as string[];
  const takes = (field: TypedField) => FIELD_TYPES[field].includes(type);
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
    const parent = await findChannel(access.guildId, BigInt(body.parent_id));
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
  return issues;
}

/** The name as Discord stores it for the type; a text name of only spaces is a length error. */
function channelNameOrIssue(type: number, raw: string, issues: FieldIssue[]): string {
  const name = normaliseChannelName(type, raw);
  if (name.length === 0)
    issues.push({
      path: ["name"],
      code: "BASE_TYPE_BAD_LENGTH",
      message: `Must be between ${CHANNEL_NAME_LENGTH.min} and ${CHANNEL_NAME_LENGTH.max} in length.`,
    });
  return name;
}

/**
 * Create Guild Channel (MANAGE_CHANNELS): the type-specific fields only where the spec's table allows them (a
 * non-null field the type does not take is a field error), bounds that depend on the guild (bitrate by boost tier,
 * user limits by type, the parent category), then one transaction inserts the channel, writes the audit-log entry
 * (CHANNEL_CREATE) and fires CHANNEL_CREATE. Without a position the channel goes last among its siblings.
 */
export async function createGuildChannel(access: GuildAccess, body: CreateGuildChannelBody, reason: string | null) {
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
  issues.push(...(await typedFieldIssues(access, type, body)));
  const name = channelNameOrIssue(type, body.name, issues);
  const overwrites = await resolveOverwrites(access, body.permission_overwrites ?? [], "permission_overwrites", issues);
  if (issues.length > 0) throw invalidFormBody(issues);

  const parentId = body.parent_id == null ? null : BigInt(body.parent_id);
  const reaction = body.default_reaction_emoji;
  return await transaction(async () => {
    const id = newSnowflake();
    const last = await maxChannelPosition(guildId, parentId);
    await insertChannel({
      id,
      guild_id: guildId,
      type,
      name,
      position: body.position ?? (last === null ? 0 : Number(last) + 1),
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
    const channel = serializeChannel((await findChannel(guildId, id)) as ChannelRow);
    const changes: AuditChange[] = Object.entries(channel)
      .filter(([key, value]) => !["id", "guild_id", "last_message_id", "flags"].includes(key) && value !== null)
      .map(([key, value]) => ({ key, new_value: value }));
    await auditByCaller(access, {
      actionType: AuditLogEvent.ChannelCreate,
      targetId: id,
      reason,
      changes,
    });
    await emitEvent(guildId, "CHANNEL_CREATE", channel);
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
export async function modifyGuildChannelPositions(
  access: GuildAccess,
  items: ModifyGuildChannelPositionsBody,
  reason: string | null,
): Promise<void> {
  access.authorize("Modify Guild Channel Positions");
  const guildId = access.guildId;
  await transaction(async () => {
    const channels = new Map((await listGuildChannelRows(guildId)).map((row) => [String(row.id), row]));
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
      await updateChannelPlacement(row.id, position, parentId, overwrites);
      const before = serializeChannel(row);
      const after = serializeChannel((await findChannel(guildId, row.id)) as ChannelRow);
      const changes = diffChanges(before, after, ["position", "parent_id", "permission_overwrites"]);
      await auditByCaller(access, {
        actionType: AuditLogEvent.ChannelUpdate,
        targetId: row.id,
        reason,
        changes,
      });
      await emitEvent(guildId, "CHANNEL_UPDATE", after);
    }
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Get Channel, Modify Channel, Delete Channel, Get Channel Invites

const serializeAny = (row: ChannelRow) =>
  THREAD_TYPES.includes(Number(row.type)) ? serializeThread(row) : serializeChannel(row);

/** Get Channel: any channel or thread of a guild the caller is in and whose channel it can view. */
export async function getChannel(caller: Identity, channelId: bigint) {
  return serializeAny((await channelAccessFor(caller, channelId)).channel);
}

/** Channel flags a guild channel may set through Modify Channel, by type (PINNED belongs to threads). */
const REQUIRE_TAG = 1 << 4;
const HIDE_MEDIA_DOWNLOAD_OPTIONS = 1 << 15;
const SETTABLE_FLAGS: Record<number, number> = {
  [Forum]: REQUIRE_TAG,
  [Media]: REQUIRE_TAG | HIDE_MEDIA_DOWNLOAD_OPTIONS,
};

/**
 * Modify Channel for a guild channel (MANAGE_CHANNELS in the channel; MANAGE_ROLES in the channel as well when the
 * body carries permission_overwrites). The fields follow the channel's type as in Create Guild Channel, plus flags
 * (forum and media) and text ↔ announcement conversion (which needs NEWS or COMMUNITY). Text, announcement and
 * forum names are normalised as Discord does. Overwrites are replaced by the list given: the caller may change only
 * bits it holds in the channel (assertMayChangeOverwrites). One transaction updates the row, writes
 * CHANNEL_UPDATE and one CHANNEL_OVERWRITE_CREATE/UPDATE/DELETE entry per overwrite changed, and fires CHANNEL_UPDATE.
 */
export async function modifyChannel(
  caller: Identity,
  channelId: bigint,
  body: ModifyChannelBody,
  reason: string | null,
) {
  const target = await channelAccessFor(caller, channelId);
  const { access, channel: row } = target;
  if (THREAD_TYPES.includes(Number(row.type))) throw cannotExecuteOnChannelType(); // threads: modifyThread
  authorizeInChannel(target, "Modify Channel", body.permission_overwrites != null ? ["permission_overwrites"] : []);

  const current = Number(row.type);
  const type = body.type ?? current;
  const issues: FieldIssue[] = [];
  if (type !== current) {
    const features = JSON.parse(access.guild.features) as string[];
    const needs = TYPE_FEATURES[type] ?? [];
    if (current !== Text && current !== Announcement)
      issues.push({
        path: ["type"],
        code: "CHANNEL_TYPE_INVALID",
        message: "Only text and announcement channels convert.",
      });
    else if (needs.length > 0 && !needs.some((feature) => features.includes(feature)))
      issues.push({
        path: ["type"],
        code: GUILD_FEATURE_REQUIRED,
        message: `${TYPE_NAMES[type]} channels need the ${needs.join(" or ")} feature.`,
      });
  }
  issues.push(...(await typedFieldIssues(access, type, body)));
  if (body.parent_id != null && BigInt(body.parent_id) === row.id)
    issues.push({ path: ["parent_id"], code: CHANNEL_PARENT_INVALID, message: "A channel cannot be its own parent." });
  if (body.topic != null && (type === Text || type === Announcement) && body.topic.length > CHANNEL_TOPIC_MAX)
    issues.push({
      path: ["topic"],
      code: "BASE_TYPE_MAX_LENGTH",
      message: `Must be ${CHANNEL_TOPIC_MAX} or fewer in length.`,
    });
  if (body.flags != null && (body.flags & ~(SETTABLE_FLAGS[type] ?? 0)) !== 0)
    issues.push({
      path: ["flags"],
      code: FIELD_NOT_APPLICABLE,
      message: `${TYPE_NAMES[type]} channels do not take these flags.`,
    });
  const name =
    body.name === undefined ? normaliseChannelName(type, row.name) : channelNameOrIssue(type, body.name, issues);
  const overwrites =
    body.permission_overwrites == null
      ? null
      : await resolveOverwriteList(target, body.permission_overwrites, "permission_overwrites", issues);
  if (issues.length > 0) throw invalidFormBody(issues);

  // Absent keeps the stored value; null resets the field to the type's default.
  const pick = <T, S>(value: T | null | undefined, stored: S, reset: S, map: (v: T) => S): S =>
    value === undefined ? stored : value === null ? reset : map(value);
  const id = (v: string) => BigInt(v);
  const n = (v: number) => BigInt(v);
  const reaction = body.default_reaction_emoji;
  const existingTags = new Set(
    (row.available_tags ? (JSON.parse(row.available_tags) as Array<{ id: string }>) : []).map((t) => t.id),
  );
  const next: ChannelSettings = {
    ...row,
    type: BigInt(type),
    name,
    position: body.position == null ? row.position : BigInt(body.position),
    parent_id: pick(body.parent_id, row.parent_id, null, id),
    topic: pick(body.topic, row.topic, null, (v) => v),
    nsfw: pick(body.nsfw, row.nsfw, 0n, (v) => (v ? 1n : 0n)),
    bitrate: pick(body.bitrate, row.bitrate, BigInt(DEFAULT_BITRATE), n),
    user_limit: pick(body.user_limit, row.user_limit, 0n, n),
    rate_limit_per_user: pick(body.rate_limit_per_user, row.rate_limit_per_user, 0n, n),
    rtc_region: pick(body.rtc_region, row.rtc_region, null, (v) => v),
    video_quality_mode: pick(body.video_quality_mode, row.video_quality_mode, null, n),
    default_auto_archive_duration: pick(body.default_auto_archive_duration, row.default_auto_archive_duration, null, n),
    default_reaction_emoji:
      reaction === undefined
        ? row.default_reaction_emoji
        : reaction === null || (reaction.emoji_id == null && reaction.emoji_name == null)
          ? null
          : JSON.stringify({ emoji_id: reaction.emoji_id ?? null, emoji_name: reaction.emoji_name ?? null }),
    available_tags: pick(body.available_tags, row.available_tags, "[]", (tags) =>
      JSON.stringify(
        tags.map((tag) => ({
          // A tag keeps its id when it names one of the channel's tags; otherwise it is a new tag.
          id: tag.id != null && existingTags.has(tag.id) ? tag.id : String(newSnowflake()),
          name: tag.name,
          moderated: tag.moderated ?? false,
          emoji_id: tag.emoji_id ?? null,
          emoji_name: tag.emoji_name ?? null,
        })),
      ),
    ),
    default_sort_order: pick(body.default_sort_order, row.default_sort_order, null, n),
    default_forum_layout: pick(body.default_forum_layout, row.default_forum_layout, 0n, n),
    default_thread_rate_limit_per_user: pick(
      body.default_thread_rate_limit_per_user,
      row.default_thread_rate_limit_per_user,
      0n,
      n,
    ),
    flags: pick(body.flags, row.flags, 0n, n),
    permission_overwrites: overwrites === null ? row.permission_overwrites : JSON.stringify(overwrites),
  };

  return await transaction(async () => {
    await updateChannel(next);
    const before = serializeChannel(row);
    const after = serializeChannel((await findChannel(access.guildId, row.id)) as ChannelRow);
    const changes = diffChanges(
      before,
      after,
      Object.keys(after).filter((key) => key !== "permission_overwrites"),
    );
    if (changes.length > 0)
      await writeAuditLog({
        guildId: access.guildId,
        userId: caller.userId,
        actionType: AuditLogEvent.ChannelUpdate,
        targetId: row.id,
        reason,
        changes,
      });
    if (overwrites !== null)
      await auditOverwriteChanges(target, JSON.parse(row.permission_overwrites) as OverwriteJson[], overwrites, reason);
    await emitEvent(access.guildId, "CHANNEL_UPDATE", after);
    return after;
  });
}

/**
 * Delete Channel for a guild channel or thread (MANAGE_CHANNELS in the channel; MANAGE_THREADS for a thread). A
 * COMMUNITY guild's rules and public-updates channels cannot be deleted (50074). One transaction deletes the channel,
 * its threads and its invites; a category's children lose their parent (one CHANNEL_UPDATE each); guild settings
 * that named the channel (AFK, widget, system, rules, public updates, safety alerts, welcome-screen channels) are
 * cleared with one GUILD_UPDATE; then the audit-log entry (CHANNEL_DELETE) and CHANNEL_DELETE with the channel.
 */
export async function deleteChannel(caller: Identity, channelId: bigint, reason: string | null) {
  const target = await channelAccessFor(caller, channelId);
  const { access, channel: row } = target;
  const isThread = THREAD_TYPES.includes(Number(row.type));
  if (isThread) requireInChannel(target, P.ManageThreads);
  else authorizeInChannel(target, "Delete/Close Channel");
  const guild = access.guild;
  const features = JSON.parse(guild.features) as string[];
  if (
    features.includes("COMMUNITY") &&
    (guild.rules_channel_id === row.id || guild.public_updates_channel_id === row.id)
  )
    throw Errors.cannotDeleteCommunityChannel();

  return await transaction(async () => {
    const guildId = access.guildId;
    const channel = serializeAny(row);
    await deleteChannelWithThreads(row.id);
    await deleteChannelInvites(row.id);
    if (Number(row.type) === Category) {
      const children = await listChildChannels(row.id);
      await clearChildChannelsParent(row.id);
      for (const child of children)
        await emitEvent(
          guildId,
          "CHANNEL_UPDATE",
          serializeChannel((await findChannel(guildId, child.id)) as ChannelRow),
        );
    }
    if (!isThread) await clearGuildReferences(access, row.id);
    await writeAuditLog({
      guildId,
      userId: caller.userId,
      actionType: isThread ? AuditLogEvent.ThreadDelete : AuditLogEvent.ChannelDelete,
      targetId: row.id,
      reason,
      changes: Object.entries(channel)
        .filter(([key, value]) => !["id", "guild_id", "last_message_id", "flags"].includes(key) && value !== null)
        .map(([key, value]) => ({ key, old_value: value })),
    });
    await emitEvent(guildId, isThread ? "THREAD_DELETE" : "CHANNEL_DELETE", channel);
    return channel;
  });
}

/** Clears the guild settings and welcome-screen entries that name `channelId`; fires GUILD_UPDATE if any changed. */
async function clearGuildReferences(access: GuildAccess, channelId: bigint): Promise<void> {
  const guild = access.guild;
  const cleared = GUILD_CHANNEL_REFERENCES.filter((column) => guild[column] === channelId);
  const welcome = JSON.parse(guild.welcome_channels) as Array<{ channel_id: string }>;
  const keptWelcome = welcome.filter((entry) => entry.channel_id !== String(channelId));
  if (cleared.length === 0 && keptWelcome.length === welcome.length) return;
  await clearGuildChannelReferences(guild.id, cleared, JSON.stringify(keptWelcome));
  const after = (await findGuild(guild.id)) as GuildRow;
  const { emojis, stickers } = await listGuildExpressions(guild.id);
  await emitEvent(guild.id, "GUILD_UPDATE", serializeGuild(after, access.roles, emojis, stickers));
}

/** Get Channel Invites (MANAGE_CHANNELS in the channel): the channel's live invites with their metadata. */
export async function getChannelInvites(caller: Identity, channelId: bigint, now = Date.now()) {
  const target = await channelAccessFor(caller, channelId);
  authorizeInChannel(target, "Get Channel Invites");
  const invites = await listValidChannelInvites(channelId, now);
  const serialized = [];
  for (const invite of invites)
    serialized.push(serializeInvite(invite, await inviteRefs(invite, target.access.guild), { metadata: true }));
  return serialized;
}

// ---------------------------------------------------------------------------------------------------------------
// Edit Channel Permissions, Delete Channel Permission

/**
 * Overwrites as Modify Channel stores them: targets checked against the guild's roles and members (type inferred
 * when absent), at most one per id. The caller may allow or deny only bits it holds in the channel, counting only the
 * bits that change against the channel's current overwrites (403 otherwise); exemptions in assertMayChangeOverwrites.
 */
async function resolveOverwriteList(
  target: ChannelAccess,
  overwrites: readonly OverwriteBody[],
  path: string,
  issues: FieldIssue[],
): Promise<OverwriteJson[]> {
  const { access } = target;
  const existing = new Map((JSON.parse(target.channel.permission_overwrites) as OverwriteJson[]).map((o) => [o.id, o]));
  const seen = new Set<string>();
  const resolved: OverwriteJson[] = [];
  for (const [index, overwrite] of overwrites.entries()) {
    const isRole = access.role(overwrite.id) !== undefined;
    const type = overwrite.type ?? (isRole ? 0 : 1);
    const exists = type === 0 ? isRole : await isMember(access.guildId, BigInt(overwrite.id));
    if (!exists || seen.has(overwrite.id))
      issues.push({
        path: [path, index, "id"],
        code: OVERWRITE_TARGET_INVALID,
        message: exists ? "Duplicate overwrite for this id." : `Not a ${type === 0 ? "role" : "member"} of this guild.`,
      });
    seen.add(overwrite.id);
    resolved.push({
      id: overwrite.id,
      type,
      allow: String((overwrite.allow ?? 0n) & ALL_PERMISSIONS),
      deny: String((overwrite.deny ?? 0n) & ALL_PERMISSIONS),
    });
  }
  const removed = [...existing.values()].filter((o) => !seen.has(o.id));
  assertMayChangeOverwrites(target, [
    ...resolved.map((o) => [existing.get(o.id), o] as const),
    ...removed.map((o) => [o, undefined] as const),
  ]);
  return resolved;
}

/** The bits an overwrite change touches: those added to or removed from allow or deny. */
function changedBits(before: OverwriteJson | undefined, after: OverwriteJson | undefined): bigint {
  const bits = (o: OverwriteJson | undefined, key: "allow" | "deny") => (o ? BigInt(o[key]) : 0n);
  return (bits(before, "allow") ^ bits(after, "allow")) | (bits(before, "deny") ^ bits(after, "deny"));
}

/** Discord's rule for changing overwrites (overwriteGrantableBits, shared with the dashboard's disabled states). */
function assertMayChangeOverwrites(
  { access, channel }: ChannelAccess,
  pairs: ReadonlyArray<readonly [OverwriteJson | undefined, OverwriteJson | undefined]>,
): void {
  const grantable = overwriteGrantableBits(
    access.context,
    access.permissionMember,
    parseOverwrites(channel.permission_overwrites),
  );
  for (const [before, after] of pairs)
    if ((changedBits(before, after) & ~grantable) !== 0n) throw Errors.missingPermissions();
}

/** One CHANNEL_OVERWRITE_CREATE, _UPDATE or _DELETE audit-log entry per overwrite that changed, as Discord writes them. */
async function auditOverwriteChanges(
  { access, channel }: ChannelAccess,
  before: readonly OverwriteJson[],
  after: readonly OverwriteJson[],
  reason: string | null,
): Promise<void> {
  const old = new Map(before.map((o) => [o.id, o]));
  const now = new Map(after.map((o) => [o.id, o]));
  const entry = async (actionType: AuditLogEvent, overwrite: OverwriteJson, changes: AuditChange[]) =>
    await auditByCaller(access, {
      actionType,
      targetId: channel.id,
      reason,
      changes,
      options: {
        id: overwrite.id,
        type: String(overwrite.type),
        ...(overwrite.type === 0 ? { role_name: access.role(overwrite.id)?.name ?? "" } : {}),
      },
    });
  for (const overwrite of after) {
    const previous = old.get(overwrite.id);
    if (!previous)
      await entry(
        AuditLogEvent.ChannelOverwriteCreate,
        overwrite,
        (["id", "type", "allow", "deny"] as const).map((key) => ({ key, new_value: overwrite[key] })),
      );
    else if (changedBits(previous, overwrite) !== 0n)
      await entry(
        AuditLogEvent.ChannelOverwriteUpdate,
        overwrite,
        diffChanges({ ...previous }, { ...overwrite }, ["allow", "deny"]),
      );
  }
  for (const overwrite of before)
    if (!now.has(overwrite.id))
      await entry(
        AuditLogEvent.ChannelOverwriteDelete,
        overwrite,
        (["id", "type", "allow", "deny"] as const).map((key) => ({ key, old_value: overwrite[key] })),
      );
}

/**
 * Edit Channel Permissions (MANAGE_ROLES in the channel): creates or replaces the overwrite for a role (type 0) or
 * member (type 1) of the guild (404 Unknown Role or Unknown Member otherwise), within the bits the caller may
 * change. Writes CHANNEL_OVERWRITE_CREATE or _UPDATE and fires CHANNEL_UPDATE, in one transaction.
 */
export async function editChannelPermissions(
  caller: Identity,
  channelId: bigint,
  overwriteId: bigint,
  body: EditChannelPermissionsBody,
  reason: string | null,
): Promise<void> {
  const target = await channelAccessFor(caller, channelId);
  const { access, channel } = target;
  if (THREAD_TYPES.includes(Number(channel.type))) throw cannotExecuteOnChannelType();
  authorizeInChannel(target, "Edit Channel Permissions");
  const id = String(overwriteId);
  const isRole = access.role(id) !== undefined;
  const type = body.type ?? (isRole ? 0 : 1);
  if (type === 0 && !isRole) throw Errors.unknownRole();
  if (type === 1 && !(await isMember(access.guildId, overwriteId))) throw Errors.unknownMember();
  const before = JSON.parse(channel.permission_overwrites) as OverwriteJson[];
  const overwrite: OverwriteJson = {
    id,
    type,
    allow: String((body.allow ?? 0n) & ALL_PERMISSIONS),
    deny: String((body.deny ?? 0n) & ALL_PERMISSIONS),
  };
  assertMayChangeOverwrites(target, [[before.find((o) => o.id === id), overwrite]]);
  const after = before.some((o) => o.id === id)
    ? before.map((o) => (o.id === id ? overwrite : o))
    : [...before, overwrite];
  await writeOverwrites(target, before, after, reason);
}

/** Delete Channel Permission (MANAGE_ROLES in the channel): removes the overwrite (404 Unknown Overwrite if none). */
export async function deleteChannelPermission(
  caller: Identity,
  channelId: bigint,
  overwriteId: bigint,
  reason: string | null,
) {
  const target = await channelAccessFor(caller, channelId);
  if (THREAD_TYPES.includes(Number(target.channel.type))) throw cannotExecuteOnChannelType();
  authorizeInChannel(target, "Delete Channel Permission");
  const before = JSON.parse(target.channel.permission_overwrites) as OverwriteJson[];
  const removed = before.find((o) => o.id === String(overwriteId));
  if (!removed) throw Errors.unknownOverwrite();
  assertMayChangeOverwrites(target, [[removed, undefined]]);
  await writeOverwrites(
    target,
    before,
    before.filter((o) => o !== removed),
    reason,
  );
}

async function writeOverwrites(
  target: ChannelAccess,
  before: readonly OverwriteJson[],
  after: readonly OverwriteJson[],
  reason: string | null,
): Promise<void> {
  const { access, channel } = target;
  await transaction(async () => {
    await updateChannelOverwrites(channel.id, JSON.stringify(after));
    await auditOverwriteChanges(target, before, after, reason);
    await emitEvent(
      access.guildId,
      "CHANNEL_UPDATE",
      serializeChannel((await findChannel(access.guildId, channel.id)) as ChannelRow),
    );
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Modify Channel for a thread

/** Whether `channelId` names a thread (Modify Channel picks its body schema by it). */
export async function isThreadChannel(channelId: bigint): Promise<boolean> {
  const type = await findChannelType(channelId);
  return type !== undefined && THREAD_TYPES.includes(Number(type));
}

const PINNED = 1 << 1;
const threadArchived = () => new ApiError(400, RESTJSONErrorCodes.InvalidActionOnArchivedThread, "Thread is archived");

interface ThreadMetadata {
  archived: boolean;
  auto_archive_duration: number;
  archive_timestamp: string;
  locked: boolean;
  invitable?: boolean;
  create_timestamp?: string;
}

/**
 * Modify Channel for a thread. The thread must be open, or be reopened by this request (400 50083 otherwise).
 * Its owner may rename it, archive or reopen it (unless locked), and change its archive duration and tags; anyone
 * with SEND_MESSAGES_IN_THREADS may reopen an unlocked thread; everything else (locking, invitable, slow mode,
 * pinning, and any change to another member's thread) needs MANAGE_THREADS. Tags must be the parent forum's. One
 * transaction updates the thread, writes THREAD_UPDATE to the audit log and fires THREAD_UPDATE.
 */
export async function modifyThread(caller: Identity, channelId: bigint, body: ModifyThreadBody, reason: string | null) {
  const target = await channelAccessFor(caller, channelId);
  const { access, channel: row, permissions } = target;
  const metadata = JSON.parse(row.thread_metadata ?? "{}") as ThreadMetadata;
  const canManage = hasPermission(permissions, P.ManageThreads) && !(access.member.pending && !access.isOwner);
  const isOwner = row.owner_id === caller.userId;
  const onlyReopens = Object.keys(body).every((key) => key === "archived") && body.archived === false;
  if (!canManage) {
    const ownerFields = ["name", "archived", "auto_archive_duration", "applied_tags"];
    const allowed =
      (onlyReopens && !metadata.locked && hasPermission(permissions, P.SendMessagesInThreads)) ||
      (isOwner && !metadata.locked && Object.keys(body).every((key) => ownerFields.includes(key)));
    if (!allowed) throw Errors.missingPermissions();
  }
  if (metadata.archived && body.archived !== false) throw threadArchived();

  const parent = row.parent_id === null ? undefined : await findChannel(row.guild_id, row.parent_id);
  const parentType = parent ? Number(parent.type) : undefined;
  const inForum = parentType === Forum || parentType === Media;
  const issues: FieldIssue[] = [];
  if (body.invitable !== undefined && Number(row.type) !== ChannelType.PrivateThread)
    issues.push({ path: ["invitable"], code: FIELD_NOT_APPLICABLE, message: "Only private threads take invitable." });
  if (body.flags !== undefined && (body.flags & ~(inForum ? PINNED : 0)) !== 0)
    issues.push({ path: ["flags"], code: FIELD_NOT_APPLICABLE, message: "Only forum threads can be pinned." });
  if (body.applied_tags !== undefined) {
    const tags = new Set(
      (parent?.available_tags ? (JSON.parse(parent.available_tags) as Array<{ id: string }>) : []).map((t) => t.id),
    );
    if (!inForum)
      issues.push({ path: ["applied_tags"], code: FIELD_NOT_APPLICABLE, message: "Only forum threads take tags." });
    else
      body.applied_tags.forEach((tag, index) => {
        if (!tags.has(tag))
          issues.push({ path: ["applied_tags", index], code: "BASE_TYPE_CHOICES", message: "Not a tag of the forum." });
      });
  }
  if (issues.length > 0) throw invalidFormBody(issues);

  const now = new Date().toISOString();
  const archivedChanges = body.archived !== undefined && body.archived !== metadata.archived;
  const nextMetadata: ThreadMetadata = {
    ...metadata,
    archived: body.archived ?? metadata.archived,
    auto_archive_duration: body.auto_archive_duration ?? metadata.auto_archive_duration,
    locked: body.locked ?? metadata.locked,
    ...(body.invitable !== undefined ? { invitable: body.invitable } : {}),
    archive_timestamp: archivedChanges ? now : metadata.archive_timestamp,
  };
  return await transaction(async () => {
    await updateThread({
      id: row.id,
      name: body.name ?? row.name,
      thread_metadata: JSON.stringify(nextMetadata),
      archived: nextMetadata.archived,
      rate_limit_per_user:
        body.rate_limit_per_user === undefined ? row.rate_limit_per_user : (body.rate_limit_per_user ?? 0),
      flags: body.flags ?? row.flags,
      applied_tags: body.applied_tags === undefined ? row.applied_tags : JSON.stringify(body.applied_tags),
    });
    const before = serializeThread(row);
    const after = serializeThread((await findChannel(row.guild_id, row.id)) as ChannelRow);
    const changes = diffChanges(before, after, ["name", "rate_limit_per_user", "flags", "applied_tags"]);
    for (const key of ["archived", "locked", "auto_archive_duration", "invitable"] as const)
      if (metadata[key] !== nextMetadata[key])
        changes.push({ key, old_value: metadata[key], new_value: nextMetadata[key] });
    if (changes.length > 0)
      await writeAuditLog({
        guildId: access.guildId,
        userId: caller.userId,
        actionType: AuditLogEvent.ThreadUpdate,
        targetId: row.id,
        reason,
        changes,
      });
    await emitEvent(access.guildId, "THREAD_UPDATE", after);
    return after;
  });
}
