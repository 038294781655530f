// Three jobs (the real session check is requireDashboardSession(), in every page and action):
// 0. A server action posted from another site is refused with 403 (Next would throw, answering 500).
// 1. Dashboard pages without a session cookie go straight to sign-in, with the way back; the requested path is
//    handed to the pages (x-guildhall-url) so an expired session can be sent back to the same place.
// 2. The OAuth2 callback must run as a full-page navigation in the browser. When the built-in provider's consent
//    page (same origin) redirects to it from a server action, Next first fetches the target as an RSC request on the
//    server, which would spend the one-time code with no browser to receive the session cookie. Answering such
//    requests with a plain response makes Next's router fall back to a real navigation, which completes sign-in.
import { NextResponse, type NextRequest } from "next/server";
import { isCrossOriginAction } from "@/lib/security/cross-origin-action";

const SESSION_COOKIES = ["__Secure-next-auth.session-token", "next-auth.session-token"];

export function proxy(request: NextRequest) {
  if (isCrossOriginAction(request.method, request.headers, process.env.PUBLIC_URL))
    return new NextResponse("Cross-origin server actions are not allowed.", {
      status: 403,
      headers: { "content-type": "text/plain" },
    });
  const { pathname, search } = request.nextUrl;
  // The invite landing page's Join comes back the same way (app/(dashboard)/join/callback).
  if (pathname.startsWith("/api/auth/callback/") || pathname === "/join/callback") {
    // Next marks its own RSC fetches (the server following an action's redirect, the client router) by these.
    const rscFetch =
      request.headers.has("rsc") ||
      request.nextUrl.searchParams.has("_rsc") ||
      (request.headers.get("accept") ?? "").includes("text/x-component");
    if (rscFetch)
      return new NextResponse("Continue sign-in with a full page load.", {
        status: 200,
        headers: { "content-type": "text/plain" },
      });
    return NextResponse.next();
  }
  // Other pages come here only for the action check above.
  if (pathname !== "/guilds" && !pathname.startsWith("/guilds/")) return NextResponse.next();
  const path = `${pathname}${search}`;
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

export const config = {
  matcher: [
    "/guilds",
    "/guilds/:path*",
    "/api/auth/callback/:path*",
    "/join/callback",
    // Any page that receives a server action (only those requests, so other pages skip the proxy).
    { source: "/:path*", has: [{ type: "header", key: "next-action" }] },
  ],
};
