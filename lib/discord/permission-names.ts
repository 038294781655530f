// The permission catalogue: every Discord permission flag with the label, group and order of Discord's role
// permission editor, so the dashboard renders the same editor and error messages name permissions as users know them.
// Bits come from discord-api-types; only presentation lives here.
import { PermissionFlagsBits } from "discord-api-types/v10";

/** A permission's name as discord-api-types spells it (`BanMembers`). Excludes the deprecated alias ManageEmojisAndStickers. */
export type PermissionKey = Exclude<keyof typeof PermissionFlagsBits, "ManageEmojisAndStickers">;

export interface PermissionInfo {
  readonly key: PermissionKey;
  readonly flag: bigint;
  /** The label Discord's client shows in the role editor. */
  readonly label: string;
  readonly description: string;
  /**
   * Discord marks these as elevated: they need 2FA on guilds with mfa_level ELEVATED, or the client warns before granting
   * them, because they let a member damage the server or other members.
   */
  readonly dangerous: boolean;
}

export type PermissionGroupId = "general" | "membership" | "text" | "voice" | "apps" | "stage" | "events" | "advanced";

export interface PermissionGroup {
  readonly id: PermissionGroupId;
  readonly label: string;
  readonly permissions: readonly PermissionInfo[];
}

type Entry = readonly [key: PermissionKey, label: string, description: string, dangerous?: "dangerous"];

// Labels follow Discord's client, except KickMembers: the client now reads "Kick, Approve, and Reject Members",
// which is clumsy in "needs …" messages; Guildhall has no member applications, so the older label is the accurate one.
const GROUPS: ReadonlyArray<readonly [PermissionGroupId, string, readonly Entry[]]> = [
  [
    "general",
    "General Server Permissions",
    [
      ["ViewChannel", "View Channels", "Allows members to view channels by default (excluding private channels)."],
      ["ManageChannels", "Manage Channels", "Allows members to create, edit, or delete channels.", "dangerous"],
      [
        "ManageRoles",
        "Manage Roles",
        "Allows members to create new roles and edit or delete roles lower than their highest role.",
        "dangerous",
      ],
      [
        "CreateGuildExpressions",
        "Create Expressions",
        "Allows members to add custom emoji, stickers, and sounds in this server.",
      ],
      [
        "ManageGuildExpressions",
        "Manage Expressions",
        "Allows members to edit or remove custom emoji, stickers, and sounds in this server.",
        "dangerous",
      ],
      ["ViewAuditLog", "View Audit Log", "Allows members to view a record of who made which changes in this server."],
      ["ViewGuildInsights", "View Server Insights", "Allows members to view Server Insights."],
      [
        "ViewCreatorMonetizationAnalytics",
        "View Server Subscription Insights",
        "Allows members to view analytics for server subscriptions.",
        "dangerous",
      ],
      ["ManageWebhooks", "Manage Webhooks", "Allows members to create, edit, or delete webhooks.", "dangerous"],
      [
        "ManageGuild",
        "Manage Server",
        "Allows members to change this server's name, region, and settings, and view all invites.",
        "dangerous",
      ],
    ],
  ],
  [
    "membership",
    "Membership Permissions",
    [
      ["CreateInstantInvite", "Create Invite", "Allows members to invite new people to this server."],
      ["ChangeNickname", "Change Nickname", "Allows members to change their own nickname."],
      ["ManageNicknames", "Manage Nicknames", "Allows members to change the nicknames of other members."],
      ["KickMembers", "Kick Members", "Allows members to remove other members from this server.", "dangerous"],
      [
        "BanMembers",
        "Ban Members",
        "Allows members to permanently ban and delete the message history of other members.",
        "dangerous",
      ],
      [
        "ModerateMembers",
        "Timeout Members",
        "Allows members to temporarily stop users from chatting or interacting.",
        "dangerous",
      ],
    ],
  ],
  [
    "text",
    "Text Channel Permissions",
    [
      [
        "SendMessages",
        "Send Messages and Create Posts",
        "Allows members to send messages in text channels and create posts in forum channels.",
      ],
      [
        "SendMessagesInThreads",
        "Send Messages in Threads and Posts",
        "Allows members to send messages in threads and in posts.",
      ],
      [
        "CreatePublicThreads",
        "Create Public Threads",
        "Allows members to create threads that everyone in a channel can view.",
      ],
      ["CreatePrivateThreads", "Create Private Threads", "Allows members to create invite-only threads."],
      ["EmbedLinks", "Embed Links", "Allows links that members share to show embedded content."],
      ["AttachFiles", "Attach Files", "Allows members to upload files or media."],
      ["AddReactions", "Add Reactions", "Allows members to add new emoji reactions to a message."],
      ["UseExternalEmojis", "Use External Emoji", "Allows members to use emoji from other servers."],
      ["UseExternalStickers", "Use External Stickers", "Allows members to use stickers from other servers."],
      [
        "MentionEveryone",
        "Mention @everyone, @here, and All Roles",
        "Allows members to notify everyone in a channel or every member of a role.",
        "dangerous",
      ],
      ["ManageMessages", "Manage Messages", "Allows members to delete messages by other members.", "dangerous"],
      ["PinMessages", "Pin Messages", "Allows members to pin or unpin any message."],
      ["BypassSlowmode", "Bypass Slowmode", "Allows members to send messages without being affected by slowmode."],
      [
        "ManageThreads",
        "Manage Threads and Posts",
        "Allows members to rename, delete, close, and turn on slow mode for threads and posts.",
        "dangerous",
      ],
      ["ReadMessageHistory", "Read Message History", "Allows members to read messages sent previously in channels."],
      ["SendTTSMessages", "Send Text-to-Speech Messages", "Allows members to send text-to-speech messages."],
      ["SendVoiceMessages", "Send Voice Messages", "Allows members to send voice messages."],
      ["SendPolls", "Create Polls", "Allows members to create polls."],
    ],
  ],
  [
    "voice",
    "Voice Channel Permissions",
    [
      ["Connect", "Connect", "Allows members to join voice channels and hear others."],
      ["Speak", "Speak", "Allows members to talk in voice channels."],
      ["Stream", "Video", "Allows members to share their video, screen share, or stream a game in this server."],
      ["UseSoundboard", "Use Soundboard", "Allows members to send sounds from the server soundboard."],
      ["UseExternalSounds", "Use External Sounds", "Allows members to use sounds from other servers."],
      ["UseVAD", "Use Voice Activity", "Allows members to speak in voice channels by simply talking."],
      ["PrioritySpeaker", "Priority Speaker", "Allows members to be more easily heard in voice channels."],
      ["MuteMembers", "Mute Members", "Allows members to mute other members in voice channels for everyone."],
      ["DeafenMembers", "Deafen Members", "Allows members to deafen other members in voice channels."],
      ["MoveMembers", "Move Members", "Allows members to disconnect or move other members between voice channels."],
      ["SetVoiceChannelStatus", "Set Voice Channel Status", "Allows members to create and edit voice channel status."],
    ],
  ],
  [
    "apps",
    "Apps Permissions",
    [
      ["UseApplicationCommands", "Use Application Commands", "Allows members to use commands from applications."],
      ["UseEmbeddedActivities", "Use Activities", "Allows members to use Activities."],
      [
        "UseExternalApps",
        "Use External Apps",
        "Allows apps that members have added to their account to post messages in this server.",
      ],
    ],
  ],
  [
    "stage",
    "Stage Channel Permissions",
    [["RequestToSpeak", "Request to Speak", "Allows requests to speak in Stage channels."]],
  ],
  [
    "events",
    "Events Permissions",
    [
      ["CreateEvents", "Create Events", "Allows members to create events."],
      ["ManageEvents", "Manage Events", "Allows members to edit and cancel events.", "dangerous"],
    ],
  ],
  [
    "advanced",
    "Advanced Permissions",
    [
      [
        "Administrator",
        "Administrator",
        "Members with this permission will have every permission and will also bypass all channel specific permissions or restrictions.",
        "dangerous",
      ],
    ],
  ],
];

