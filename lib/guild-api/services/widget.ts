// The guild widget: Get Guild Widget Settings, Modify Guild Widget, Get Guild Widget (widget.json) and Get Guild Widget
// Image (widget.png), plus two helpers the community operations share: the GUILD_UPDATE payload and @everyone's
// permissions in a channel.
import { createHash } from "node:crypto";
import { computeChannelPermissions, type GuildPermissionContext } from "@/lib/discord/permissions";
import { INVITE_MAX_AGE, WIDGET_MEMBERS_MAX } from "@/lib/discord/limits";
import { decodeIconForWidget, renderWidgetImage, type WidgetImageStyle } from "../widget-image";
import { diffChanges, auditGuildUpdate } from "../audit-log";
import { Errors, invalidFormBody } from "../errors";
import { emitEvent } from "../events";
import { parseOverwrites, Permission, permissionContextOf, type GuildAccess } from "../guards";
import type { ModifyGuildWidgetBody } from "../schemas/community";
import { serializeGuild } from "../serializers/guilds";
import { transaction } from "../store/db";
import { isContentChannelOf, listVoiceChannels } from "../store/channels";
import { listGuildExpressionsById } from "../store/expressions";
import { findGuild, updateGuildWidget, type GuildRow } from "../store/guilds";
import { findImage } from "../store/images";
import { findWidgetInviteCode } from "../store/invites";
import { listWidgetMembers } from "../store/members";
import { listGuildRoles } from "../store/roles";
import { issueInvite, invitesPaused } from "./invites";

// ---------------------------------------------------------------------------------------------------------------
// Shared helpers

/** The guild object GUILD_UPDATE carries, read inside the caller's transaction after the change. */
export async function guildUpdatePayload(guildId: bigint) {
  const guild = (await findGuild(guildId)) as GuildRow;
  const { emojis, stickers } = await listGuildExpressionsById(guildId);
  return serializeGuild(guild, await listGuildRoles(guildId), emojis, stickers);
}

export async function emitGuildUpdate(guildId: bigint, now = Date.now()): Promise<void> {
  await emitEvent(guildId, "GUILD_UPDATE", await guildUpdatePayload(guildId), now);
}

/** What a member holding only @everyone may do in a channel (its overwrites applied), from the permission engine. */
/** What @everyone may do in a channel: its overwrites applied to the guild's @everyone (user id 0 is nobody's). */
function everyonePermissionsIn(context: GuildPermissionContext, overwritesJson: string): bigint {
  return computeChannelPermissions(context, { userId: "0", roleIds: [] }, parseOverwrites(overwritesJson));
}

const canView = (permissions: bigint) => (permissions & Permission.ViewChannel) === Permission.ViewChannel;

// ---------------------------------------------------------------------------------------------------------------
// Widget settings

const serializeSettings = (guild: GuildRow) => ({
  enabled: Boolean(guild.widget_enabled),
  channel_id: guild.widget_channel_id === null ? null : String(guild.widget_channel_id),
});

/** Get Guild Widget Settings (MANAGE_GUILD). */
export function getGuildWidgetSettings(access: GuildAccess) {
  access.authorize("Get Guild Widget Settings");
  return serializeSettings(access.guild);
}

/**
 * Modify Guild Widget (MANAGE_GUILD): enabled and channel_id (a channel of the guild, or null for no invite).
 * A change fires GUILD_UPDATE with the guild and writes a GUILD_UPDATE audit entry, in one transaction.
 */
