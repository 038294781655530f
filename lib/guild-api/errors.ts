// One error type for the guild API and one translator to Discord's error body:
// {code, message, errors?} with field errors nested by field name and array index down to
// {_errors: [{code, message}]}, string codes as Discord sends them.
import { RESTJSONErrorCodes } from "discord-api-types/v10";
import type { z } from "zod";

export interface FieldError {
  code: string;
  message: string;
}
export interface ErrorTree {
  [key: string]: ErrorTree | FieldError[];
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly errors?: ErrorTree,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "ApiError";
  }

  toBody(): { message: string; code: number; errors?: ErrorTree } {
    return this.errors
      ? { message: this.message, code: this.code, errors: this.errors }
      : { message: this.message, code: this.code };
  }
}

const E = RESTJSONErrorCodes;

/** Named constructors, so call sites read like Discord's error list. */
export const Errors = {
  notFound: () => new ApiError(404, 0, "404: Not Found"),
  methodNotAllowed: () => new ApiError(405, 0, "405: Method Not Allowed"),
  unauthorized: () => new ApiError(401, 0, "401: Unauthorized"),
  missingAccess: () => new ApiError(403, E.MissingAccess, "Missing Access"),
  missingPermissions: () => new ApiError(403, E.MissingPermissions, "Missing Permissions"),
  unknownGuild: () => new ApiError(404, E.UnknownGuild, "Unknown Guild"),
  unknownChannel: () => new ApiError(404, E.UnknownChannel, "Unknown Channel"),
  unknownRole: () => new ApiError(404, E.UnknownRole, "Unknown Role"),
  unknownMember: () => new ApiError(404, E.UnknownMember, "Unknown Member"),
  unknownUser: () => new ApiError(404, E.UnknownUser, "Unknown User"),
  unknownBan: () => new ApiError(404, E.UnknownBan, "Unknown Ban"),
  unknownInvite: () => new ApiError(404, E.UnknownInvite, "Unknown Invite"),
  unknownOverwrite: () => new ApiError(404, E.UnknownPermissionOverwrite, "Unknown Overwrite"),
  cannotDeleteCommunityChannel: () =>
    new ApiError(
      400,
      E.CannotDeleteChannelRequiredForCommunityGuilds,
      "Cannot delete a channel required for Community guilds",
    ),
  unknownIntegration: () => new ApiError(404, E.UnknownIntegration, "Unknown Integration"),
  unknownApplication: () => new ApiError(404, E.UnknownApplication, "Unknown Application"),
  unknownEmoji: () => new ApiError(404, E.UnknownEmoji, "Unknown Emoji"),
  unknownSticker: () => new ApiError(404, E.UnknownSticker, "Unknown Sticker"),
  unknownSound: () => new ApiError(404, E.UnknownSound, "Unknown Sound"),
  maxEmojis: () => new ApiError(400, E.MaximumNumberOfEmojisReached, "Maximum number of emojis reached"),
  maxAnimatedEmojis: () =>
    new ApiError(400, E.MaximumNumberOfAnimatedEmojisReached, "Maximum number of animated emojis reached"),
  maxStickers: () => new ApiError(400, E.MaximumNumberOfStickersReached, "Maximum number of stickers reached"),
  maxSoundboardSounds: () =>
    new ApiError(400, E.MaximumNumberOfSoundboardSoundsReached, "Maximum number of soundboard sounds reached"),
  widgetDisabled: () => new ApiError(403, E.GuildWidgetDisabled, "Widget Disabled"),
  invalidOAuth2AccessToken: () => new ApiError(401, E.InvalidOAuth2AccessToken, "Invalid OAuth2 access token"),
  missingScope: () => new ApiError(403, E.MissingRequiredOAuth2Scope, "Missing required OAuth2 scope"),
  botsCannotUse: () => new ApiError(403, E.BotsCannotUseThisEndpoint, "Bots cannot use this endpoint"),
  onlyBots: () => new ApiError(403, E.OnlyBotsCanUseThisEndpoint, "Only bots can use this endpoint"),
  failedToBanUsers: () => new ApiError(400, E.FailedToBanUsers, "Failed to ban users"),
  // Discord documents no JSON code for paused invites; code 0 with a plain message.
  invitesPaused: () => new ApiError(400, 0, "Invites are currently paused for this server. Please try again later."),
  /** 400 50035 with one field error at `path` (e.g. ["roles", 0]). */
  invalidField: (path: ReadonlyArray<string | number>, code: string, message: string) =>
    invalidFormBody([{ path, code, message }]),
  /** 400 with `code`; a 50035 always carries its errors tree (the message at its root), as Discord's do. */
  bad: (code: number, message: string) =>
    code === E.InvalidFormBodyOrContentType
      ? new ApiError(400, code, "Invalid Form Body", { _errors: [{ code: "BASE_TYPE_INVALID", message }] })
      : new ApiError(400, code, message),
  internal: () => new ApiError(500, 0, "500: Internal Server Error"),
  unavailable: () =>
    new ApiError(503, 0, "503: Service Unavailable (the database cannot be reached; try again shortly)", undefined, {
      "retry-after": "1",
    }),
  rateLimited: (retryAfter: number) =>
    new ApiError(429, 0, "You are being rate limited.", undefined, { "retry-after": String(Math.ceil(retryAfter)) }),
};

/**
 * Field error codes for rules Discord documents no code for: the code names the rule, the message explains it.
 * One list, so the same rule has the same code in every operation.
 */
