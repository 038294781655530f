// The built-in OAuth2 provider: authorization requests (checked for the consent page), codes, and the token
// endpoint's grants (authorization_code with PKCE, refresh_token with rotation, client_credentials), revocation.
// Codes and tokens are stored only as SHA-256 hashes; codes are single use and expire after 10 minutes.
// Errors are RFC 6749's ({error, error_description}), since generic OAuth2 clients read them.
import { createHash, timingSafeEqual } from "node:crypto";
import { MANAGE_SCOPE, MANAGE_SCOPE_DESCRIPTION } from "@/lib/discord/policies";
import { ALL_PERMISSIONS } from "@/lib/discord/permissions";
import { isSnowflake } from "@/lib/discord/snowflake";
import { transaction } from "../store/db";
import { findApplication as findApplicationRow, redirectUrisOf, type ApplicationRow } from "../store/applications";
import { findAuthorizationCode, insertAuthorizationCode, markAuthorizationCodeUsed } from "../store/oauth2";
import { hashSecret, randomToken } from "../tokens";
import { serializePartialApplication } from "../serializers/applications";
import { AuthorizeQuerySchema, describeFirstIssue, type TokenRequestBody } from "../schemas/oauth2";
import {
  findTokenByRefreshToken,
  hasPriorAuthorization,
  issueAccessToken,
  issueClientCredentialsToken,
  revokeTokenById,
  revokeTokenFamily,
  revokeTokenPair,
  revokeTokensIssuedSince,
  type IssuedClientCredentialsToken,
  type IssuedTokens,
} from "./access-tokens";
import { discordStrict } from "../strict";

export const CODE_TTL_MS = 10 * 60 * 1000;

/** Scopes the provider grants, with what the consent page tells the user (Discord's wording where it has one). */
export const OAUTH2_SCOPES: Readonly<Record<string, string>> = {
  identify: "Access your username, avatar and banner",
  email: "Access your email address",
  connections: "Access your third-party connections",
  guilds: "Know what servers you're in",
  "guilds.join": "Join servers for you",
  "guilds.members.read": "Read your member info (nickname, avatar, roles) in servers you're in",
  "gdm.join": "Join group DMs for you",
  bot: "Add a bot to a server",
  "applications.commands": "Use commands in your servers and DMs",
  "applications.commands.permissions.update": "Update the permissions of its commands in servers you manage",
  "applications.commands.update": "Update its own commands",
  "applications.builds.read": "Read build data of your applications",
  "applications.builds.upload": "Upload builds to your applications",
  "applications.entitlements": "Read entitlements of your applications",
  "applications.store.update": "Update the store data of your applications",
  "activities.read": "See your recently played Activities",
  "activities.write": "Update your Activity status",
  "activities.invites.write": "Send Activity invites for you",
  "relationships.read": "Know who your friends are",
  "dm_channels.read": "See information about your DMs and group DMs",
  "role_connections.write": "Update your connection and its metadata for this app",
  voice: "Connect to voice for you and see who else is there",
  "messages.read": "Read messages in your local client's channels",
  rpc: "Control your local Discord client",
  "rpc.notifications.read": "Receive notifications pushed to your local client",
  "rpc.voice.read": "Know when you're speaking and who else is, in voice channels",
  "rpc.voice.write": "Change your voice settings",
  "rpc.video.read": "Know your camera status",
  "rpc.video.write": "Change your camera settings",
  "rpc.screenshare.read": "Know your screen share status",
  "rpc.screenshare.write": "Change your screen share settings",
  "rpc.activities.write": "Update your activity in your local client",
  [MANAGE_SCOPE]: MANAGE_SCOPE_DESCRIPTION,
};

/**
 * What `npm run token -- <user>` (and the tests' tokens) grant when no scope is named: everything the dashboard's
 * sign-in gets (identify, guilds, the management scope), plus joining servers and commands.
 */
export const DEVELOPMENT_TOKEN_SCOPES: readonly string[] = [
  "identify",
  "guilds",
  "guilds.join",
  "applications.commands",
  MANAGE_SCOPE,
];

/** A scope the provider grants: Guildhall's management scope is unknown on Discord's terms (DISCORD_STRICT=1). */
const knownScope = (scope: string) => scope in OAUTH2_SCOPES && !(scope === MANAGE_SCOPE && discordStrict());

