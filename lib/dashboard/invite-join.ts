// Joining a guild from the invite landing page: an OAuth2 authorization-code flow (PKCE and state) against the
// built-in provider with the scopes identify and guilds.join, for the dashboard's application, whose redirect URI
// /join/callback is registered by the seed; then Accept Invite with the user's token, over HTTP like any client.
// What travels between the two requests (state, verifier, invite code) sits in a short-lived cookie on this origin.
import { createHash, randomBytes } from "node:crypto";
import { GuildFeature } from "discord-api-types/v10";
import { GuildApiClient } from "@/lib/api-client";
import { dashboardConfig } from "@/lib/dashboard/config";
import { currentRequestId } from "@/lib/server/request-id";

export const JOIN_COOKIE = "guildhall_invite_join";
export const JOIN_SCOPES = "identify guilds.join";
const JOIN_COOKIE_MAX_AGE_S = 600;

export interface JoinState {
  state: string;
  verifier: string;
  code: string;
}

export const joinRedirectUri = () => `${dashboardConfig().publicUrl}/join/callback`;

export function joinCookieOptions() {
  return {
    httpOnly: true,
    sameSite: "lax" as const,
    path: "/join",
    maxAge: JOIN_COOKIE_MAX_AGE_S,
    secure: dashboardConfig().publicUrl.startsWith("https://"),
  };
}

export function encodeJoinState(state: JoinState): string {
  return Buffer.from(JSON.stringify(state)).toString("base64url");
}

export function decodeJoinState(cookie: string | undefined): JoinState | null {
  if (!cookie) return null;
  try {
    const value = JSON.parse(Buffer.from(cookie, "base64url").toString("utf8")) as Partial<JoinState>;
    return typeof value.state === "string" && typeof value.verifier === "string" && typeof value.code === "string"
      ? (value as JoinState)
      : null;
  } catch {
    return null;
  }
}

/** A new flow for `code`: the cookie's state and where to send the browser to sign in. */
export function startJoin(code: string): { state: JoinState; authorizeUrl: string } {
  const config = dashboardConfig();
  const state: JoinState = {
    state: randomBytes(16).toString("base64url"),
    verifier: randomBytes(32).toString("base64url"),
    code,
  };
  const url = new URL(config.authorizeUrl);
  url.search = new URLSearchParams({
    client_id: config.clientId,
    response_type: "code",
    scope: JOIN_SCOPES,
    redirect_uri: joinRedirectUri(),
    state: state.state,
    code_challenge: createHash("sha256").update(state.verifier).digest("base64url"),
    code_challenge_method: "S256",
  }).toString();
  return { state, authorizeUrl: url.toString() };
}

/** The API as the application (token exchange) and, once it has one, as the user. */
export function joinApi(token?: string): GuildApiClient {
  const config = dashboardConfig();
  return new GuildApiClient({
    requestId: currentRequestId,
    baseUrl: config.guildApiUrl,
    version: config.apiVersion,
    ...(token ? { token, authPrefix: "Bearer" as const } : {}),
  });
}

/** Why a join was refused before anyone was added: the invite page's ?join= outcome. */
export class JoinRefused extends Error {
  constructor(readonly outcome: "paused" | "gone" | "in-discord") {
    super(outcome);
  }
}

/**
 * Joins the user whose token this is to the invite's guild; true when they joined, false when they were a member.
 * Against the built-in API the user accepts the invite with their own token (Accept Invite, Guildhall's route: the
 * invite's uses, expiry and target users apply). In bot mode (Discord, or DISCORD_STRICT=1), where no OAuth2 token
 * may accept an invite, the bot adds them with that token (Add Guild Member with guilds.join, as Discord lets an
 * application do). Nothing the invite promises may be skipped that way: paused invites refuse, and an invite with
 * limits only Discord's own join applies (a use count, temporary membership, roles) is refused with a pointer to
 * Discord, since adding a member does not count a use.
 */
export async function joinWithToken(token: string, code: string, now = Date.now()): Promise<boolean> {
  const config = dashboardConfig();
  if (config.authMode !== "bot") return (await joinApi(token).invites.accept(code)).new_member;
  const bot = new GuildApiClient({
    requestId: currentRequestId,
    baseUrl: config.guildApiUrl,
    version: config.apiVersion,
    token: config.botToken,
    authPrefix: "Bot",
  });
  const guildId = (await joinApi().invites.get(code)).guild?.id;
  if (!guildId) throw new JoinRefused("gone");
  const guild = await bot.guilds.get(guildId);
  const pausedUntil = guild.incidents_data?.invites_disabled_until;
  if (guild.features.includes(GuildFeature.InvitesDisabled) || (pausedUntil && Date.parse(pausedUntil) > now))
    throw new JoinRefused("paused");
  const invite = (await bot.guilds.getInvites(guildId)).find((candidate) => candidate.code === code);
  if (!invite) throw new JoinRefused("gone");
  const limited = invite.max_uses > 0 || invite.temporary || (invite.roles?.length ?? 0) > 0;
  if (limited) throw new JoinRefused("in-discord");
  const user = await joinApi(token).users.getCurrent();
  const added = await bot.members.add(guildId, user.id, { access_token: token });
  return added !== undefined;
}

export const clientCredentials = () => {
  const config = dashboardConfig();
  return { clientId: config.clientId, clientSecret: config.clientSecret };
};
