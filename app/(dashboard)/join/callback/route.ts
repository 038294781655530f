// GET /join/callback: back from the provider's authorize page. Checks the state, exchanges the code (with the PKCE
// verifier) for a token with guilds.join, joins with it (lib/dashboard/invite-join.ts), revokes it (it was for this one join), and
// sends the browser back to the invite's page, which tells how it went.
import { NextResponse, type NextRequest } from "next/server";
import { RESTJSONErrorCodes } from "discord-api-types/v10";
import { GuildApiError } from "@/lib/api-client";
import { dashboardConfig } from "@/lib/dashboard/config";
import {
  clientCredentials,
  decodeJoinState,
  JOIN_COOKIE,
  joinApi,
  joinCookieOptions,
  joinRedirectUri,
  joinWithToken,
  JoinRefused,
} from "@/lib/dashboard/invite-join";

/** How a refused join reads on the invite page (?join=…). */
function refusalOf(error: unknown): string {
  if (error instanceof JoinRefused) return error.outcome;
  if (!(error instanceof GuildApiError)) return "failed";
  if (error.code === RESTJSONErrorCodes.UserBannedFromThisGuild) return "banned";
  if (error.code === RESTJSONErrorCodes.UnknownInvite) return "gone";
  if (error.status === 400 && /paused/i.test(error.message)) return "paused";
  if (error.status === 403) return "not-allowed";
  return "failed";
}

export async function GET(request: NextRequest) {
  const origin = dashboardConfig().publicUrl;
  const saved = decodeJoinState(request.cookies.get(JOIN_COOKIE)?.value);
  const query = request.nextUrl.searchParams;
  const back = (code: string | null, outcome: string) => {
    const response = NextResponse.redirect(
      code ? `${origin}/invite/${encodeURIComponent(code)}?join=${outcome}` : `${origin}/`,
      303,
    );
    response.cookies.set(JOIN_COOKIE, "", { ...joinCookieOptions(), maxAge: 0 });
    response.headers.set("cache-control", "no-store");
    return response;
  };
  if (!saved || query.get("state") !== saved.state) return back(saved?.code ?? null, "expired-request");
  if (query.get("error")) return back(saved.code, query.get("error") === "access_denied" ? "cancelled" : "failed");
  const authorizationCode = query.get("code");
  if (!authorizationCode) return back(saved.code, "failed");

  let token: string;
  try {
    token = (
      await joinApi().oauth2.tokenExchange(clientCredentials(), {
        code: authorizationCode,
        redirectUri: joinRedirectUri(),
        codeVerifier: saved.verifier,
      })
    ).access_token;
  } catch {
    return back(saved.code, "failed");
  }
  try {
    return back(saved.code, (await joinWithToken(token, saved.code)) ? "joined" : "already");
  } catch (error) {
    return back(saved.code, refusalOf(error));
  } finally {
    await joinApi()
      .oauth2.revokeToken(clientCredentials(), token)
      .catch(() => null);
  }
}
