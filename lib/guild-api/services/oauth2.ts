// The built-in OAuth2 provider: authorization requests (checked for the consent page), codes, and the token
// endpoint's grants (authorization_code with PKCE, refresh_token, revocation). Codes and tokens are stored
// only as SHA-256 hashes; codes are single use and expire after 10 minutes.
import { createHash, timingSafeEqual } from "node:crypto";
import { sql, transaction } from "../store/db";
import { hashSecret, randomToken, verifyPassword } from "../tokens";
import { issueAccessToken, type IssuedTokens } from "./access-tokens";

export const CODE_TTL_MS = 10 * 60 * 1000;

/** Scopes the provider grants, with what the consent page tells the user. */
export const OAUTH2_SCOPES: Record<string, string> = {
  identify: "Access your username, avatar and banner",
  email: "Access your email address",
  guilds: "Know what servers you're in",
  "guilds.join": "Join servers for you",
  "guilds.members.read": "Read your member info (nickname, avatar, roles) in servers you're in",
  "applications.commands": "Use commands in your servers and DMs",
  bot: "Add a bot to a server",
  "rpc.voice.read": "Know when you're speaking and who else is, in voice channels",
  rpc: "Control your local Discord client",
  "activities.read": "See your Activity data",
  connections: "Access your third-party connections",
  openid: "Sign you in with OpenID Connect",
};

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

export interface ApplicationRow {
  id: bigint;
  name: string;
  description: string;
  icon: string | null;
  owner_id: bigint;
  bot_user_id: bigint | null;
  client_secret_hash: string;
  redirect_uris: string;
  bot_public: bigint;
  flags: bigint;
  integration_types: string;
}

export function findApplication(id: string | bigint): ApplicationRow | undefined {
  if (typeof id === "string" && !/^\d{1,20}$/.test(id)) return undefined;
  return sql("SELECT * FROM applications WHERE id = ?").get(BigInt(id)) as ApplicationRow | undefined;
}

export const registeredRedirectUris = (app: ApplicationRow): string[] => JSON.parse(app.redirect_uris) as string[];

export interface AuthorizeRequest {
  application: ApplicationRow;
  scopes: string[];
  /** As sent, or null when the request named none (the embedded SDK's flow). */
  redirectUri: string | null;
  state: string | null;
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
  /** Deliver the result to this opener origin by postMessage instead of redirecting. */
  webMessageOrigin: string | null;
  /** An install link: no code is issued; the user lands on a confirmation (or the redirect URI, if sent). */
  installOnly: boolean;
  /** With the bot scope: the permissions of the bot's managed role. */
  permissions: bigint;
  /** With the bot scope: the server preselected by the link. */
  guildId: string | null;
}

/**
 * Checks an authorization request. Problems that make redirecting unsafe (unknown client, unregistered
 * redirect URI) throw with `redirectable` false: the page shows them and never redirects.
 */
