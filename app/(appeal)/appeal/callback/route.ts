// GET /appeal/callback: back from the authorize page. Checks the state, exchanges the code (with the PKCE verifier)
// for a token with identify, reads who signed in, revokes the token (the appeal needs nothing more of it), and sets
// the signed appellant cookie; then back to the guild's appeal page, which says how it went (?signin=…).
import { NextResponse, type NextRequest } from "next/server";
import { dashboardConfig } from "@/lib/dashboard/config";
import {
  APPEAL_FLOW_COOKIE,
  APPELLANT_COOKIE,
  appealApi,
  appealClientCredentials,
  appealRedirectUri,
  appellantCookieOptions,
  decodeFlow,
  encodeAppellant,
  flowCookieOptions,
} from "@/lib/dashboard/appeals/sign-in";

export async function GET(request: NextRequest) {
  const origin = dashboardConfig().publicUrl;
  const flow = decodeFlow(request.cookies.get(APPEAL_FLOW_COOKIE)?.value);
  const query = request.nextUrl.searchParams;
  const back = (outcome: string | null, appellant?: string) => {
    const response = NextResponse.redirect(
      flow ? `${origin}/appeal/${flow.guildId}${outcome ? `?signin=${outcome}` : ""}` : `${origin}/`,
      303,
    );
    response.cookies.set(APPEAL_FLOW_COOKIE, "", { ...flowCookieOptions(), maxAge: 0 });
    if (appellant) response.cookies.set(APPELLANT_COOKIE, appellant, appellantCookieOptions());
    response.headers.set("cache-control", "no-store");
    return response;
  };
  if (!flow || query.get("state") !== flow.state) return back("expired");
  if (query.get("error")) return back(query.get("error") === "access_denied" ? "cancelled" : "failed");
  const code = query.get("code");
  if (!code) return back("failed");
  let token: string;
  try {
    token = (
      await appealApi().oauth2.tokenExchange(appealClientCredentials(), {
        code,
        redirectUri: appealRedirectUri(),
        codeVerifier: flow.verifier,
      })
    ).access_token;
  } catch {
    return back("failed");
  }
  try {
    const user = await appealApi(token).users.getCurrent();
    return back(
      null,
      encodeAppellant({ userId: user.id, username: user.username, globalName: user.global_name ?? null }),
    );
  } catch {
    return back("failed");
  } finally {
    await appealApi()
      .oauth2.revokeToken(appealClientCredentials(), token)
      .catch(() => null);
  }
}
