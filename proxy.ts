// Optimistic redirect for dashboard pages: no session cookie at all → straight to sign-in, with the way back.
// It also hands the requested path to the pages (x-guildhall-url) so the real check, requireDashboardSession()
// in the layout and every action, can send an expired session back to the same place.
import { NextResponse, type NextRequest } from "next/server";

const SESSION_COOKIES = ["__Secure-next-auth.session-token", "next-auth.session-token"];

export function proxy(request: NextRequest) {
  const path = `${request.nextUrl.pathname}${request.nextUrl.search}`;
  if (!SESSION_COOKIES.some((name) => request.cookies.has(name))) {
    const url = request.nextUrl.clone();
    url.pathname = "/sign-in";
    url.search = `?callbackUrl=${encodeURIComponent(path)}`;
    return NextResponse.redirect(url);
  }
  const headers = new Headers(request.headers);
  headers.set("x-guildhall-url", path);
  return NextResponse.next({ request: { headers } });
}

export const config = { matcher: ["/guilds", "/guilds/:path*"] };