export function parseAuthorizeRequest(query: Record<string, string | undefined>): AuthorizeRequest {
  const application = query.client_id ? findApplication(query.client_id) : undefined;
  if (!application) throw new OAuth2Error("invalid_client", "Unknown application: check the client_id.");
  const redirects = registeredRedirectUris(application);
  const redirectUri = query.redirect_uri ?? null;
  if (redirectUri !== null && !redirects.includes(redirectUri)) {
    throw new OAuth2Error("invalid_request", `The redirect URI "${redirectUri}" is not registered for ${application.name}.`);
  }
  let webMessageOrigin: string | null = null;
  if (query.response_mode === "web_message") {
    webMessageOrigin = query.web_message_origin ?? null;
    const allowed = redirects.map((uri) => safeOrigin(uri));
    if (!webMessageOrigin || !allowed.includes(webMessageOrigin)) {
      throw new OAuth2Error("invalid_request", `The origin "${webMessageOrigin ?? ""}" is not registered for ${application.name}.`);
    }
  }
  const scopes = (query.scope ?? "").split(/[\s+]+/).filter(Boolean);
  // Install links (bot and/or applications.commands, no response_type) authorize without issuing a code.
  const installOnly = query.response_type === undefined && scopes.length > 0 && scopes.every((scope) => scope === "bot" || scope === "applications.commands");
  if (query.response_type !== "code" && !installOnly) throw new OAuth2Error("unsupported_response_type", "Only response_type=code is supported.");
  if (scopes.length === 0) throw new OAuth2Error("invalid_scope", "No scope was requested.");
  const unknown = scopes.filter((scope) => !(scope in OAUTH2_SCOPES));
  if (unknown.length) throw new OAuth2Error("invalid_scope", `Unknown scope: ${unknown.join(", ")}.`);
  const method = query.code_challenge ? (query.code_challenge_method ?? "plain") : null;
  if (method && method !== "S256") throw new OAuth2Error("invalid_request", "code_challenge_method must be S256.");
  if (query.permissions !== undefined && !/^\d{1,20}$/.test(query.permissions)) throw new OAuth2Error("invalid_request", "permissions must be a decimal bitfield.");
  return {
    application,
    installOnly,
    permissions: BigInt(query.permissions ?? "0"),
    guildId: query.guild_id && /^\d{1,20}$/.test(query.guild_id) ? query.guild_id : null,
    scopes: [...new Set(scopes)],
    redirectUri,
    state: query.state ?? null,
    codeChallenge: query.code_challenge ?? null,
    codeChallengeMethod: method,
    webMessageOrigin,
  };
}

function safeOrigin(uri: string): string | null {
  try {
    return new URL(uri).origin;
  } catch {
    return null;
  }
}

/** Where an approved or denied request goes: the sent redirect URI, else the first registered one. */
export function redirectTarget(request: AuthorizeRequest, params: Record<string, string>): string {
  const base = request.redirectUri ?? registeredRedirectUris(request.application)[0];
  const url = new URL(base);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  if (request.state !== null) url.searchParams.set("state", request.state);
  return url.toString();
}

