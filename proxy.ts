// Two jobs, on the few requests that need them (dashboard pages skip the proxy: the one-process server sends a
// signed-out visitor to sign in before Next, lib/server/dashboard-door.ts, a proxy pass costing each page ~0.9 ms):
// 1. A server action posted from another site is refused with 403 (Next would throw, answering 500).
// 2. The OAuth2 callback must run as a full-page navigation in the browser. When the built-in provider's consent
//    page (same origin) redirects to it from a server action, Next first fetches the target as an RSC request on the
//    server, which would spend the one-time code with no browser to receive the session cookie. Answering such
//    requests with a plain response makes Next's router fall back to a real navigation, which completes sign-in.
import { NextResponse, type NextRequest } from "next/server";
import { isCrossOriginAction } from "@/lib/security/cross-origin-action";

export function proxy(request: NextRequest) {
  if (isCrossOriginAction(request.method, request.headers, process.env.PUBLIC_URL))
    return new NextResponse("Cross-origin server actions are not allowed.", {
      status: 403,
      headers: { "content-type": "text/plain" },
    });
  const { pathname } = request.nextUrl;
  // The invite landing page's Join and the ban appeal's sign-in come back the same way (app/(dashboard)/join/callback,
  // app/(appeal)/appeal/callback).
  if (pathname.startsWith("/api/auth/callback/") || pathname === "/join/callback" || pathname === "/appeal/callback") {
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
  }
  // The callbacks' full-page loads go on, and so do other pages (here only for the action check above).
  return NextResponse.next();
}

export const config = {
  matcher: [
    "/api/auth/callback/:path*",
    "/join/callback",
    "/appeal/callback",
    // Any page that receives a server action (only those requests, so other pages skip the proxy).
    { source: "/:path*", has: [{ type: "header", key: "next-action" }] },
  ],
};
