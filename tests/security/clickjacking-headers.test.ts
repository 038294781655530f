// Finding 6 (clickjacking, missing security headers): which page may be framed by whom, matched with Next's own
// path matcher against the table next.config.mjs serves, and the headers the one-port server adds to the API's
// answers and the Activity. The browser-level check (a framed consent page stays blank) is
// clickjacking.spec.ts beside this file.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { modifyRouteRegex } from "next/dist/lib/redirect-status";
import { getPathMatch } from "next/dist/shared/lib/router/utils/path-match";
import { activityFrameAncestors, pageHeaderRules } from "@/lib/security/headers.mjs";
import { startTestServer, type TestServer } from "../integration/harness";

/** The headers Next would send for `pathname`, later rules overriding earlier ones as Next applies them. */
function pageHeaders(pathname: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const rule of pageHeaderRules()) {
    // As Next's router builds a header rule's matcher (server/lib/router-utils/filesystem.js).
    const match = getPathMatch(rule.source, {
      strict: true,
      removeUnnamedParams: true,
      regexModifier: modifyRouteRegex,
    });
    if (!match(pathname)) continue;
    for (const { key, value } of rule.headers) headers[key.toLowerCase()] = value;
  }
  return headers;
}

describe("pages: who may frame them", () => {
  test.each([
    "/",
    "/sign-in",
    "/oauth2/authorize",
    "/oauth2/authorized",
    "/guilds",
    "/guilds/123/roles",
    "/developers/login",
    "/developers/applications/1",
    "/invite/abc",
    "/widgets",
    "/activityx",
    "/api/auth/signin",
  ])("%s: nobody (frame-ancestors 'none', X-Frame-Options DENY)", (path) => {
    const headers = pageHeaders(path);
    expect(headers["content-security-policy"]).toBe("frame-ancestors 'none'");
    expect(headers["x-frame-options"]).toBe("DENY");
  });

  test.each(["/widget", "/widget/"])("%s: anyone (the embeddable widget)", (path) => {
    const headers = pageHeaders(path);
    expect(headers["content-security-policy"]).toBe("frame-ancestors *");
    expect(headers["x-frame-options"]).toBeUndefined();
  });

  test.each(["/activity", "/activity/x"])("%s: left to the server's Activity policy", (path) => {
    expect(pageHeaders(path)["content-security-policy"]).toBeUndefined();
  });

  test.each(["/", "/sign-in", "/widget", "/activity", "/oauth2/authorize"])(
    "%s: nosniff and a Referrer-Policy",
    (path) => {
      const headers = pageHeaders(path);
      expect(headers["x-content-type-options"]).toBe("nosniff");
      expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    },
  );
});

describe("the Activity's frame-ancestors", () => {
  test("Discord's client origins, plus configured origins", () => {
    expect(activityFrameAncestors(undefined)).toBe(
      "frame-ancestors https://discord.com https://*.discord.com https://*.discordsays.com",
    );
    expect(activityFrameAncestors("http://localhost:3333")).toMatch(/ http:\/\/localhost:3333$/);
  });

  test("a configured value cannot smuggle other directives or sources", () => {
    const policy = activityFrameAncestors("http://localhost:1; script-src * 'unsafe-inline' * https://ok.example");
    expect(policy).not.toMatch(/script-src|unsafe-inline|localhost:1;/);
    expect(policy.split(" ").filter((part) => part === "*")).toHaveLength(0);
    expect(policy).toMatch(/ https:\/\/ok\.example$/);
  });
});

describe("the server's own answers (API, CDN, Activity)", () => {
  let server: TestServer;
  const previous = process.env.ACTIVITY_FRAME_ANCESTORS;
  beforeAll(async () => {
    process.env.ACTIVITY_FRAME_ANCESTORS = "http://localhost:4555";
    server = await startTestServer();
  });
  afterAll(async () => {
    if (previous === undefined) delete process.env.ACTIVITY_FRAME_ANCESTORS;
    else process.env.ACTIVITY_FRAME_ANCESTORS = previous;
    await server?.close();
  });

  test.each(["/api/v10/users/@me", "/api/v10/gateway", "/api/oauth2/token", "/cdn/icons/1/x.png", "/healthz"])(
    "%s carries nosniff and a Referrer-Policy",
    async (path) => {
      const response = await fetch(`${server.baseUrl}${path}`);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    },
  );

  test("an authenticated API answer carries them too", async () => {
    const response = await server.api("mod", "GET", "/users/@me");
    expect(response.status).toBe(200);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });

  test("the Activity may be framed only by Discord and the configured host", async () => {
    const response = await fetch(`${server.baseUrl}/activity?frame_id=x`);
    expect(response.headers.get("content-security-policy")).toBe(
      "frame-ancestors https://discord.com https://*.discord.com https://*.discordsays.com http://localhost:4555",
    );
  });
});
