// GET /appeal/{guildId}/sign-in: starts the appeal's sign-in (identify only, PKCE and state; see
// lib/dashboard/appeals/sign-in.ts) and sends the browser to the authorize page; it comes back to /appeal/callback.
import { NextResponse, type NextRequest } from "next/server";
import { snowflakeSchema } from "@/lib/dashboard/actions/schemas/common";
import { APPEAL_FLOW_COOKIE, encodeFlow, flowCookieOptions, startAppealSignIn } from "@/lib/dashboard/appeals/sign-in";

export async function GET(_request: NextRequest, { params }: { params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  if (!snowflakeSchema.safeParse(guildId).success)
    return new NextResponse("Not a server id.", { status: 404, headers: { "content-type": "text/plain" } });
  const { flow, authorizeUrl } = startAppealSignIn(guildId);
  const response = NextResponse.redirect(authorizeUrl, 303);
  response.cookies.set(APPEAL_FLOW_COOKIE, encodeFlow(flow), flowCookieOptions());
  response.headers.set("cache-control", "no-store");
  return response;
}
