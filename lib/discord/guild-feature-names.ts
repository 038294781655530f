// Guild features as Discord's client names them (its Server Boost perks, server settings and badges), so the
// dashboard never shows a wire name such as ANIMATED_ICON. Only presentation lives here; the values are limits.ts's.
import type { GUILD_FEATURES } from "./limits";

export type GuildFeatureName = (typeof GUILD_FEATURES)[number];

export const GUILD_FEATURE_NAMES: Record<GuildFeatureName, string> = {
  ANIMATED_BANNER: "Animated server banner",
  ANIMATED_ICON: "Animated server icon",
  APPLICATION_COMMAND_PERMISSIONS_V2: "Command permissions",
  AUTO_MODERATION: "AutoMod",
  BANNER: "Server banner",
  COMMUNITY: "Community",
  CREATOR_MONETIZABLE_PROVISIONAL: "Server Subscriptions (provisional)",
  CREATOR_STORE_PAGE: "Server Shop",
  DEVELOPER_SUPPORT_SERVER: "Developer support server",
  DISCOVERABLE: "Server Discovery",
  FEATURABLE: "Featured in Discovery",
  INVITES_DISABLED: "Invites paused",
  INVITE_SPLASH: "Invite background",
  MEMBER_VERIFICATION_GATE_ENABLED: "Rules screening",
  MORE_SOUNDBOARD: "More soundboard slots",
  MORE_STICKERS: "More sticker slots",
  NEWS: "Announcement channels",
  PARTNERED: "Partnered",
  PREVIEW_ENABLED: "Server preview",
  RAID_ALERTS_DISABLED: "Raid alerts off",
  ROLE_ICONS: "Role icons",
  ROLE_SUBSCRIPTIONS_AVAILABLE_FOR_PURCHASE: "Role subscriptions for sale",
  ROLE_SUBSCRIPTIONS_ENABLED: "Role subscriptions",
  SOUNDBOARD: "Soundboard",
  TICKETED_EVENTS_ENABLED: "Ticketed events",
  VANITY_URL: "Vanity URL",
  VERIFIED: "Verified",
  VIP_REGIONS: "VIP voice servers",
  WELCOME_SCREEN_ENABLED: "Welcome screen",
  GUESTS_ENABLED: "Guest invites",
  GUILD_TAGS: "Server tags",
  ENHANCED_ROLE_COLORS: "Enhanced role styles",
  MORE_EMOJI: "More emoji slots",
  COMMERCE: "Store channels",
};

/** The Server Boost level that unlocks a perk, as the client's perk list says it. */
const BOOST_LEVELS: Partial<Record<GuildFeatureName, number>> = {
  ANIMATED_ICON: 1,
  INVITE_SPLASH: 1,
  BANNER: 2,
  ANIMATED_BANNER: 3,
};

/** A feature in words: ANIMATED_ICON → "Animated server icon"; an unknown one in sentence case. */
export function guildFeatureName(feature: string): string {
  return (
    GUILD_FEATURE_NAMES[feature as GuildFeatureName] ??
    feature.charAt(0) + feature.slice(1).toLowerCase().replaceAll("_", " ")
  );
}

/** What gives a server a feature, as the client says it: "Boost level 2" (BANNER), "Server Discovery". */
export function guildFeatureRequirement(feature: string): string {
  const level = BOOST_LEVELS[feature as GuildFeatureName];
  return level ? `Boost level ${level}` : guildFeatureName(feature);
}
