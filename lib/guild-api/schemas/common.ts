// Field schemas every request schema shares: snowflakes (string or JSON integer, range-checked), booleans as Discord
// reads them from bodies and query strings, names (trimmed, no control characters), lengths and ISO timestamps.
// Failures carry Discord's field error codes (see errors.ts).
import { z } from "zod";
import { repeatedIdPositions, toSnowflakeString } from "@/lib/discord/snowflake";

const issue = (ctx: z.RefinementCtx, code: string, message: string, path?: PropertyKey[]) =>
  ctx.addIssue({ code: "custom", message, params: { code }, path });

const shown = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value, bigintAsText));
const bigintAsText = (_key: string, value: unknown) => (typeof value === "bigint" ? value.toString() : value);

const snowflakeOf = (allowZero: boolean) =>
  z.unknown().transform((value, ctx) => {
    if (value === undefined) {
      issue(ctx, "BASE_TYPE_REQUIRED", "This field is required");
      return z.NEVER;
    }
    const id = toSnowflakeString(value, allowZero);
    if (id === null) {
      issue(ctx, "NUMBER_TYPE_COERCE", `Value "${shown(value)}" is not snowflake.`);
      return z.NEVER;
    }
    return id;
  });

/**
 * An id: a decimal string or a JSON integer (discord.py sends integers; the body parser keeps them exact), between 1
 * and 2^63 - 1 (ids are stored as signed 64-bit integers), as its decimal string.
 */
export const snowflake = snowflakeOf(false);

/** A paging cursor (`after`, `before`): a snowflake, or 0 for "before every id". */
export const snowflakeCursor = snowflakeOf(true);

/** A list of distinct snowflakes: a repeated id is refused where it repeats (uniqueItems in Discord's OpenAPI). */
export const uniqueSnowflakes = (max: number) =>
  z
    .array(snowflake)
    .max(max)
    .superRefine((ids, ctx) => {
      for (const index of repeatedIdPositions(ids))
        issue(ctx, "SET_TYPE_ALREADY_CONTAINS_VALUE", "The set already contains this value.", [index]);
    });

const TRUE_WORDS = new Set(["true", "True", "1"]);
const BOOLEAN_WORDS = new Set([...TRUE_WORDS, "false", "False", "0"]);

/** A query-string boolean as Discord reads it: true/false/True/False/1/0; absent is false. */
export const booleanQuery = z
  .string()
  .optional()
  .transform((value, ctx) => {
    if (value === undefined) return false;
    if (!BOOLEAN_WORDS.has(value)) {
      issue(ctx, "BOOLEAN_TYPE_COERCE", `Value "${value}" is not a boolean.`);
      return z.NEVER;
    }
    return TRUE_WORDS.has(value);
  });

/** A body boolean: JSON true/false, or the same words as a query string (discord.py sends prune's as "true"). */
export const bodyBoolean = z.union([z.boolean(), z.string()]).transform((value, ctx) => {
  if (typeof value === "boolean") return value;
  if (!BOOLEAN_WORDS.has(value)) {
    issue(ctx, "BOOLEAN_TYPE_COERCE", `Value "${value}" is not a boolean.`);
    return z.NEVER;
  }
  return TRUE_WORDS.has(value);
});

/** A string of min..max characters (code points, as Discord counts): BASE_TYPE_BAD_LENGTH otherwise. */
export const lengthBetween = (min: number, max: number) =>
  z.string().superRefine((value, ctx) => {
    const length = [...value].length;
    if (length < min || length > max)
      issue(ctx, "BASE_TYPE_BAD_LENGTH", `Must be between ${min} and ${max} in length.`);
  });

// C0 and C1 controls (NUL included) and DEL; with the u flag a surrogate class matches only unpaired halves.
const CONTROL_CHARACTER = /\p{Cc}/u;
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** Why `value` can't be shown as a name (control characters, unpaired surrogates), or null. */
export function unprintableReason(value: string): string | null {
  if (CONTROL_CHARACTER.test(value)) return "Must not contain control characters.";
  if (LONE_SURROGATE.test(value)) return "Must not contain unpaired surrogates.";
  return null;
}

/**
 * A name (guild, channel, role, nick, tag): trimmed as Discord trims it, then checked by `length` (so a
 * whitespace-only name is too short); control characters (NUL included) and unpaired surrogates are refused.
 */
export const displayName = (length: z.ZodType<string, string>) =>
  z
    .string()
    .transform((value) => value.trim())
    .superRefine((value, ctx) => {
      const reason = unprintableReason(value);
      if (reason) issue(ctx, "BASE_TYPE_INVALID", reason);
    })
    .pipe(length);

// Date and time, optional seconds and fraction, optional zone (none means UTC, as Discord reads it).
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** An ISO 8601 date and time as ms since the epoch, or null when it is not one. */
export function parseIsoTimestamp(value: string): number | null {
  const match = ISO_8601.exec(value);
  if (!match) return null;
  const ms = Date.parse(match[1] ? value : `${value}Z`);
  return Number.isFinite(ms) ? ms : null;
}

const TIMESTAMP_MESSAGE = "Could not parse timestamp. Should be ISO8601.";

/**
 * An ISO 8601 timestamp as ms since the epoch; anything else (-1, %00, "tomorrow", a bare date) is refused with
 * `code` (Discord answers DATE_TIME_TYPE_PARSE for most fields).
 */
export const isoTimestampAs = (code: string) =>
  z.string().transform((value, ctx) => {
    const ms = parseIsoTimestamp(value);
    if (ms === null) {
      issue(ctx, code, TIMESTAMP_MESSAGE);
      return z.NEVER;
    }
    return ms;
  });
export const isoTimestamp = isoTimestampAs("DATE_TIME_TYPE_PARSE");

/** The same check, keeping the string as sent. */
export const isoTimestampString = z.string().superRefine((value, ctx) => {
  if (parseIsoTimestamp(value) === null) issue(ctx, "DATE_TIME_TYPE_PARSE", TIMESTAMP_MESSAGE);
});