/** Scopes only the client_credentials grant may ask for (Discord: applications.commands.update). */
const CLIENT_CREDENTIALS_ONLY = new Set(["applications.commands.update"]);
/**
 * Scopes that need the user on the consent page, so client_credentials can't grant them. Discord's client credentials
 * grant is for the application's owner to test with; it never joins servers for anyone, installs the bot, or (here)
 * manages servers with the owner's permissions.
 */
const CONSENT_ONLY = new Set(["bot", "guilds.join", "gdm.join", MANAGE_SCOPE]);

const SERVER_INSTALL = 0;
const USER_INSTALL = 1;

export class OAuth2Error extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
  }
  toBody() {
    return { error: this.error, error_description: this.description };
  }
}

/** Where an authorization response goes: a validated redirect URI, or a validated opener origin (web_message). */
export interface AuthorizationResponseTarget {
  application: ApplicationRow;
  redirectUri: string | null;
  webMessageOrigin: string | null;
  state: string | null;
}

/**
 * A problem with an authorization request found after the redirect URI was validated: the client is told through
 * the redirect (RFC 6749 §4.1.2.1) when the request named one. Without one, `target` is null and the page shows it.
 */
export class AuthorizeRequestError extends OAuth2Error {
  constructor(
    error: string,
    description: string,
    readonly target: AuthorizationResponseTarget | null,
  ) {
    super(error, description);
  }
}

export async function findApplication(id: string | bigint): Promise<ApplicationRow | undefined> {
  if (typeof id === "string" && !isSnowflake(id)) return undefined;
  return await findApplicationRow(BigInt(id));
}

export const installationContexts = (app: ApplicationRow): number[] => JSON.parse(app.integration_types) as number[];

export interface AuthorizeRequest extends AuthorizationResponseTarget {
  scopes: string[];
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
  /** "none": skip the consent screen when the user already granted these scopes. */
  prompt: "consent" | "none";
  /** An install link: no code is issued; the user lands on a confirmation (or the redirect URI, if sent). */
  installOnly: boolean;
  /** With the bot scope: the permissions of the bot's managed role (unknown bits dropped). */
  permissions: bigint;
  /** With the bot scope: the server preselected by the link. */
  guildId: string | null;
  /** With the bot scope and guild_id: the user may not pick another server. */
  disableGuildSelect: boolean;
}

const splitScopes = (scope: string) => [...new Set(scope.split(/[\s+]+/).filter(Boolean))];

/**
 * Checks an authorization request in RFC 6749's order. An unknown client or an unregistered redirect URI (or
 * web_message origin) throws a plain OAuth2Error: the page shows it and never redirects. Later problems throw an
 * AuthorizeRequestError that names where the client may be told.
 */
