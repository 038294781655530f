// Activity URL Mappings: the proxy's longest-prefix resolution and the checks on prefixes and targets.
import { describe, expect, test } from "vitest";
import {
  checkMappingPrefix,
  checkMappingTarget,
  normalizeMappingPrefix,
  resolveUrlMapping,
  type UrlMapping,
} from "@/lib/discord/url-mappings";

const MAPPINGS: UrlMapping[] = [
  { prefix: "/", target: "activity.example.com" },
  { prefix: "/api", target: "backend.example.com" },
  { prefix: "/api/v2", target: "v2.example.com/base" },
  { prefix: "/cdn/", target: "cdn.example.net:8443/assets/" },
];

describe("resolveUrlMapping", () => {
  test.each([
    ["/.proxy/", "https://activity.example.com/", "/"],
    ["/.proxy", "https://activity.example.com/", "/"],
    ["/.proxy/index.html", "https://activity.example.com/index.html", "/"],
    ["/.proxy/api/token", "https://backend.example.com/token", "/api"],
    ["/.proxy/api", "https://backend.example.com/", "/api"],
    ["/.proxy/api/v2/users/1", "https://v2.example.com/base/users/1", "/api/v2"],
    ["/.proxy/cdn/logo.png", "https://cdn.example.net:8443/assets/logo.png", "/cdn/"],
  ])("%s → %s (prefix %s)", (path, url, prefix) => {
    const resolved = resolveUrlMapping(MAPPINGS, path);
    expect(resolved?.url).toBe(url);
    expect(resolved?.mapping.prefix).toBe(prefix);
  });

  test("the longest prefix wins whatever the order of the rows", () => {
    expect(resolveUrlMapping([...MAPPINGS].reverse(), "/.proxy/api/v2/x")?.url).toBe("https://v2.example.com/base/x");
  });

  test("prefixes match whole segments: /api does not catch /apis", () => {
    expect(resolveUrlMapping(MAPPINGS, "/.proxy/apis/list")?.url).toBe("https://activity.example.com/apis/list");
    expect(resolveUrlMapping([{ prefix: "/api", target: "b.example.com" }], "/.proxy/apis")).toBeNull();
  });

  test("keeps the query string and fragment", () => {
    expect(resolveUrlMapping(MAPPINGS, "/.proxy/api/token?code=abc&x=1#frag")?.url).toBe(
      "https://backend.example.com/token?code=abc&x=1#frag",
    );
    expect(resolveUrlMapping(MAPPINGS, "/.proxy/api?x=1")?.url).toBe("https://backend.example.com/?x=1");
  });

  test("accepts paths without the /.proxy part", () => {
    expect(resolveUrlMapping(MAPPINGS, "/api/token")?.url).toBe("https://backend.example.com/token");
    expect(resolveUrlMapping(MAPPINGS, "api/token")?.url).toBe("https://backend.example.com/token");
  });

  test("no matching mapping: null", () => {
    expect(resolveUrlMapping([], "/.proxy/anything")).toBeNull();
    expect(resolveUrlMapping([{ prefix: "/api", target: "b.example.com" }], "/.proxy/")).toBeNull();
  });

  test("the scheme can be http for a local target (the host simulator)", () => {
    expect(
      resolveUrlMapping([{ prefix: "/", target: "localhost:3000" }], "/.proxy/activity", { scheme: "http" })?.url,
    ).toBe("http://localhost:3000/activity");
  });
});

describe("checkMappingPrefix", () => {
  test.each(["/", "/api", "/api/v2", "/cdn/", "/a-b_c.d~e"])("accepts %s", (prefix) =>
    expect(checkMappingPrefix(prefix)).toBeNull(),
  );
  test.each([
    ["", /Enter a prefix/],
    ["api", /start with "\/"/],
    ["/my api", /spaces/],
    ["/api?x=1", /no query/],
    ["/api#x", /fragment/],
    ["/a//b", /empty segment/],
    ["/.proxy/api", /proxy itself/],
    ["/" + "a".repeat(300), /256 or fewer/],
  ])("refuses %j", (prefix, message) => expect(checkMappingPrefix(prefix)).toMatch(message));

  test("normalizes trailing slashes, keeping the root", () => {
    expect(normalizeMappingPrefix("/api/")).toBe("/api");
    expect(normalizeMappingPrefix("/")).toBe("/");
    expect(normalizeMappingPrefix("//")).toBe("/");
  });
});

describe("checkMappingTarget", () => {
  test.each([
    "example.com",
    "localhost:3000",
    "127.0.0.1:8080",
    "my-app.trycloudflare.com",
    "example.com/api/v1",
    "[::1]:3000",
    "EXAMPLE.com",
  ])("accepts %s", (target) => expect(checkMappingTarget(target)).toBeNull());
  test.each([
    ["", /Enter a target/],
    ["http://example.com", /scheme/],
    ["https://example.com/api", /scheme/],
    ["example .com", /spaces/],
    [" example.com", /spaces/],
    ["example.com?x=1", /query/],
    ["user@example.com", /credentials/],
    ["example.com:abc", /port must be a number/],
    ["example.com:70000", /between 1 and 65535/],
    ["-bad-.com", /valid host name/],
    [":3000", /needs a host/],
    ["example.com/a b", /spaces/],
    ["[zz]:1", /valid address/],
  ])("refuses %j", (target, message) => expect(checkMappingTarget(target)).toMatch(message));
});
