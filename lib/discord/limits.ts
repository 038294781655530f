// The spec's limits as named constants, shared by the built-in API (validation) and the dashboard (forms).
// Source: shared/spec/guild-management-interface.md, "Limits" and the operation tables.

export const GUILD_NAME_LENGTH = { min: 2, max: 100 } as const;
export const CHANNEL_NAME_LENGTH = { min: 1, max: 100 } as const;
export const CHANNEL_TOPIC_MAX = 1024;
export const RATE_LIMIT_PER_USER_MAX = 21_600;
export const BITRATE_MIN = 8_000;
/** Voice bitrate maximum by premium tier (index), and with VIP_REGIONS. */
export const VOICE_BITRATE_MAX_BY_TIER = [96_000, 128_000, 256_000, 384_000] as const;
export const VOICE_BITRATE_MAX_VIP = 384_000;
export const STAGE_BITRATE_MAX = 64_000;
export const AFK_TIMEOUTS = [60, 300, 900, 1800, 3600] as const;
export const ICON_MAX_SIZE = 1024;
export const ROLE_NAME_MAX = 100;
export const MEMBER_LIST_LIMIT = { min: 1, max: 1000, default: 1 } as const;
export const MEMBER_SEARCH_LIMIT = { min: 1, max: 1000, default: 1 } as const;
export const NICK_MAX = 32;
export const BANS_LIMIT = { min: 1, max: 1000, default: 1000 } as const;
export const BULK_BAN_MAX = 200;
export const DELETE_MESSAGE_SECONDS_MAX = 604_800;
export const DELETE_MESSAGE_DAYS_MAX = 7;
export const PRUNE_DAYS = { min: 1, max: 30, default: 7 } as const;
export const TIMEOUT_MAX_MS = 28 * 24 * 60 * 60 * 1000;
export const INCIDENT_ACTION_MAX_MS = 24 * 60 * 60 * 1000;
export const INTEGRATIONS_MAX = 50;
export const WELCOME_CHANNELS_MAX = 5;
export const WIDGET_MEMBERS_MAX = 100;
export const ONBOARDING_MIN_DEFAULT_CHANNELS = 7;
export const ONBOARDING_MIN_WRITABLE_CHANNELS = 5;
export const STAGE_TOPIC_LENGTH = { min: 1, max: 120 } as const;
export const AUDIT_LOG_REASON_MAX = 512;
export const USER_GUILDS_LIMIT = { min: 1, max: 200, default: 200 } as const;

