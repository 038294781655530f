// zod schemas of the built-in OAuth2 provider: the authorization request (/oauth2/authorize), the token endpoint's
// form bodies, revocation, and the consent page's own forms. Failures become RFC 6749 errors (invalid_request),
// not Discord's 50035: these endpoints speak OAuth2 to generic OAuth2 clients.
import { z } from "zod";
import { isSnowflake } from "@/lib/discord/snowflake";
import { REDIRECT_URI_MAX_LENGTH } from "@/lib/discord/limits";

// isSnowflake bounds the id to 64 bits (what the database can bind), beyond the pattern.
const snowflake = z.string().refine(isSnowflake, { message: "is not a snowflake" });
/** A decimal permission bitfield, as install links carry it. */
const bitfield = z.string().regex(/^\d{1,20}$/, { message: "must be a decimal permission bitfield" });
const boolean = z
  .enum(["true", "false", "True", "False", "1", "0"])
  .transform((v) => v === "true" || v === "True" || v === "1");

/** RFC 7636: an S256 challenge is the base64url SHA-256 of the verifier, always 43 characters. */
export const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
export const STATE_MAX_LENGTH = 2048;

/**
 * The authorization request's query, after the client and the redirect URI are known to be good (so problems here
 * may be reported to the redirect URI). `scope` may use spaces or `+` (some links encode spaces that way).
 */
export const AuthorizeQuerySchema = z.object({
  response_type: z.string().optional(),
  scope: z.string().max(2048).default(""),
  state: z.string().max(STATE_MAX_LENGTH).optional(),
  code_challenge: z
    .string()
    .regex(S256_CHALLENGE, { message: "must be a base64url SHA-256 (43 characters)" })
    .optional(),
  // RFC 7636 defaults to "plain", which offers no protection against a stolen code: only S256 is accepted.
  code_challenge_method: z.literal("S256", { message: "must be S256" }).optional(),
  prompt: z.enum(["consent", "none"], { message: "must be consent or none" }).optional(),
  response_mode: z.enum(["query", "web_message"], { message: "must be query or web_message" }).optional(),
  web_message_origin: z.string().max(REDIRECT_URI_MAX_LENGTH).optional(),
  permissions: bitfield.optional(),
  guild_id: snowflake.optional(),
  disable_guild_select: boolean.optional(),
  integration_type: z.enum(["0", "1"], { message: "must be 0 (server) or 1 (user)" }).optional(),
});
export type AuthorizeQuery = z.output<typeof AuthorizeQuerySchema>;

/** POST /oauth2/token, per grant (RESTPostOAuth2AccessTokenURLEncodedData and friends). */
export const TokenRequestBodySchema = z.discriminatedUnion("grant_type", [
  z.object({
    grant_type: z.literal("authorization_code"),
    code: z.string().min(1).max(512),
    redirect_uri: z.string().max(REDIRECT_URI_MAX_LENGTH).optional(),
    code_verifier: z.string().max(512).optional(),
  }),
  z.object({
    grant_type: z.literal("refresh_token"),
    refresh_token: z.string().min(1).max(512),
    // Narrows the new pair's scopes (RFC 6749 §6); never widens them.
    scope: z.string().max(2048).optional(),
  }),
  z.object({
    grant_type: z.literal("client_credentials"),
    scope: z.string().min(1).max(2048),
  }),
]);
export type TokenRequestBody = z.output<typeof TokenRequestBodySchema>;
export const SUPPORTED_GRANT_TYPES = ["authorization_code", "refresh_token", "client_credentials"] as const;

/** POST /oauth2/token/revoke (RFC 7009). The hint only orders the lookup; both kinds are found either way. */
export const RevokeTokenBodySchema = z.object({
  token: z.string().min(1).max(512),
  token_type_hint: z.string().max(64).optional(),
});

/** The consent page's sign-in form. `query` carries the authorization request through the round trip. */
export const ProviderSignInFormSchema = z.object({
  username: z.string().trim().min(1).max(64),
  password: z.string().min(1).max(256),
  query: z.string().max(8192),
});

/** The consent page's Authorize / Cancel form. */
export const ConsentDecisionFormSchema = z.object({
  decision: z.enum(["authorize", "cancel"]),
  query: z.string().max(8192),
  guild_id: snowflake.optional(),
});

/** "code is missing." / "guild_id is not a snowflake." for an OAuth2 error_description, from the first zod issue. */
export function describeFirstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "The request is invalid.";
  const field = issue.path.map(String).join(".") || "request";
  if (issue.code === "invalid_type" && issue.message.endsWith("received undefined")) return `${field} is missing.`;
  return `${field} ${issue.message.charAt(0).toLowerCase()}${issue.message.slice(1)}`.replace(/\.?$/, ".");
}