export async function parseAuthorizeRequest(query: Record<string, string | undefined>): Promise<AuthorizeRequest> {
  const application = query.client_id ? await findApplication(query.client_id) : undefined;
  if (!application) throw new OAuth2Error("invalid_client", "Unknown application: check the client_id.");
  const redirects = redirectUrisOf(application);
  const redirectUri = query.redirect_uri ?? null;
  if (redirectUri !== null && !redirects.includes(redirectUri)) {
    throw new OAuth2Error(
      "invalid_request",
      `The redirect URI "${redirectUri}" is not registered for ${application.name}.`,
    );
  }
  let webMessageOrigin: string | null = null;
  if (query.response_mode === "web_message") {
    webMessageOrigin = query.web_message_origin ?? null;
    const allowed = redirects.map((uri) => safeOrigin(uri));
    if (!webMessageOrigin || !allowed.includes(webMessageOrigin)) {
      throw new OAuth2Error(
        "invalid_request",
        `The origin "${webMessageOrigin ?? ""}" is not registered for ${application.name}.`,
      );
    }
  }

  // From here on, a client that sent a (valid) redirect URI or origin hears about problems there.
  const target: AuthorizationResponseTarget = {
    application,
    redirectUri,
    webMessageOrigin,
    state: query.state ?? null,
  };
  const told = redirectUri !== null || webMessageOrigin !== null ? target : null;
  const fail = (error: string, description: string): never => {
    throw new AuthorizeRequestError(error, description, told);
  };

  const parsed = AuthorizeQuerySchema.safeParse(query);
  if (!parsed.success) return fail("invalid_request", describeFirstIssue(parsed.error));
  const q = parsed.data;
  const scopes = splitScopes(q.scope);
  // Install links (bot and/or applications.commands, no response_type) authorize without issuing a code.
  const installOnly =
    q.response_type === undefined &&
    scopes.length > 0 &&
    scopes.every((scope) => scope === "bot" || scope === "applications.commands");
  if (q.response_type !== "code" && !installOnly) {
    return fail(
      "unsupported_response_type",
      q.response_type === undefined
        ? "response_type is missing (only code is supported)."
        : `Unsupported response_type "${q.response_type}": only code is supported.`,
    );
  }
  if (scopes.length === 0) return fail("invalid_scope", "No scope was requested.");
  const unknown = scopes.filter((scope) => !knownScope(scope));
  if (unknown.length) return fail("invalid_scope", `Unknown scope: ${unknown.join(", ")}.`);
  const credentialsOnly = scopes.filter((scope) => CLIENT_CREDENTIALS_ONLY.has(scope));
  if (credentialsOnly.length)
    return fail("invalid_scope", `${credentialsOnly.join(", ")} is granted only through the client_credentials grant.`);
  // RFC 7636 reads a challenge without a method as "plain": refuse it rather than guess.
  if (q.code_challenge !== undefined && q.code_challenge_method === undefined)
    return fail("invalid_request", "code_challenge_method is missing (only S256 is supported).");
  // An application whose code travels through the browser (the sample Activity's) must bind it to its verifier.
  if (application.require_pkce && q.code_challenge === undefined && !installOnly)
    return fail(
      "invalid_request",
      `${application.name} requires PKCE: send a code_challenge (code_challenge_method=S256).`,
    );

  // Setup rule 7: a server install (the bot scope) needs the Server Install context.
  const contexts = installationContexts(application);
  const integrationType = q.integration_type === undefined ? null : Number(q.integration_type);
  if (integrationType !== null && !contexts.includes(integrationType)) {
    return fail(
      "invalid_request",
      `${application.name} can't be installed ${integrationType === USER_INSTALL ? "to a user account" : "to servers"}: its installation contexts don't include ${integrationType === USER_INSTALL ? "User Install" : "Server Install"}.`,
    );
  }
  if (scopes.includes("bot") && integrationType === USER_INSTALL)
    return fail("invalid_scope", "The bot scope needs a server install (integration_type=0).");
  if (scopes.includes("bot") && !contexts.includes(SERVER_INSTALL)) {
    return fail(
      "invalid_scope",
      `${application.name} can't be added to a server: its installation contexts don't include Server Install, so the bot scope is refused.`,
    );
  }
  if (scopes.includes("bot") && !application.bot_user_id)
    return fail("invalid_scope", `${application.name} has no bot to add.`);
  if (!installOnly && redirectUri === null && webMessageOrigin === null && redirects.length === 0) {
    return fail("invalid_request", `${application.name} has no registered redirect URI to send you back to.`);
  }

  return {
    ...target,
    scopes,
    installOnly,
    codeChallenge: q.code_challenge ?? null,
    codeChallengeMethod: q.code_challenge ? "S256" : null,
    prompt: q.prompt ?? "consent",
    permissions: BigInt(q.permissions ?? "0") & ALL_PERMISSIONS,
    guildId: q.guild_id ?? null,
    disableGuildSelect: (q.disable_guild_select ?? false) && q.guild_id !== undefined,
  };
}

function safeOrigin(uri: string): string | null {
  try {
    return new URL(uri).origin;
  } catch {
    return null;
  }
}

/** Where an approved or denied request goes: the sent redirect URI, else the first registered one; `state` untouched. */
export function redirectTarget(target: AuthorizationResponseTarget, params: Record<string, string>): string {
  const base = target.redirectUri ?? redirectUrisOf(target.application)[0];
  if (!base) throw new OAuth2Error("invalid_request", `${target.application.name} has no registered redirect URI.`);
  const url = new URL(base);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  if (target.state !== null) url.searchParams.set("state", target.state);
  return url.toString();
}

/**
 * The URL that delivers an authorization response: the redirect URI, or (response_mode=web_message) the provider's
 * own /oauth2/web-message page, which posts it to the validated opener origin.
 */
export function authorizationResponseUrl(target: AuthorizationResponseTarget, params: Record<string, string>): string {
  if (target.webMessageOrigin === null) return redirectTarget(target, params);
  const query = new URLSearchParams({
    client_id: String(target.application.id),
    origin: target.webMessageOrigin,
    ...params,
  });
  if (target.state !== null) query.set("state", target.state);
  return `/oauth2/web-message?${query}`;
}

