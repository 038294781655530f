// Channel permissions as Discord's channel settings present them: which permissions an overwrite can set on each
// channel type, grouped and worded as the channel editor does; whether a channel is private (hidden from @everyone)
// and whether it is in sync with its category. Pure data and functions, shared by the API's tests and the dashboard.
import { ChannelType, PermissionFlagsBits as P } from "discord-api-types/v10";
import { PERMISSION_GROUPS, type PermissionGroupId, type PermissionInfo } from "./permission-names";
import {
  ALL_PERMISSIONS,
  computeBasePermissions,
  computeChannelPermissions,
  hasPermission,
  type GuildPermissionContext,
  type PermissionMember,
  type PermissionOverwrite,
} from "./permissions";

const or = (...flags: bigint[]) => flags.reduce((bits, flag) => bits | flag, 0n);

/** Every channel: see it, manage it and its permissions and webhooks, invite to it. */
const GENERAL = or(P.ViewChannel, P.ManageChannels, P.ManageRoles, P.ManageWebhooks, P.CreateInstantInvite);
/** Chat, as a text channel (and the text chat of voice and stage channels) has it. */
const CHAT = or(
  P.SendMessages,
  P.EmbedLinks,
  P.AttachFiles,
  P.AddReactions,
  P.UseExternalEmojis,
  P.UseExternalStickers,
  P.MentionEveryone,
  P.ManageMessages,
  P.PinMessages,
  P.BypassSlowmode,
  P.ReadMessageHistory,
  P.SendTTSMessages,
  P.SendVoiceMessages,
  P.SendPolls,
  P.UseApplicationCommands,
  P.UseEmbeddedActivities,
  P.UseExternalApps,
);
const THREADS = or(P.SendMessagesInThreads, P.CreatePublicThreads, P.CreatePrivateThreads, P.ManageThreads);
const VOICE = or(
  P.Connect,
  P.Speak,
  P.Stream,
  P.UseSoundboard,
  P.UseExternalSounds,
  P.UseVAD,
  P.PrioritySpeaker,
  P.MuteMembers,
  P.DeafenMembers,
  P.MoveMembers,
  P.SetVoiceChannelStatus,
);
/** A stage's speakers are invited, so Speak, voice activity and the soundboard are not stage permissions. */
const STAGE = or(P.Connect, P.Stream, P.MuteMembers, P.MoveMembers, P.RequestToSpeak);
const EVENTS = or(P.CreateEvents, P.ManageEvents);

const TEXT_CHANNEL = GENERAL | CHAT | THREADS;
/** Posts are threads: a forum has no thread-creation permissions of its own (Send Messages creates posts). */
const FORUM_CHANNEL = GENERAL | CHAT | P.SendMessagesInThreads | P.ManageThreads;

/** What an overwrite can set on each channel type (Discord's channel permission editor). */
export const CHANNEL_TYPE_PERMISSIONS: Readonly<Record<number, bigint>> = {
  [ChannelType.GuildText]: TEXT_CHANNEL,
  // Announcement channels have no private threads.
  [ChannelType.GuildAnnouncement]: TEXT_CHANNEL & ~P.CreatePrivateThreads,
  [ChannelType.GuildForum]: FORUM_CHANNEL,
  [ChannelType.GuildMedia]: FORUM_CHANNEL,
  [ChannelType.GuildVoice]: GENERAL | VOICE | CHAT | EVENTS,
  [ChannelType.GuildStageVoice]: GENERAL | STAGE | CHAT | EVENTS,
  // A category's overwrites are what its channels sync to, so it offers every channel permission.
  [ChannelType.GuildCategory]: GENERAL | CHAT | THREADS | VOICE | STAGE | EVENTS,
};

/** The permissions an overwrite can set on a channel of this type (none for types without overwrites). */
export function channelTypePermissions(type: number): bigint {
  return CHANNEL_TYPE_PERMISSIONS[type] ?? 0n;
}

// In a channel's editor a few permissions read as the channel's, not the server's.
const CHANNEL_WORDING: Partial<Record<PermissionInfo["key"], { label: string; description: string }>> = {
  ViewChannel: {
    label: "View Channel",
    description: "Allows members to view this channel by default. Turning this off makes the channel private.",
  },
  ManageChannels: {
    label: "Manage Channel",
    description: "Allows members to change this channel's name, description, and settings, or delete it.",
  },
  ManageRoles: {
    label: "Manage Permissions",
    description: "Allows members to change this channel's permissions.",
  },
  ManageWebhooks: {
    label: "Manage Webhooks",
    description: "Allows members to create, edit, or delete webhooks in this channel.",
  },
};

const CHANNEL_GROUP_LABELS: Partial<Record<PermissionGroupId, string>> = { general: "General Channel Permissions" };

export interface ChannelPermissionGroup {
  id: PermissionGroupId;
  label: string;
  permissions: PermissionInfo[];
}

