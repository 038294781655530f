// The invite object (type GUILD) with its partial guild, partial channel, inviter, targets and roles; the invite
// metadata (uses, max_uses, max_age, temporary, created_at) only where the caller may see it; the welcome screen,
// which travels inside the invite's guild when it is enabled.
import type { ChannelRow } from "../store/channels";
import type { GuildRow } from "../store/guilds";
import type { InviteRow } from "../store/invites";
import type { RoleRow } from "../store/roles";
import type { ScheduledEventRow } from "../store/scheduled-events";
import { serializeScheduledEvent } from "./scheduled-events";
import type { UserRow } from "../store/users";
import { serializePartialApplication, type PartialApplicationRow } from "./applications";
import { serializeUser } from "./users";

/** The channel's columns an invite shows. */
export type InviteChannelRow = Pick<ChannelRow, "id" | "type" | "name">;
/** The application's columns an invite shows. */
export type InviteApplicationRow = PartialApplicationRow;

const iso = (ms: bigint | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

export interface WelcomeScreenChannel {
  channel_id: string;
  description: string;
  emoji_id: string | null;
  emoji_name: string | null;
}

/** The welcome screen object: description and up to five channels, as stored on the guild row. */
export function serializeWelcomeScreen(guild: Pick<GuildRow, "welcome_description" | "welcome_channels">) {
  return {
    description: guild.welcome_description,
    welcome_channels: JSON.parse(guild.welcome_channels) as WelcomeScreenChannel[],
  };
}

const hasFeature = (guild: GuildRow, feature: string) => (JSON.parse(guild.features) as string[]).includes(feature);

/** The partial guild of an invite (InviteGuildResponse), with the welcome screen when it is enabled. */
export function serializeInviteGuild(guild: GuildRow) {
  const features = JSON.parse(guild.features) as string[];
  return {
    id: String(guild.id),
    name: guild.name,
    splash: guild.splash,
    banner: guild.banner,
    description: guild.description,
    icon: guild.icon,
    features,
    verification_level: Number(guild.verification_level),
    vanity_url_code: guild.vanity_url_code,
    nsfw_level: Number(guild.nsfw_level),
    nsfw: guild.nsfw_level === 1n || guild.nsfw_level === 3n,
    premium_subscription_count: Number(guild.premium_subscription_count),
    ...(hasFeature(guild, "WELCOME_SCREEN_ENABLED") ? { welcome_screen: serializeWelcomeScreen(guild) } : {}),
  };
}

/** An embedded application as an invite names it (InviteApplicationResponse). */
export function serializeInviteApplication(app: InviteApplicationRow) {
  return {
    ...serializePartialApplication(app),
    // Guildhall signs no interactions, so its applications have no public verification key.
    verify_key: "",
  };
}

/** A role assigned on accepting (InviteGuildRoleResponse): only the display fields. */
export function serializeInviteRole(role: RoleRow) {
  return {
    id: String(role.id),
    name: role.name,
    position: Number(role.position),
    color: Number(role.color),
    colors: {
      primary_color: Number(role.color),
      secondary_color: role.secondary_color === null ? null : Number(role.secondary_color),
      tertiary_color: role.tertiary_color === null ? null : Number(role.tertiary_color),
    },
    icon: role.icon,
    unicode_emoji: role.unicode_emoji,
  };
}

/** Everything an invite refers to, read by the service. */
export interface InviteRefs {
  guild: GuildRow;
  channel: InviteChannelRow;
  inviter: UserRow | null;
  targetUser: UserRow | null;
  targetApplication: InviteApplicationRow | null;
  roles: readonly RoleRow[];
}

export interface InviteViewOptions {
  /** Invite metadata: for the creator and holders of MANAGE_GUILD. */
  metadata?: boolean;
  counts?: { members: number; presences: number };
  scheduledEvent?: ScheduledEventRow | null;
}

export function serializeInvite(invite: InviteRow, refs: InviteRefs, options: InviteViewOptions = {}) {
  const targetType = invite.target_type === null ? null : Number(invite.target_type);
  return {
    type: Number(invite.type),
    code: invite.code,
    ...(refs.inviter ? { inviter: serializeUser(refs.inviter) } : {}),
    expires_at: iso(invite.expires_at),
    flags: Number(invite.flags),
    guild: serializeInviteGuild(refs.guild),
    guild_id: String(invite.guild_id),
    channel: { id: String(refs.channel.id), type: Number(refs.channel.type), name: refs.channel.name },
    ...(targetType !== null ? { target_type: targetType } : {}),
    ...(refs.targetUser ? { target_user: serializeUser(refs.targetUser) } : {}),
    ...(refs.targetApplication ? { target_application: serializeInviteApplication(refs.targetApplication) } : {}),
    ...(options.counts
      ? { approximate_member_count: options.counts.members, approximate_presence_count: options.counts.presences }
      : {}),
    ...(options.scheduledEvent
      ? { guild_scheduled_event: serializeScheduledEvent(options.scheduledEvent, { withUserCount: true }) }
      : {}),
    ...(refs.roles.length > 0 ? { roles: refs.roles.map(serializeInviteRole) } : {}),
    ...(options.metadata
      ? {
          uses: Number(invite.uses),
          max_uses: Number(invite.max_uses),
          max_age: Number(invite.max_age),
          temporary: Boolean(invite.temporary),
          created_at: iso(invite.created_at) as string,
        }
      : {}),
  };
}

/** INVITE_CREATE's payload (the gateway's invite create event fields). */
export function inviteCreateEvent(invite: InviteRow, refs: InviteRefs) {
  return {
    channel_id: String(invite.channel_id),
    code: invite.code,
    created_at: iso(invite.created_at) as string,
    guild_id: String(invite.guild_id),
    ...(refs.inviter ? { inviter: serializeUser(refs.inviter) } : {}),
    max_age: Number(invite.max_age),
    max_uses: Number(invite.max_uses),
    ...(invite.target_type !== null ? { target_type: Number(invite.target_type) } : {}),
    ...(refs.targetUser ? { target_user: serializeUser(refs.targetUser) } : {}),
    ...(refs.targetApplication ? { target_application: serializeInviteApplication(refs.targetApplication) } : {}),
    temporary: Boolean(invite.temporary),
    uses: Number(invite.uses),
    expires_at: iso(invite.expires_at),
  };
}
