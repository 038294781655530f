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