// ── Guild and channel operations (Modify Guild, Create Guild Channel, audit log) ──
/** Modify Guild `description`: our spec gives no bound; Discord's OpenAPI (GuildPatchRequestPartial) caps it at 300. */
export const GUILD_DESCRIPTION_MAX = 300;
export const VERIFICATION_LEVEL_MAX = 4;
export const EXPLICIT_CONTENT_FILTER_MAX = 2;
export const DEFAULT_MESSAGE_NOTIFICATIONS_MAX = 1;
/** The six defined System Channel Flags (1<<0 … 1<<5); any other bit is refused. */
export const SYSTEM_CHANNEL_FLAGS_ALL = 0b11_1111;
/** Every Guild Features value the spec names (exact values), plus the two seen in sample responses. */
export const GUILD_FEATURES = [
  "ANIMATED_BANNER",
  "ANIMATED_ICON",
  "APPLICATION_COMMAND_PERMISSIONS_V2",
  "AUTO_MODERATION",
  "BANNER",
  "COMMUNITY",
  "CREATOR_MONETIZABLE_PROVISIONAL",
  "CREATOR_STORE_PAGE",
  "DEVELOPER_SUPPORT_SERVER",
  "DISCOVERABLE",
  "FEATURABLE",
  "INVITES_DISABLED",
  "INVITE_SPLASH",
  "MEMBER_VERIFICATION_GATE_ENABLED",
  "MORE_SOUNDBOARD",
  "MORE_STICKERS",
  "NEWS",
  "PARTNERED",
  "PREVIEW_ENABLED",
  "RAID_ALERTS_DISABLED",
  "ROLE_ICONS",
  "ROLE_SUBSCRIPTIONS_AVAILABLE_FOR_PURCHASE",
  "ROLE_SUBSCRIPTIONS_ENABLED",
  "SOUNDBOARD",
  "TICKETED_EVENTS_ENABLED",
  "VANITY_URL",
  "VERIFIED",
  "VIP_REGIONS",
  "WELCOME_SCREEN_ENABLED",
  "GUESTS_ENABLED",
  "GUILD_TAGS",
  "ENHANCED_ROLE_COLORS",
  "MORE_EMOJI",
  "COMMERCE",
] as const;
/** The features Modify Guild may add or remove, and the permission that takes; every other feature keeps its state. */
export const MUTABLE_GUILD_FEATURES = {
  COMMUNITY: "ADMINISTRATOR",
  DISCOVERABLE: "ADMINISTRATOR",
  INVITES_DISABLED: "MANAGE_GUILD",
  RAID_ALERTS_DISABLED: "MANAGE_GUILD",
} as const;
/** Discord's locales (preferred_locale). */
export const GUILD_LOCALES = [
  "id",
  "da",
  "de",
  "en-GB",
  "en-US",
  "es-ES",
  "es-419",
  "fr",
  "hr",
  "it",
  "lt",
  "hu",
  "nl",
  "no",
  "pl",
  "pt-BR",
  "ro",
  "fi",
  "sv-SE",
  "vi",
  "tr",
  "cs",
  "el",
  "bg",
  "ru",
  "uk",
  "hi",
  "th",
  "zh-CN",
  "ja",
  "zh-TW",
  "ko",
] as const;
/** Splash, discovery splash and banner images: 16:9 (a pixel of rounding allowed). */
export const GUILD_BANNER_ASPECT = { width: 16, height: 9 } as const;
export const DEFAULT_BITRATE = 64_000;
export const VOICE_USER_LIMIT_MAX = 99;
export const STAGE_USER_LIMIT_MAX = 10_000;
/** Discord's OpenAPI (CreateGuildChannelRequest): at most 100 overwrites and 20 forum tags per channel. */
export const CHANNEL_OVERWRITES_MAX = 100;
export const FORUM_TAGS_MAX = 20;
export const FORUM_TAG_NAME_MAX = 20;
export const THREAD_AUTO_ARCHIVE_DURATIONS = [60, 1440, 4320, 10080] as const;
export const AUDIT_LOG_LIMIT = { min: 1, max: 100, default: 50 } as const;
/** GET /guilds/{id}/events (Guildhall's outbox reader). */
export const GUILD_EVENTS_LIMIT = { min: 1, max: 1000, default: 100 } as const;

/** A voice channel's bitrate ceiling: by premium tier, 384000 with VIP_REGIONS. Stage channels: STAGE_BITRATE_MAX. */
export function maxVoiceBitrate(premiumTier: number, features: readonly string[]): number {
  if (features.includes("VIP_REGIONS")) return VOICE_BITRATE_MAX_VIP;
  return VOICE_BITRATE_MAX_BY_TIER[Math.min(Math.max(premiumTier, 0), VOICE_BITRATE_MAX_BY_TIER.length - 1)];
}

// ── Bans, prune, integrations ──
/** Prune include_roles: at most 100 role ids (Discord's OpenAPI, PruneGuildRequest and the GET query). */
export const PRUNE_INCLUDE_ROLES_MAX = 100;

