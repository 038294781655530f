// The page histogram's labels come from paths anyone may send: routes become patterns with few values (ids, codes and
// Next's hashed assets collapsed, 404s and unknown top-level paths "other", depth capped), and the kind is read from
// Next's own request headers.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { OTHER_ROUTE, pageRequestKind, pageRoute, TOP_LEVEL_SEGMENTS } from "@/lib/server/page-metrics";

test("ids, cuids and invite codes become placeholders; the route's own words stay", () => {
  expect(pageRoute("/", 200)).toBe("/");
  expect(pageRoute("/guilds", 200)).toBe("/guilds");
  expect(pageRoute("/guilds/1234567890123456789/bans", 200)).toBe("/guilds/[id]/bans");
  expect(pageRoute("/guilds/1234567890123456789/bans/bulk/cm4x1y2z3a4b5c6d7e8f9g0h1", 200)).toBe(
    "/guilds/[id]/bans/bulk/[id]",
  );
  expect(pageRoute("/guilds/1/invites/aBc9XyZ/target-users/job-status", 200)).toBe(
    "/guilds/[id]/invites/[code]/target-users/job-status",
  );
  expect(pageRoute("/invite/aBc9XyZ", 200)).toBe("/invite/[code]");
  expect(pageRoute("/api/auth/callback/discord", 302)).toBe("/api/auth/callback/discord");
  expect(pageRoute("/oauth2/authorize", 200)).toBe("/oauth2/authorize");
  expect(pageRoute("/favicon.ico", 200)).toBe("/favicon.ico");
});

test("Next's assets keep their folder only; 404s, unknown paths and odd segments are bounded", () => {
  expect(pageRoute("/_next/static/chunks/app/page-0a1b2c3d.js", 200)).toBe("/_next/static");
  expect(pageRoute("/_next/image", 200)).toBe("/_next/image");
  expect(pageRoute("/_next/whatever/x", 200)).toBe("/_next");
  expect(pageRoute("/guilds/1/no-such-section", 404)).toBe(OTHER_ROUTE);
  expect(pageRoute("/wp-admin/setup.php", 200)).toBe(OTHER_ROUTE);
  expect(pageRoute("/guilds/1/members/Some%20Name", 200)).toBe("/guilds/[id]/members/[param]");
  expect(pageRoute("/guilds/1/a/b/c/d/e/f/g", 200)).toBe("/guilds/[id]/a/b/c/d/…");
});

test("every top-level folder of app/ (route groups opened) is a known first segment", () => {
  const app = path.join(process.cwd(), "app");
  const routeFolders = (dir: string): string[] =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !entry.name.startsWith("_"))
      .flatMap((entry) => (/^\(.*\)$/.test(entry.name) ? routeFolders(path.join(dir, entry.name)) : [entry.name]));
  for (const folder of routeFolders(app)) expect(TOP_LEVEL_SEGMENTS.has(folder), folder).toBe(true);
});

test("the kind: a server action, a client navigation, a document, or other", () => {
  const req = (method: string, headers: Record<string, string> = {}) => ({ method, headers });
  expect(pageRequestKind(req("POST", { "next-action": "7f3a" }))).toBe("action");
  expect(pageRequestKind(req("GET", { rsc: "1" }))).toBe("navigation");
  expect(pageRequestKind(req("GET"))).toBe("document");
  expect(pageRequestKind(req("HEAD"))).toBe("document");
  expect(pageRequestKind(req("POST"))).toBe("other");
});