export const FieldErrorCode = {
  // A sound that is not a whole MP3 or OGG stream, or longer than 5.2 s: Guildhall's words (Discord documents none).
  AUDIO_DURATION_TOO_LONG: "AUDIO_DURATION_TOO_LONG",
  AUDIO_INVALID: "AUDIO_INVALID",
  AUTOMOD_ACTION_INVALID: "AUTO_MODERATION_ACTION_TYPE_INVALID",
  AUTOMOD_EVENT_TYPE_INVALID: "AUTO_MODERATION_EVENT_TYPE_INVALID",
  AUTOMOD_INVALID_REGEX: "AUTO_MODERATION_INVALID_REGEX",
  BINARY_TYPE_MAX_SIZE: "BINARY_TYPE_MAX_SIZE",
  CHANNEL_INVALID: "CHANNEL_INVALID",
  CHANNEL_PARENT_INVALID: "CHANNEL_PARENT_INVALID",
  DISCOVERY_REQUIREMENTS_NOT_MET: "DISCOVERY_REQUIREMENTS_NOT_MET",
  EMOJI_INVALID: "EMOJI_INVALID",
  EVERYONE_ROLE_IMMUTABLE: "EVERYONE_ROLE_IMMUTABLE",
  FIELD_NOT_APPLICABLE: "FIELD_NOT_APPLICABLE",
  GUILD_FEATURE_REQUIRED: "GUILD_FEATURE_REQUIRED",
  IMAGE_DIMENSIONS_INVALID: "IMAGE_DIMENSIONS_INVALID",
  IMAGE_INVALID: "IMAGE_INVALID",
  OVERWRITE_TARGET_INVALID: "OVERWRITE_TARGET_INVALID",
  ROLE_INVALID: "ROLE_INVALID",
  TIMEOUT_TOO_LONG: "TIMEOUT_TOO_LONG",
} as const;

export interface FieldIssue {
  path: ReadonlyArray<PropertyKey>;
  code: string;
  message: string;
}

/** 400 Invalid Form Body with errors nested down to `_errors`. */
export function invalidFormBody(issues: readonly FieldIssue[]): ApiError {
  const errors: ErrorTree = {};
  for (const issue of issues) {
    let node: ErrorTree = errors;
    for (const key of issue.path) {
      const k = String(key);
      const next = node[k];
      if (!next || Array.isArray(next)) node[k] = {};
      node = node[k] as ErrorTree;
    }
    const list = (node._errors as FieldError[] | undefined) ?? [];
    list.push({ code: issue.code, message: issue.message });
    node._errors = list;
  }
  return new ApiError(400, E.InvalidFormBodyOrContentType, "Invalid Form Body", errors);
}

/** Translates zod issues into Discord's field error codes and messages. */
export function zodToApiError(error: z.ZodError, input: unknown): ApiError {
  return invalidFormBody(error.issues.map((issue) => ({ path: issue.path, ...describeIssue(issue, input) })));
}

function valueAt(input: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function describeIssue(issue: z.core.$ZodIssue, input: unknown): FieldError {
  const custom = (issue as { params?: { code?: string } }).params?.code;
  if (custom) return { code: custom, message: issue.message };
  switch (issue.code) {
    case "invalid_type": {
      const value = valueAt(input, issue.path);
      if (value === undefined) return { code: "BASE_TYPE_REQUIRED", message: "This field is required" };
      if (issue.expected === "number" || issue.expected === "int" || issue.expected === "bigint")
        return { code: "NUMBER_TYPE_COERCE", message: `Value "${String(value)}" is not int.` };
      if (issue.expected === "boolean")
        return { code: "BOOLEAN_TYPE_COERCE", message: `Value "${String(value)}" is not a boolean.` };
      if (issue.expected === "array") return { code: "BASE_TYPE_ARRAY", message: "Must be an array." };
      if (issue.expected === "object")
        return { code: "MODEL_TYPE_CONVERT", message: "Only dictionaries may be used in a ModelType" };
      if (issue.expected === "string") return { code: "BASE_TYPE_STRING", message: "Must be a string." };
      return { code: "BASE_TYPE_INVALID", message: issue.message };
    }
    case "too_small":
    case "too_big": {
      const min = issue.code === "too_small" ? issue.minimum : undefined;
      const max = issue.code === "too_big" ? issue.maximum : undefined;
      if (issue.origin === "string") {
        const bounds = (issue as { bounds?: [number, number] }).bounds;
        if (bounds)
          return { code: "BASE_TYPE_BAD_LENGTH", message: `Must be between ${bounds[0]} and ${bounds[1]} in length.` };
        return issue.code === "too_small"
          ? { code: "BASE_TYPE_MIN_LENGTH", message: `Must be ${String(min)} or more in length.` }
          : { code: "BASE_TYPE_MAX_LENGTH", message: `Must be ${String(max)} or fewer in length.` };
      }
      if (issue.origin === "array" || issue.origin === "set")
        return issue.code === "too_small"
          ? { code: "BASE_TYPE_MIN_LENGTH", message: `Must be ${String(min)} or more in length.` }
          : { code: "BASE_TYPE_MAX_LENGTH", message: `Must be ${String(max)} or fewer in length.` };
      return issue.code === "too_small"
        ? { code: "NUMBER_TYPE_MIN", message: `int value should be greater than or equal to ${String(min)}.` }
        : { code: "NUMBER_TYPE_MAX", message: `int value should be less than or equal to ${String(max)}.` };
    }
    case "invalid_value":
      return { code: "BASE_TYPE_CHOICES", message: `Value must be one of {${issue.values.map(String).join(", ")}}.` };
    case "invalid_format":
      return { code: "BASE_TYPE_INVALID", message: issue.message };
    case "unrecognized_keys":
      return { code: "UNKNOWN_FIELD", message: `Unknown field(s): ${issue.keys.join(", ")}` };
    default:
      return { code: "BASE_TYPE_INVALID", message: issue.message };
  }
}
