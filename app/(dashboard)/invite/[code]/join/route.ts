// GET /invite/{code}/join: the landing page's Join. Starts the sign-in with guilds.join (see lib/dashboard/invite-join.ts) and sends
// the browser to the built-in provider's authorize page; it comes back to /join/callback.
import { NextResponse, type NextRequest } from "next/server";
import { inviteCodeSchema } from "@/lib/dashboard/actions/schemas/invites";
import { encodeJoinState, JOIN_COOKIE, joinCookieOptions, startJoin } from "@/lib/dashboard/invite-join";

export async function GET(_request: NextRequest, { params }: { params: Promise<{ code: string }> }) {
  const { code } = await params;
  if (!inviteCodeSchema.safeParse(code).success)
    return new NextResponse("Not a valid invite code.", { status: 404, headers: { "content-type": "text/plain" } });
  const { state, authorizeUrl } = startJoin(code);
  const response = NextResponse.redirect(authorizeUrl, 303);
  response.cookies.set(JOIN_COOKIE, encodeJoinState(state), joinCookieOptions());
  response.headers.set("cache-control", "no-store");
  return response;
}
