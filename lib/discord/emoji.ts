// Emoji references as welcome screens and onboarding options carry them: a custom emoji by id (its name follows from
// the guild), or a standard emoji by its unicode character. Shared by the API (validation) and the dashboard (forms).

/**
 * A standard (unicode) emoji: pictographs, keycaps, flags. Names of custom emojis travel with their emoji_id, so a bare
 * word without an id names nothing.
 */
const UNICODE_EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20e3/u;
export const isUnicodeEmoji = (value: string) => UNICODE_EMOJI.test(value) && !/[\p{L}\p{N}]{2,}/u.test(value);

/** Longest emoji_name the API takes (Discord's OpenAPI: 100 characters). */
export const EMOJI_NAME_MAX = 100;
