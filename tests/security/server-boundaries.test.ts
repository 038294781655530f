// Finding 10, this lane's part: a server action posted from another site is refused with 403 (the decision the
// proxy takes; the browser spec beside this file sends one to the built app), and the modules that hold tokens or
// secrets declare themselves server-only, so importing one from a client component fails the build.
import fs from "node:fs";
import { describe, expect, test } from "vitest";
import { isCrossOriginAction } from "@/lib/security/cross-origin-action";

const request = (headers: Record<string, string>, method = "POST") => ({
  method,
  headers: new Headers({ host: "localhost:3000", "next-action": "7f3a", ...headers }),
});
const crossOrigin = (headers: Record<string, string>, method?: string, publicUrl?: string) => {
  const r = request(headers, method);
  return isCrossOriginAction(r.method, r.headers, publicUrl);
};

describe("server actions from other sites", () => {
  test.each([
    "https://evil.example",
    "http://localhost:3001",
    "http://localhost.evil.example:3000",
    "http://evil.example:3000",
    "null",
    "not a url",
  ])("Origin %s is refused", (origin) => expect(crossOrigin({ origin })).toBe(true));

  test("this site's own origin, the public URL's host and a missing Origin are let through", () => {
    expect(crossOrigin({ origin: "http://localhost:3000" })).toBe(false);
    expect(crossOrigin({ origin: "HTTP://LOCALHOST:3000" })).toBe(false);
    expect(crossOrigin({ origin: "https://guildhall.example" }, "POST", "https://guildhall.example")).toBe(false);
    expect(crossOrigin({})).toBe(false);
  });

  test("only server actions are concerned", () => {
    expect(crossOrigin({ origin: "https://evil.example" }, "GET")).toBe(false);
    const plain = new Headers({ host: "localhost:3000", origin: "https://evil.example" });
    expect(isCrossOriginAction("POST", plain, undefined)).toBe(false);
  });

  test("the proxy runs for every server action request and answers 403", () => {
    const proxy = fs.readFileSync("proxy.ts", "utf8");
    expect(proxy).toMatch(/source: "\/:path\*", has: \[\{ type: "header", key: "next-action" \}\]/);
    expect(proxy).toMatch(/isCrossOriginAction\([\s\S]*?status: 403/);
  });
});

describe("modules holding tokens or secrets are server-only", () => {
  test.each([
    "lib/dashboard/config.ts",
    "lib/activity/config.ts",
    "lib/activity/token-exchange.ts",
    "lib/dashboard/auth/adapter.ts",
    "lib/dashboard/auth/index.ts",
    "lib/dashboard/auth/options.ts",
    "lib/dashboard/auth/provider.ts",
    "lib/dashboard/auth/session.ts",
    "lib/dashboard/auth/tokens.ts",
    "lib/dashboard/auth/token-encryption.ts",
    "lib/dashboard/data/api.ts",
  ])("%s imports server-only", (file) => {
    expect(fs.readFileSync(file, "utf8")).toMatch(/^import "server-only";$/m);
  });

  test("outside a React Server bundle, server-only refuses to load (what the marker is for)", async () => {
    const { createRequire } = await import("node:module");
    const require = createRequire(import.meta.url);
    expect(() => require("server-only")).toThrow(/Server Component/);
  });
});
