// Finding 5 (open redirect): every way a callback value has been seen to leave the origin is reduced to the
// fallback, and ordinary paths survive unchanged. The values are what the server receives after the query string
// is decoded once (`/sign-in?callbackUrl=/%5Cevil.example` arrives as `/\evil.example`).
import { describe, expect, test } from "vitest";
import { safeRedirectPath } from "@/lib/security/safe-redirect";

const ORIGIN = "http://localhost:3000";
const FALLBACK = "/guilds";
const check = (value: unknown) => safeRedirectPath(value, { fallback: FALLBACK, origin: ORIGIN });

const BYPASSES = [
  "/\\evil.example",
  "\\/evil.example",
  "\\\\evil.example",
  "//evil.example",
  "///evil.example",
  "//evil.example/%2F..",
  "/\t/evil.example",
  "/\n/evil.example",
  "/\r\n/evil.example",
  "\t//evil.example",
  " //evil.example",
  "/%09/evil.example",
  "/%0a/evil.example",
  "/%5Cevil.example",
  "/%2F/evil.example",
  "/%2f%2fevil.example",
  "/%255Cevil.example",
  "/%252F%252Fevil.example",
  "/..//evil.example",
  "/./..//evil.example",
  "/%2e%2e//evil.example",
  "https:evil.example",
  "https:/evil.example",
  "http://evil.example",
  "https://evil.example/guilds",
  "HTTPS://EVIL.EXAMPLE",
  "//localhost:3000@evil.example",
  "http://localhost:3000@evil.example",
  "http://localhost:3000%40evil.example",
  "http://user:pass@localhost:3000/guilds",
  "http://localhost:3001/guilds",
  "https://localhost:3000/guilds",
  "http://localhost.evil.example/guilds",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(document.domain)",
  "java\tscript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "vbscript:msgbox(1)",
  "evil.example",
  "",
  "/\u0000/evil.example",
  "/" + "a".repeat(5000),
  undefined,
  null,
  42,
  ["/guilds"],
];

describe("safeRedirectPath refuses every known bypass", () => {
  test(`covers at least 20 forms (${BYPASSES.length})`, () => expect(BYPASSES.length).toBeGreaterThanOrEqual(20));
  test.each(BYPASSES.map((value) => [JSON.stringify(value), value]))("%s → the fallback", (_, value) => {
    expect(check(value)).toBe(FALLBACK);
  });
});

describe("safeRedirectPath keeps same-origin paths", () => {
  test.each([
    ["/guilds", "/guilds"],
    ["/guilds/123/members?query=john%20doe&page=2", "/guilds/123/members?query=john%20doe&page=2"],
    ["/guilds/123#roles", "/guilds/123#roles"],
    ["/guilds/./123/../456", "/guilds/456"],
    ["/a%2Fb", "/a%2Fb"],
    [`${ORIGIN}/guilds/1`, "/guilds/1"],
    [`${ORIGIN}`, "/"],
  ])("%s → %s", (value, expected) => expect(check(value)).toBe(expected));

  test("without an origin, absolute URLs are refused even on this origin", () => {
    expect(safeRedirectPath(`${ORIGIN}/guilds`, { fallback: "/x" })).toBe("/x");
  });

  test("`within` keeps the value under a prefix", () => {
    const portal = (value: string) =>
      safeRedirectPath(value, { fallback: "/developers/applications", within: "/developers" });
    expect(portal("/developers/applications/1?tab=oauth2")).toBe("/developers/applications/1?tab=oauth2");
    expect(portal("/developers")).toBe("/developers");
    expect(portal("/developersevil")).toBe("/developers/applications");
    expect(portal("/developers/../guilds")).toBe("/developers/applications");
    expect(portal("/guilds")).toBe("/developers/applications");
  });
});