/** Discord's role editor, group by group, in the editor's order. */
export const PERMISSION_GROUPS: readonly PermissionGroup[] = GROUPS.map(([id, label, entries]) => ({
  id,
  label,
  permissions: entries.map(([key, entryLabel, description, dangerous]) => ({
    key,
    flag: PermissionFlagsBits[key],
    label: entryLabel,
    description,
    dangerous: dangerous === "dangerous",
  })),
}));

/** Every permission in editor order (the order `missingPermissions` and `describeMissing` list them in). */
export const PERMISSIONS: readonly PermissionInfo[] = PERMISSION_GROUPS.flatMap((group) => group.permissions);

const BY_FLAG: ReadonlyMap<bigint, PermissionInfo> = new Map(PERMISSIONS.map((info) => [info.flag, info]));
const EDITOR_ORDER: ReadonlyMap<bigint, number> = new Map(PERMISSIONS.map((info, index) => [info.flag, index]));

/** The OR of the flags marked dangerous. */
export const DANGEROUS_PERMISSIONS: bigint = PERMISSIONS.reduce(
  (bits, info) => (info.dangerous ? bits | info.flag : bits),
  0n,
);

/** The catalogue entry for a single flag, or undefined for a bit Discord has not defined (or several bits). */
export function permissionInfo(flag: bigint): PermissionInfo | undefined {
  return BY_FLAG.get(flag);
}

/** "Ban Members" for BanMembers; several flags are listed in editor order; unknown bits read "Unknown Permission (1 << n)". */
export function permissionLabel(flag: bigint): string {
  const known = BY_FLAG.get(flag);
  if (known) return known.label;
  return splitFlags(flag)
    .map((bit) => BY_FLAG.get(bit)?.label ?? `Unknown Permission (1 << ${bitIndex(bit)})`)
    .join(", ");
}

/** True when the flag (or any of several flags) is one Discord treats as elevated. */
export function isDangerousPermission(flag: bigint): boolean {
  return (flag & DANGEROUS_PERMISSIONS) !== 0n;
}

/** The single-bit flags set in `bits`, in editor order; bits Discord has not defined come last, lowest first. */
export function splitFlags(bits: bigint): bigint[] {
  const flags: bigint[] = [];
  for (let rest = bits, bit = 1n; rest > 0n; rest >>= 1n, bit <<= 1n) if (rest & 1n) flags.push(bit);
  const order = (flag: bigint) => EDITOR_ORDER.get(flag) ?? PERMISSIONS.length + bitIndex(flag);
  return flags.sort((a, b) => order(a) - order(b));
}

function bitIndex(bit: bigint): number {
  return bit.toString(2).length - 1;
}