export const ACCESS_DENIED = {
  error: "access_denied",
  error_description: "The resource owner or authorization server denied the request",
} as const;

/** prompt=none: the user already granted these scopes (and no server install is asked for), so no consent screen. */
export async function canSkipConsent(request: AuthorizeRequest, userId: bigint): Promise<boolean> {
  return (
    request.prompt === "none" &&
    !request.installOnly &&
    !request.scopes.includes("bot") &&
    (await hasPriorAuthorization(request.application.id, userId, request.scopes))
  );
}

/** Stores a code for the consent the user just gave; returns the code (only its hash is kept). */
export async function createAuthorizationCode(input: {
  applicationId: bigint;
  userId: bigint;
  scopes: readonly string[];
  redirectUri: string | null;
  codeChallenge?: string | null;
  codeChallengeMethod?: string | null;
  /** The server a bot was added to on the consent page. */
  guildId?: bigint | null;
  now?: number;
}): Promise<string> {
  const code = randomToken(24);
  const now = input.now ?? Date.now();
  await insertAuthorizationCode({
    codeHash: hashSecret(code),
    applicationId: input.applicationId,
    userId: input.userId,
    scopes: input.scopes.join(" "),
    redirectUri: input.redirectUri,
    codeChallenge: input.codeChallenge ?? null,
    codeChallengeMethod: input.codeChallengeMethod ?? null,
    guildId: input.guildId ?? null,
    expiresAt: BigInt(now + CODE_TTL_MS),
  });
  return code;
}

/** Client authentication (body or HTTP Basic): the application, or 401 invalid_client. */
export async function authenticateClient(
  clientId: string | undefined,
  clientSecret: string | undefined,
): Promise<ApplicationRow> {
  const application = clientId ? await findApplication(clientId) : undefined;
  if (!application || !clientSecret) throw new OAuth2Error("invalid_client", "Client authentication failed.", 401);
  const expected = Buffer.from(application.client_secret_hash);
  const actual = Buffer.from(hashSecret(clientSecret));
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual))
    throw new OAuth2Error("invalid_client", "Client authentication failed.", 401);
  return application;
}

const invalidGrant = (field: string) => new OAuth2Error("invalid_grant", `Invalid "${field}" in request.`);

/** The token endpoint, one grant per request (RESTPostOAuth2AccessTokenResult or the client_credentials result). */
export async function exchangeToken(
  application: ApplicationRow,
  body: TokenRequestBody,
  now = Date.now(),
): Promise<IssuedTokens | IssuedClientCredentialsToken> {
  switch (body.grant_type) {
    case "authorization_code":
      return await exchangeAuthorizationCode(
        application,
        { code: body.code, redirectUri: body.redirect_uri, codeVerifier: body.code_verifier },
        now,
      );
    case "refresh_token":
      return await refreshAccessToken(application, { refreshToken: body.refresh_token, scope: body.scope }, now);
    case "client_credentials":
      return await clientCredentialsToken(application, body.scope, now);
  }
}

/**
 * authorization_code: single use (a replay revokes what the code produced, RFC 6749 §4.1.2), 10 minutes, bound to
 * the client, to the redirect URI sent at authorize (none needed when none was sent), and to the PKCE challenge
 * (which an application with require_pkce must have sent).
 */
export async function exchangeAuthorizationCode(
  application: ApplicationRow,
  input: { code?: string; redirectUri?: string; codeVerifier?: string },
  now = Date.now(),
): Promise<IssuedTokens> {
  if (!input.code) throw new OAuth2Error("invalid_request", "code is missing.");
  const codeHash = hashSecret(input.code);
  const outcome = await transaction(async (): Promise<IssuedTokens | OAuth2Error> => {
    const row = await findAuthorizationCode(codeHash);
    if (!row || row.application_id !== application.id) return invalidGrant("code");
    if (row.used_at !== null) {
      // Committed with the refusal: returning (not throwing) keeps the revocation.
      await revokeTokensIssuedSince(row.application_id, row.user_id, row.used_at, now);
      return invalidGrant("code");
    }
    if (Number(row.expires_at) <= now) return invalidGrant("code");
    if (row.redirect_uri !== null && row.redirect_uri !== input.redirectUri) return invalidGrant("redirect_uri");
    // A code issued without a challenge (before the application required PKCE) is not redeemed for it either.
    if (row.code_challenge === null && application.require_pkce) return invalidGrant("code_verifier");
    if (row.code_challenge !== null) {
      const verifier = input.codeVerifier ?? "";
      const computed = Buffer.from(createHash("sha256").update(verifier).digest("base64url"));
      const stored = Buffer.from(row.code_challenge);
      if (!verifier || computed.length !== stored.length || !timingSafeEqual(computed, stored))
        return invalidGrant("code_verifier");
    }
    await markAuthorizationCodeUsed(codeHash, BigInt(now));
    return await issueAccessToken(application.id, row.user_id, row.scopes.split(" "), now);
  });
  if (outcome instanceof OAuth2Error) throw outcome;
  return outcome;
}

