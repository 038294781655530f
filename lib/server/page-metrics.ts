// What guildhall_page_request_duration_seconds records of a request handed to Next (create-server.ts): its route as a
// pattern with few values, whatever path was asked, and its kind. Labels come from paths anyone may send, so every
// value is bounded: ids become [id], an unknown top-level path or any 404 is "other", and depth is capped.
import type { IncomingMessage, ServerResponse } from "node:http";
import { recordPageRequest } from "./metrics";

/** The route label of anything outside the app's routes: 404s, unknown top-level paths. */
export const OTHER_ROUTE = "other";

/**
 * The app's top-level path segments (app/, route groups expanded) and its metadata files. A new top-level route is
 * "other" until it is listed here; tests/unit/page-metrics.test.ts fails until it is.
 */
export const TOP_LEVEL_SEGMENTS: ReadonlySet<string> = new Set([
  "activity",
  "api",
  "appeal",
  "developers",
  "dynamic-floor",
  "guilds",
  "invite",
  "join",
  "oauth2",
  "sign-in",
  "widget",
  "favicon.ico",
  "icon.svg",
  "apple-icon.png",
]);

/** Next's own assets: their file names (hashes) are dropped, the folder kept. */
const NEXT_ASSET_FOLDERS: ReadonlySet<string> = new Set(["static", "image", "data"]);

/** The deepest route the app has: /guilds/[id]/invites/[code]/target-users/job-status. */
const MAX_DEPTH = 6;

/** A route's own folder name: lower-case words, digits and dashes, short. */
const STATIC_SEGMENT = /^[a-z][a-z0-9-]{0,31}$/;
/** Ids the dashboard puts in paths: snowflakes and case numbers (digits), cuids of its own rows (jobs). */
const NUMERIC_ID = /^\d+$/;
const CUID = /^c[a-z0-9]{20,}$/;

/** The label of `path` answered with `status`: `/guilds/[id]/bans`, `/_next/static`, `other`. */
export function pageRoute(path: string, status: number): string {
  if (status === 404) return OTHER_ROUTE;
  const segments = path.split("/").filter((segment) => segment !== "");
  if (segments.length === 0) return "/";
  if (segments[0] === "_next") return NEXT_ASSET_FOLDERS.has(segments[1]) ? `/_next/${segments[1]}` : "/_next";
  if (!TOP_LEVEL_SEGMENTS.has(segments[0])) return OTHER_ROUTE;
  const patterns = segments.slice(0, MAX_DEPTH).map((segment, i) => segmentPattern(segment, segments[i - 1]));
  return `/${patterns.join("/")}${segments.length > MAX_DEPTH ? "/…" : ""}`;
}

function segmentPattern(segment: string, parent: string | undefined): string {
  // An invite's code is letters and digits, any of them: never a label of its own.
  if (parent === "invite" || parent === "invites") return "[code]";
  if (NUMERIC_ID.test(segment) || CUID.test(segment)) return "[id]";
  if (STATIC_SEGMENT.test(segment) || (parent === undefined && TOP_LEVEL_SEGMENTS.has(segment))) return segment;
  return "[param]";
}

export type PageRequestKind = "action" | "navigation" | "document" | "other";

/** A server action (Next-Action header), a client navigation's RSC payload (RSC: 1), a document (GET), or other. */
export function pageRequestKind(req: Pick<IncomingMessage, "method" | "headers">): PageRequestKind {
  if (req.headers["next-action"] !== undefined) return "action";
  if (req.headers.rsc === "1") return "navigation";
  if (req.method === "GET" || req.method === "HEAD") return "document";
  return "other";
}

/** nginx's "client closed request": the response ended before its last byte was handed to the socket. */
const CLIENT_CLOSED = 499;

/** Times a request from its hand-off to Next until its response is finished or its connection closed. */
export function timePageRequest(req: IncomingMessage, res: ServerResponse, path: string): void {
  const started = performance.now();
  // Read now: the headers are the client's, before Next handles the request.
  const kind = pageRequestKind(req);
  let recorded = false;
  const record = () => {
    if (recorded) return;
    recorded = true;
    const status = res.writableFinished ? res.statusCode : CLIENT_CLOSED;
    recordPageRequest(pageRoute(path, status), kind, status, (performance.now() - started) / 1000);
  };
  res.once("finish", record);
  res.once("close", record);
}
