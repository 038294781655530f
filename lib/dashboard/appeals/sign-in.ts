// Who is appealing (issue #32): a banned user signs in on /appeal/{guildId} with OAuth2, scope identify only, for the
// dashboard's application (redirect URI /appeal/callback, registered by the seed; on Discord, by whoever runs the
// dashboard). The code is exchanged with PKCE, /users/@me read, and the token revoked at once: all the appeal keeps is
// who they are, in a cookie signed with the dashboard's secret (HMAC-SHA256) that lasts an hour. What travels between
// the two requests (state, verifier, guild) sits in a short-lived cookie of its own, as the invite join does.
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { GuildApiClient } from "@/lib/api-client";
import { dashboardConfig, nextAuthSecret } from "@/lib/dashboard/config";
import { currentRequestId } from "@/lib/server/request-id";

export const APPEAL_FLOW_COOKIE = "guildhall_appeal_flow";
export const APPELLANT_COOKIE = "guildhall_appellant";
export const APPEAL_SCOPES = "identify";
const FLOW_MAX_AGE_S = 600;
const APPELLANT_MAX_AGE_S = 3_600;

export interface AppealFlow {
  state: string;
  verifier: string;
  guildId: string;
}

export interface Appellant {
  userId: string;
  username: string;
  globalName: string | null;
  /** Seconds since the epoch the cookie stops counting. */
  expires: number;
}

export const appealRedirectUri = () => `${dashboardConfig().publicUrl}/appeal/callback`;

export function appealCookieOptions(maxAge: number) {
  return {
    httpOnly: true,
    sameSite: "lax" as const,
    path: "/appeal",
    maxAge,
    secure: dashboardConfig().publicUrl.startsWith("https://"),
  };
}
export const flowCookieOptions = () => appealCookieOptions(FLOW_MAX_AGE_S);
export const appellantCookieOptions = () => appealCookieOptions(APPELLANT_MAX_AGE_S);

const sign = (payload: string) =>
  createHmac("sha256", `appeal:${nextAuthSecret()}`).update(payload).digest("base64url");

/** payload.signature, both base64url. */
function sealed(value: unknown): string {
  const payload = Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${payload}.${sign(payload)}`;
}

function unsealed(cookie: string | undefined): unknown {
  if (!cookie) return null;
  const [payload, signature] = cookie.split(".");
  if (!payload || !signature) return null;
  const expected = Buffer.from(sign(payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    return JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return null;
  }
}

export const encodeFlow = (flow: AppealFlow) => sealed(flow);

export function decodeFlow(cookie: string | undefined): AppealFlow | null {
  const value = unsealed(cookie) as Partial<AppealFlow> | null;
  return value &&
    typeof value.state === "string" &&
    typeof value.verifier === "string" &&
    typeof value.guildId === "string"
    ? (value as AppealFlow)
    : null;
}

export function encodeAppellant(user: Omit<Appellant, "expires">, now = Date.now()): string {
  return sealed({ ...user, expires: Math.floor(now / 1000) + APPELLANT_MAX_AGE_S });
}

/** The signed-in appellant, or null when the cookie is missing, forged or expired. */
export function decodeAppellant(cookie: string | undefined, now = Date.now()): Appellant | null {
  const value = unsealed(cookie) as Partial<Appellant> | null;
  if (!value || typeof value.userId !== "string" || typeof value.username !== "string") return null;
  if (typeof value.expires !== "number" || value.expires * 1000 <= now) return null;
  return {
    userId: value.userId,
    username: value.username,
    globalName: value.globalName ?? null,
    expires: value.expires,
  };
}

/** A new sign-in for the appeal form of `guildId`: the flow cookie's content and the authorize URL to send them to. */
export function startAppealSignIn(guildId: string): { flow: AppealFlow; authorizeUrl: string } {
  const config = dashboardConfig();
  const flow: AppealFlow = {
    state: randomBytes(16).toString("base64url"),
    verifier: randomBytes(32).toString("base64url"),
    guildId,
  };
  const url = new URL(config.authorizeUrl);
  url.search = new URLSearchParams({
    client_id: config.clientId,
    response_type: "code",
    scope: APPEAL_SCOPES,
    redirect_uri: appealRedirectUri(),
    state: flow.state,
    code_challenge: createHash("sha256").update(flow.verifier).digest("base64url"),
    code_challenge_method: "S256",
    prompt: "consent",
  }).toString();
  return { flow, authorizeUrl: url.toString() };
}

/** The API as the application (token exchange, revocation) or, with a token, as the user. */
export function appealApi(token?: string): GuildApiClient {
  const config = dashboardConfig();
  return new GuildApiClient({
    requestId: currentRequestId,
    baseUrl: config.guildApiUrl,
    version: config.apiVersion,
    ...(token ? { token, authPrefix: "Bearer" as const } : {}),
  });
}

export const appealClientCredentials = () => {
  const config = dashboardConfig();
  return { clientId: config.clientId, clientSecret: config.clientSecret };
};