export async function modifyGuildWidget(
  access: GuildAccess,
  body: ModifyGuildWidgetBody,
  reason: string | null,
  now = Date.now(),
) {
  access.authorize("Modify Guild Widget");
  const guildId = access.guildId;
  return await transaction(async () => {
    const before = (await findGuild(guildId)) as GuildRow;
    let enabled = before.widget_enabled;
    let channelId = before.widget_channel_id;
    if (body.enabled !== undefined && body.enabled !== null) enabled = body.enabled ? 1n : 0n;
    if (body.channel_id === null) channelId = null;
    else if (body.channel_id !== undefined) {
      if (!(await isContentChannelOf(guildId, BigInt(body.channel_id))))
        throw invalidFormBody([
          { path: ["channel_id"], code: "CHANNEL_INVALID", message: "Must be a channel of this guild." },
        ]);
      channelId = BigInt(body.channel_id);
    }
    await updateGuildWidget(guildId, enabled, channelId);
    const after = (await findGuild(guildId)) as GuildRow;
    const view = (g: GuildRow) => ({
      widget_enabled: Boolean(g.widget_enabled),
      widget_channel_id: g.widget_channel_id === null ? null : String(g.widget_channel_id),
    });
    const changes = diffChanges(view(before), view(after));
    if (await auditGuildUpdate(access, reason, changes)) await emitGuildUpdate(guildId, now);
    return serializeSettings(after);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// widget.json

async function findWidgetGuildOrThrow(guildId: bigint): Promise<GuildRow> {
  const guild = await findGuild(guildId);
  if (!guild) throw Errors.unknownGuild();
  if (!guild.widget_enabled) throw Errors.widgetDisabled();
  return guild;
}

/**
 * The widget channel's invite code: the one Get Guild Widget generated earlier while it is still valid, else a new one
 * (INVITE_CREATE fires only then). None without a widget channel, or while invites are paused.
 */
async function widgetInviteCode(guild: GuildRow, now: number): Promise<string | null> {
  if (guild.widget_channel_id === null || invitesPaused(guild, now)) return null;
  const channelId = guild.widget_channel_id;
  return await transaction(async () => {
    const existing = await findWidgetInviteCode(guild.id, channelId, now);
    if (existing !== undefined) return existing;
    if (!(await isContentChannelOf(guild.id, channelId))) return null;
    const { invite } = await issueInvite(
      {
        guildId: guild.id,
        channelId,
        inviterId: null,
        maxAge: INVITE_MAX_AGE.default,
        maxUses: 0,
        temporary: false,
        targetType: null,
        targetUserId: null,
        targetApplicationId: null,
        roleIds: [],
        widget: true,
      },
      now,
    );
    return invite.code;
  });
}

/**
 * Get Guild Widget (no authentication): 403 50004 when the widget is disabled. Voice and stage channels @everyone can
 * see; up to 100 members who are not offline, ordered by username, with anonymized sequential ids, discriminator
 * "0000", no avatar hash and a default avatar URL; the voice channel (and voice flags) of members in a listed channel.
 * instant_invite is `{baseUrl}/invite/{code}` (Discord answers https://discord.com/invite/{code}; Guildhall's invites
 * live on its own origin).
 */
export async function getGuildWidget(guildId: bigint, baseUrl: string, now = Date.now()) {
  const guild = await findWidgetGuildOrThrow(guildId);
  const context = permissionContextOf(guild, await listGuildRoles(guildId));
  const channels = (await listVoiceChannels(guildId)).filter((channel) =>
    canView(everyonePermissionsIn(context, channel.permission_overwrites)),
  );
  const visible = new Set(channels.map((channel) => channel.id));

  const members = (await listWidgetMembers(guildId, WIDGET_MEMBERS_MAX)).map((row, index) => {
    const inVoice = row.channel_id !== null && visible.has(row.channel_id);
    return {
      id: String(index),
      username: row.username,
      discriminator: "0000",
      avatar: null,
      status: row.status,
      // Default avatars by position, so the picture says nothing about who the member is.
      avatar_url: `https://cdn.discordapp.com/embed/avatars/${index % 6}.png`,
      ...(inVoice
        ? {
            channel_id: String(row.channel_id),
            deaf: Boolean(row.deaf),
            mute: Boolean(row.mute),
            self_deaf: Boolean(row.self_deaf),
            self_mute: Boolean(row.self_mute),
            suppress: Boolean(row.suppress),
          }
        : {}),
    };
  });
  const code = await widgetInviteCode(guild, now);
  return {
    id: String(guild.id),
    name: guild.name,
    instant_invite: code === null ? null : `${baseUrl}/invite/${code}`,
    channels: channels.map((channel) => ({
      id: String(channel.id),
      name: channel.name,
      position: Number(channel.position),
    })),
    members,
    presence_count: Number(guild.presence_count),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// widget.png

export interface WidgetImageResult {
  status: 200 | 304;
  body?: Buffer;
  etag: string;
}

interface CachedImage {
  png: Buffer;
  etag: string;
}

/**
 * Rendered images by (guild, style, widget_version, online count). widget_version moves whenever what the image
 * draws may change (name, icon), so an entry never goes stale; the map is bounded, oldest entries leave first.
 */
const imageCache = new Map<string, CachedImage>();
const IMAGE_CACHE_MAX = 512;
async function guildIconPng(guild: GuildRow): Promise<Buffer | null> {
  if (!guild.icon) return null;
  const row = await findImage("icons", guild.id, guild.icon);
  return row && row.content_type === "image/png" ? row.data : null;
}

/**
 * Get Guild Widget Image (no authentication): the PNG of `style` (403 50004 when the widget is disabled). Rendered once
 * per cache key; `ifNoneMatch` equal to the image's ETag answers 304 without a body.
 */
export async function getGuildWidgetImage(
  guildId: bigint,
  style: WidgetImageStyle,
  ifNoneMatch: string | undefined,
): Promise<WidgetImageResult> {
  const guild = await findWidgetGuildOrThrow(guildId);
  const onlineCount = Number(guild.presence_count);
  const key = `${guild.id}:${style}:${guild.widget_version}:${onlineCount}`;
  let cached = imageCache.get(key);
  if (!cached) {
    const iconPng = await guildIconPng(guild);
    const icon = iconPng ? decodeIconForWidget(iconPng) : null;
    const png = renderWidgetImage({ style, guildName: guild.name, onlineCount, icon });
    cached = { png, etag: `"${createHash("sha1").update(png).digest("base64url")}"` };
    if (imageCache.size >= IMAGE_CACHE_MAX) imageCache.delete(imageCache.keys().next().value as string);
    imageCache.set(key, cached);
  }
  if (
    ifNoneMatch !== undefined &&
    ifNoneMatch.split(",").some((tag) => tag.trim() === cached.etag || tag.trim() === "*")
  )
    return { status: 304, etag: cached.etag };
  return { status: 200, body: cached.png, etag: cached.etag };
}