/** The channel editor's groups for this type: the role editor's groups, only what applies, in the channel's words. */
export function channelPermissionGroups(type: number): ChannelPermissionGroup[] {
  const applicable = channelTypePermissions(type);
  return PERMISSION_GROUPS.map((group) => ({
    id: group.id,
    label: CHANNEL_GROUP_LABELS[group.id] ?? group.label,
    permissions: group.permissions
      .filter((info) => (applicable & info.flag) === info.flag)
      .map((info) => ({ ...info, ...CHANNEL_WORDING[info.key] })),
  })).filter((group) => group.permissions.length > 0);
}

/** An overwrite as the wire carries it (bitfields as decimal strings). */
export interface WireOverwrite {
  id: string;
  type: 0 | 1;
  allow: string;
  deny: string;
}

export const toPermissionOverwrite = (o: WireOverwrite): PermissionOverwrite => ({
  id: o.id,
  type: o.type,
  allow: BigInt(o.allow),
  deny: BigInt(o.deny),
});

/** Private: @everyone's overwrite denies View Channel, so only the roles and members it allows see it. */
export function isPrivateChannel(overwrites: readonly WireOverwrite[], guildId: string): boolean {
  const everyone = overwrites.find((o) => o.type === 0 && o.id === guildId);
  return everyone !== undefined && (BigInt(everyone.deny) & P.ViewChannel) !== 0n;
}

/**
 * In sync with its category: the same overwrites (same targets, same allow and deny), in any order, as Discord's
 * client decides whether to show "Permissions synced". A channel without a category has nothing to sync with.
 */
export function isSyncedWithParent(
  overwrites: readonly WireOverwrite[],
  parentOverwrites: readonly WireOverwrite[],
): boolean {
  if (overwrites.length !== parentOverwrites.length) return false;
  const parent = new Map(parentOverwrites.map((o) => [o.id, o]));
  return overwrites.every((o) => {
    const match = parent.get(o.id);
    return (
      match !== undefined &&
      match.type === o.type &&
      BigInt(match.allow) === BigInt(o.allow) &&
      BigInt(match.deny) === BigInt(o.deny)
    );
  });
}

/**
 * The overwrites that make a channel private to the given roles, keeping everything else: @everyone loses View
 * Channel, each chosen role gains it, and nothing else changes. Making it public again removes @everyone's deny.
 */
export function privateChannelOverwrites(
  overwrites: readonly WireOverwrite[],
  guildId: string,
  makePrivate: boolean,
  roleIds: readonly string[] = [],
): WireOverwrite[] {
  const view = P.ViewChannel;
  const byId = new Map(overwrites.map((o) => [o.id, { ...o }]));
  const everyone = byId.get(guildId) ?? { id: guildId, type: 0 as const, allow: "0", deny: "0" };
  everyone.allow = String(BigInt(everyone.allow) & ~view);
  everyone.deny = String(makePrivate ? BigInt(everyone.deny) | view : BigInt(everyone.deny) & ~view);
  byId.set(guildId, everyone);
  if (makePrivate)
    for (const roleId of roleIds) {
      if (roleId === guildId) continue;
      const o = byId.get(roleId) ?? { id: roleId, type: 0 as const, allow: "0", deny: "0" };
      o.allow = String(BigInt(o.allow) | view);
      o.deny = String(BigInt(o.deny) & ~view);
      byId.set(roleId, o);
    }
  // @everyone's overwrite left with nothing in it goes, as in Discord's client; other overwrites stay as they were.
  return [...byId.values()].filter((o) => o.id !== guildId || o.allow !== "0" || o.deny !== "0");
}

/**
 * The bits a member may allow or deny in a channel's overwrites (Discord's rule for Edit Channel Permissions and
 * Modify Channel's permission_overwrites): every bit for the owner and administrators, and when an overwrite of this
 * channel that applies to them (their own, one of their roles', @everyone's) allows Manage Permissions explicitly;
 * otherwise only the permissions they hold in the channel. Only bits that change are judged against it.
 */
export function overwriteGrantableBits(
  ctx: GuildPermissionContext,
  member: PermissionMember,
  overwrites: readonly PermissionOverwrite[],
  now: number | Date = Date.now(),
): bigint {
  if (member.userId === ctx.ownerId || hasPermission(computeBasePermissions(ctx, member, now), P.Administrator))
    return ALL_PERMISSIONS;
  const mine = new Set([ctx.guildId, ...member.roleIds]);
  const grantedHere = overwrites.some(
    (o) => (o.type === 1 ? o.id === member.userId : mine.has(o.id)) && (o.allow & P.ManageRoles) !== 0n,
  );
  return grantedHere ? ALL_PERMISSIONS : computeChannelPermissions(ctx, member, overwrites, now);
}

/**
 * Whether a thread is visible to someone holding `permissionsInParent` (the parent channel's overwrites applied): View
 * Channel there and, for a private thread, being one of its members or managing threads there. List Active Guild
 * Threads answers with it, and the dashboard judges a moderator with it in bot mode, where the bot's token lists all.
 */
export function maySeeThread(thread: { type: number }, permissionsInParent: bigint, isThreadMember: boolean): boolean {
  if (!hasPermission(permissionsInParent, P.ViewChannel)) return false;
  return (
    thread.type !== ChannelType.PrivateThread || isThreadMember || hasPermission(permissionsInParent, P.ManageThreads)
  );
}