// ── Invites, target users, widget, welcome screen, onboarding ──
/** Create Channel Invite max_age (seconds; 0 = never expires) and max_uses (0 = unlimited). */
export const INVITE_MAX_AGE = { min: 0, max: 604_800, default: 86_400 } as const;
export const INVITE_MAX_USES = { min: 0, max: 100, default: 0 } as const;
/** Generated invite codes: 8–10 base62 characters. */
export const INVITE_CODE_LENGTH = { min: 8, max: 10 } as const;
/** Discord's OpenAPI (CreateGuildInviteRequest.role_ids): at most 250 roles assigned on accept. */
export const INVITE_ROLE_IDS_MAX = 250;
/**
 * Target-users CSV (Update Target Users, Create Channel Invite's target_users_file). Discord documents no limits, so
 * these are Guildhall's: at most 100,000 user ids, 120,000 lines (ids, the header, blank lines) and 2.5 MiB (a
 * 19-digit id in quotes with CRLF is 23 bytes a line: 2.3 MB for 100,000). A refused file names at most
 * TARGET_USERS_ERRORS_SHOWN bad lines, then how many more there are.
 */
export const TARGET_USERS_MAX_IDS = 100_000;
export const TARGET_USERS_MAX_LINES = 120_000;
export const TARGET_USERS_UPLOAD_MAX_BYTES = 2.5 * 1024 * 1024;
export const TARGET_USERS_ERRORS_SHOWN = 100;
/** Welcome screen description (WelcomeScreenPatchRequestPartial) and a welcome channel's description (GuildWelcomeChannel). */
export const WELCOME_DESCRIPTION_MAX = 140;
export const WELCOME_CHANNEL_DESCRIPTION_LENGTH = { min: 1, max: 50 } as const;
/** Discord's OpenAPI (UpdateGuildOnboardingRequest and its prompts and options). */
export const ONBOARDING_PROMPTS_MAX = 15;
export const ONBOARDING_OPTIONS_MAX = 50;
export const ONBOARDING_PROMPT_TITLE_LENGTH = { min: 1, max: 100 } as const;
export const ONBOARDING_OPTION_TITLE_LENGTH = { min: 1, max: 50 } as const;
export const ONBOARDING_OPTION_DESCRIPTION_MAX = 100;
/** role_ids and channel_ids of one prompt option. */
export const ONBOARDING_OPTION_IDS_MAX = 50;
export const ONBOARDING_DEFAULT_CHANNELS_MAX = 500;

// ── Applications (the built-in Developer Portal and /applications) ──
/** OAuth2 redirect URIs per application (Discord's Developer Portal allows 10) and their length. */
export const REDIRECT_URIS_MAX = 10;
export const REDIRECT_URI_MAX_LENGTH = 2048;
/** Activity URL Mappings per application: Guildhall's own cap (Discord documents none). */
export const URL_MAPPINGS_MAX = 50;
/** Application description (Discord's OpenAPI, ApplicationFormPartial.description). */
export const APPLICATION_DESCRIPTION_MAX = 400;

// ── Roles and members (Create/Modify Guild Role, Modify Guild Member, Add Guild Member, Modify Current Member) ──
/** Discord's cap on roles per guild (error 30005 past it). */
export const ROLES_MAX = 250;
/** Discord's OpenAPI (CreateRoleRequest): unicode_emoji at most 100 characters. */
export const ROLE_UNICODE_EMOJI_MAX = 100;
/** RGB colors (color, colors.*): 0x000000–0xFFFFFF. */
export const ROLE_COLOR_MAX = 0xff_ff_ff;
/** Discord's OpenAPI: roles in Modify Guild Member at most 350, in Add Guild Member at most 250. */
export const MEMBER_ROLES_MAX = 350;
export const ADD_MEMBER_ROLES_MAX = 250;
/** Discord's OpenAPI (Modify Current Member): bio at most 190 characters. */
export const MEMBER_BIO_MAX = 190;
/** Search Guild Members `query`: our spec gives no bound; 100 characters keeps the index range scan short. */
export const MEMBER_SEARCH_QUERY_MAX = 100;
/** Guild Member Flags a client may set: only BYPASSES_VERIFICATION (1<<2); every other bit is preserved. */
export const MEMBER_FLAGS_EDITABLE = 1 << 2;
/** Application flags that let a bot call List Guild Members: GATEWAY_GUILD_MEMBERS (1<<14), GATEWAY_GUILD_MEMBERS_LIMITED (1<<15). */
export const APPLICATION_FLAGS_GUILD_MEMBERS = (1 << 14) | (1 << 15);