export function createAuthorizationCode(input: {
  applicationId: bigint;
  userId: bigint;
  scopes: readonly string[];
  redirectUri: string | null;
  codeChallenge?: string | null;
  codeChallengeMethod?: string | null;
  now?: number;
}): string {
  const code = randomToken(24);
  const now = input.now ?? Date.now();
  sql(
    `INSERT INTO oauth2_codes (code_hash, application_id, user_id, scopes, redirect_uri, code_challenge, code_challenge_method, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(hashSecret(code), input.applicationId, input.userId, input.scopes.join(" "), input.redirectUri, input.codeChallenge ?? null, input.codeChallengeMethod ?? null, BigInt(now + CODE_TTL_MS));
  return code;
}

export function signInWithPassword(username: string, password: string): bigint | null {
  const user = sql("SELECT id, password_hash FROM users WHERE username = ? AND bot = 0").get(username.trim()) as { id: bigint; password_hash: string | null } | undefined;
  return user && verifyPassword(password, user.password_hash) ? user.id : null;
}

/** Client authentication (body or HTTP Basic): the application, or 401 invalid_client. */
export function authenticateClient(clientId: string | undefined, clientSecret: string | undefined): ApplicationRow {
  const application = clientId ? findApplication(clientId) : undefined;
  if (!application || !clientSecret) throw new OAuth2Error("invalid_client", "Client authentication failed.", 401);
  const expected = Buffer.from(application.client_secret_hash);
  const actual = Buffer.from(hashSecret(clientSecret));
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) throw new OAuth2Error("invalid_client", "Client authentication failed.", 401);
  return application;
}

interface CodeRow {
  application_id: bigint;
  user_id: bigint;
  scopes: string;
  redirect_uri: string | null;
  code_challenge: string | null;
  expires_at: bigint;
  used_at: bigint | null;
}

export function exchangeAuthorizationCode(
  application: ApplicationRow,
  input: { code?: string; redirectUri?: string; codeVerifier?: string },
  now = Date.now(),
): IssuedTokens {
  if (!input.code) throw new OAuth2Error("invalid_request", "The code is missing.");
  const codeHash = hashSecret(input.code);
  const outcome = transaction((): IssuedTokens | OAuth2Error => {
    const row = sql("SELECT * FROM oauth2_codes WHERE code_hash = ?").get(codeHash) as CodeRow | undefined;
    const invalid = (field: string) => new OAuth2Error("invalid_grant", `Invalid "${field}" in request.`);
    if (!row || row.application_id !== application.id) return invalid("code");
    if (row.used_at !== null) {
      // A replayed code may be stolen: revoke what it produced (RFC 6749 §4.1.2). Committed, then refused.
      sql("UPDATE oauth2_tokens SET revoked_at = ? WHERE user_id = ? AND application_id = ? AND created_at >= ? AND revoked_at IS NULL").run(
        BigInt(now), row.user_id, row.application_id, row.used_at,
      );
      return invalid("code");
    }
    if (Number(row.expires_at) <= now) return invalid("code");
    if (row.redirect_uri !== null && row.redirect_uri !== input.redirectUri) return invalid("redirect_uri");
    if (row.code_challenge !== null) {
      const verifier = input.codeVerifier ?? "";
      if (!verifier || createHash("sha256").update(verifier).digest("base64url") !== row.code_challenge) return invalid("code_verifier");
    }
    sql("UPDATE oauth2_codes SET used_at = ? WHERE code_hash = ?").run(BigInt(now), codeHash);
    return issueAccessToken(application.id, row.user_id, row.scopes.split(" "), now);
  });
  if (outcome instanceof OAuth2Error) throw outcome;
  return outcome;
}

export function refreshAccessToken(application: ApplicationRow, refreshToken: string | undefined, now = Date.now()): IssuedTokens {
  if (!refreshToken) throw new OAuth2Error("invalid_request", "The refresh_token is missing.");
  return transaction(() => {
    const row = sql("SELECT id, user_id, application_id, scopes FROM oauth2_tokens WHERE refresh_token_hash = ? AND revoked_at IS NULL").get(hashSecret(refreshToken)) as
      | { id: bigint; user_id: bigint; application_id: bigint; scopes: string }
      | undefined;
    if (!row || row.application_id !== application.id) throw new OAuth2Error("invalid_grant", 'Invalid "refresh_token" in request.');
    // Rotation: the old pair stops working as the new one is issued.
    sql("UPDATE oauth2_tokens SET revoked_at = ? WHERE id = ?").run(BigInt(now), row.id);
    return issueAccessToken(application.id, row.user_id, row.scopes.split(" "), now);
  });
}

/** Revokes the pair an access or refresh token belongs to (unknown tokens are not an error, per RFC 7009). */
export function revokeToken(application: ApplicationRow, token: string | undefined, now = Date.now()): void {
  if (!token) throw new OAuth2Error("invalid_request", "The token is missing.");
  const hash = hashSecret(token);
  sql("UPDATE oauth2_tokens SET revoked_at = ? WHERE application_id = ? AND revoked_at IS NULL AND (access_token_hash = ? OR refresh_token_hash = ?)").run(BigInt(now), application.id, hash, hash);
}

export function serializeApplication(app: ApplicationRow) {
  return {
    id: String(app.id),
    name: app.name,
    icon: app.icon,
    description: app.description,
    type: null,
    bot_public: Boolean(app.bot_public),
    bot_require_code_grant: false,
    verify_key: createHash("sha256").update(String(app.id)).digest("hex"),
    flags: Number(app.flags),
    flags_new: String(app.flags),
    summary: "",
    hook: true,
    is_monetized: false,
    is_verified: false,
    is_discoverable: false,
    storefront_available: false,
    integration_types_config: Object.fromEntries((JSON.parse(app.integration_types) as number[]).map((t) => [String(t), {}])),
  };
}