/**
 * refresh_token: rotation (the old pair stops working as the new one is issued); `scope` may only narrow. A refresh
 * token that was already rotated or revoked, presented again, revokes its whole family: the thief and the client
 * both hold the grant's newest pair otherwise (RFC 6819 §5.2.2.3).
 */
export async function refreshAccessToken(
  application: ApplicationRow,
  input: { refreshToken?: string; scope?: string },
  now = Date.now(),
): Promise<IssuedTokens> {
  if (!input.refreshToken) throw new OAuth2Error("invalid_request", "refresh_token is missing.");
  const refreshToken = input.refreshToken;
  const outcome = await transaction(async (): Promise<IssuedTokens | OAuth2Error> => {
    const row = await findTokenByRefreshToken(refreshToken);
    if (!row || row.application_id !== application.id) return invalidGrant("refresh_token");
    if (row.revoked_at !== null) {
      // Committed with the refusal: returning (not throwing) keeps the revocation.
      await revokeTokenFamily(row.family_id, now);
      return invalidGrant("refresh_token");
    }
    const granted = row.scopes.split(" ");
    let scopes = granted;
    if (input.scope !== undefined) {
      scopes = splitScopes(input.scope);
      const wider = scopes.filter((scope) => !granted.includes(scope));
      if (scopes.length === 0 || wider.length)
        throw new OAuth2Error(
          "invalid_scope",
          `The refresh token was not granted: ${wider.join(", ") || "(no scope)"}.`,
        );
    }
    await revokeTokenById(row.id, now);
    return await issueAccessToken(application.id, row.user_id, scopes, now, row.family_id);
  });
  if (outcome instanceof OAuth2Error) throw outcome;
  return outcome;
}

/** client_credentials: a token for the application's owner (Discord's behaviour), without a refresh token. */
export async function clientCredentialsToken(
  application: ApplicationRow,
  scope: string,
  now = Date.now(),
): Promise<IssuedClientCredentialsToken> {
  const scopes = splitScopes(scope);
  if (scopes.length === 0) throw new OAuth2Error("invalid_scope", "No scope was requested.");
  const unknown = scopes.filter((s) => !knownScope(s));
  if (unknown.length) throw new OAuth2Error("invalid_scope", `Unknown scope: ${unknown.join(", ")}.`);
  const refused = scopes.filter((s) => CONSENT_ONLY.has(s));
  if (refused.length)
    throw new OAuth2Error("invalid_scope", `${refused.join(", ")} can't be granted through client_credentials.`);
  return await issueClientCredentialsToken(application.id, application.owner_id, scopes, now);
}

/** Revokes the pair an access or refresh token belongs to. Unknown tokens, or another client's, are not an error (RFC 7009 §2.2). */
export async function revokeToken(
  application: ApplicationRow,
  token: string | undefined,
  hint?: string,
  now = Date.now(),
): Promise<void> {
  if (!token) throw new OAuth2Error("invalid_request", "token is missing.");
  await revokeTokenPair(application.id, token, hint, now);
}

/** The application as /oauth2/@me shows it (a partial ApplicationResponse). */
export function serializeApplication(app: ApplicationRow) {
  return {
    ...serializePartialApplication(app),
    bot_require_code_grant: false,
    verify_key: createHash("sha256").update(String(app.id)).digest("hex"),
    summary: "",
    hook: true,
    is_monetized: false,
    is_verified: false,
    is_discoverable: false,
    storefront_available: false,
    integration_types_config: Object.fromEntries(installationContexts(app).map((t) => [String(t), {}])),
  };
}
