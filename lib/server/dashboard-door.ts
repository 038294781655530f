// The dashboard's front door, in the one-process server before Next. A dashboard page (/guilds, /guilds/…) asked for
// without a session cookie goes straight to sign in, with the way back; every other dashboard request carries the
// path and query it asked for (REQUEST_URL_HEADER), so a session found expired in the page sends the person back to
// the same place. Next's proxy (middleware) did this until measured: its pass cost each dashboard request about
// 0.9 ms before the first byte (a fifth of Next's whole floor for a dynamic page) for a cookie check and a header.
// The session itself is checked by every page and action (requireDashboardSession), not here.
import type { IncomingMessage, ServerResponse } from "node:http";
import { REQUEST_URL_HEADER, SESSION_COOKIES } from "@/lib/dashboard/auth/session-cookies";
import { NOT_FRAMABLE_HEADERS } from "@/lib/security/headers.mjs";

export const isDashboardPath = (path: string): boolean => path === "/guilds" || path.startsWith("/guilds/");

/** Next's router marks its RSC fetches with a cache-busting `_rsc` parameter: no part of where the person was. */
const ROUTER_PARAM = "_rsc";

/** The query without the router's parameter, the rest as it came. */
function withoutRouterParam(search: string): string {
  return search
    .split("&")
    .filter((pair) => pair !== ROUTER_PARAM && !pair.startsWith(`${ROUTER_PARAM}=`))
    .join("&");
}

function hasSessionCookie(req: IncomingMessage): boolean {
  const cookie = req.headers.cookie;
  if (!cookie) return false;
  return cookie.split(";").some((pair) => {
    const at = pair.indexOf("=");
    return (SESSION_COOKIES as readonly string[]).includes((at === -1 ? pair : pair.slice(0, at)).trim());
  });
}

/**
 * Answers a signed-out visitor's dashboard page with the redirect to sign in (true: answered here); otherwise marks
 * where the request was headed and lets it through. Only this server says where a request was headed: a header of
 * that name sent by the client is dropped on every request.
 */
export function dashboardDoor(req: IncomingMessage, res: ServerResponse, path: string, search: string): boolean {
  delete req.headers[REQUEST_URL_HEADER];
  if (!isDashboardPath(path)) return false;
  const query = withoutRouterParam(search);
  const requested = query ? `${path}?${query}` : path;
  // A server action goes on to Next: the proxy refuses one from another site (403), and the action's own session
  // check answers one without a session.
  if (!hasSessionCookie(req) && req.headers["next-action"] === undefined) {
    for (const { key, value } of NOT_FRAMABLE_HEADERS) res.setHeader(key, value);
    res.writeHead(307, { location: `/sign-in?callbackUrl=${encodeURIComponent(requested)}` }).end();
    return true;
  }
  req.headers[REQUEST_URL_HEADER] = requested;
  return false;
}