// ── Expressions (emoji, stickers, soundboard sounds; issue #34) ──
/** Custom emoji names: 2–32 characters, letters, digits and underscores (Discord's rule). */
export const EMOJI_CUSTOM_NAME_LENGTH = { min: 2, max: 32 } as const;
export const EMOJI_CUSTOM_NAME_PATTERN = /^[A-Za-z0-9_]+$/;
/** An emoji image: at most 256 KiB (Discord answers "File cannot be larger than 256.0 kb."). */
export const EMOJI_IMAGE_MAX_BYTES = 256 * 1024;
/** Static slots by premium tier, and as many animated ones; MORE_EMOJI raises both to at least 200. */
export const EMOJI_SLOTS_BY_TIER = [50, 100, 150, 250] as const;
export const MORE_EMOJI_SLOTS = 200;
/** Discord's OpenAPI (create_guild_sticker): name 2–30, tags 1–200, description at most 100 (2–100 when sent). */
export const STICKER_NAME_LENGTH = { min: 2, max: 30 } as const;
export const STICKER_TAGS_LENGTH = { min: 1, max: 200 } as const;
export const STICKER_DESCRIPTION_LENGTH = { min: 2, max: 100 } as const;
/** A sticker file: PNG, APNG, GIF or Lottie JSON, at most 512 KiB, exactly 320 × 320. */
export const STICKER_FILE_MAX_BYTES = 512 * 1024;
export const STICKER_DIMENSION = 320;
/** Animated stickers: at most 5 seconds and 1,000 frames (Discord's 170007 and 170004). */
export const STICKER_ANIMATION_MAX_MS = 5_000;
export const STICKER_FRAMES_MAX = 1_000;
export const STICKER_SLOTS_BY_TIER = [5, 15, 30, 60] as const;
/** Discord's OpenAPI (SoundboardCreateRequest): name 2–32, emoji_name 1–32, volume 0–1. */
export const SOUND_NAME_LENGTH = { min: 2, max: 32 } as const;
export const SOUND_EMOJI_NAME_MAX = 32;
/** A sound: MP3 or OGG, at most 512 KiB and 5.2 seconds. */
export const SOUND_MAX_BYTES = 512 * 1024;
export const SOUND_MAX_MS = 5_200;
export const SOUNDBOARD_SLOTS_BY_TIER = [8, 24, 36, 48] as const;

const byTier = (slots: readonly number[], premiumTier: number) =>
  slots[Math.min(Math.max(premiumTier, 0), slots.length - 1)];

/** Static emoji slots (and, separately, animated ones) of a guild. */
export function emojiSlots(premiumTier: number, features: readonly string[]): number {
  const slots = byTier(EMOJI_SLOTS_BY_TIER, premiumTier);
  return features.includes("MORE_EMOJI") ? Math.max(slots, MORE_EMOJI_SLOTS) : slots;
}

/** Sticker slots; MORE_STICKERS gives the top tier's. */
export function stickerSlots(premiumTier: number, features: readonly string[]): number {
  return features.includes("MORE_STICKERS") ? STICKER_SLOTS_BY_TIER[3] : byTier(STICKER_SLOTS_BY_TIER, premiumTier);
}

/** Soundboard slots; MORE_SOUNDBOARD gives the top tier's. */
export function soundboardSlots(premiumTier: number, features: readonly string[]): number {
  return features.includes("MORE_SOUNDBOARD")
    ? SOUNDBOARD_SLOTS_BY_TIER[3]
    : byTier(SOUNDBOARD_SLOTS_BY_TIER, premiumTier);
}
