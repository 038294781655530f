// The dashboard's front door in the one-process server (lib/server/dashboard-door.ts), over real HTTP: a signed-out
// visitor's dashboard page goes to sign in with the way back; a request with a session cookie goes on carrying the
// path it asked for, which a client cannot forge; a server action goes on to the proxy's origin check.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { dashboardDoor } from "@/lib/server/dashboard-door";

let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const [path, search = ""] = (req.url ?? "/").split(/\?(.*)/s);
    if (dashboardDoor(req, res, path, search)) return;
    // What Next would see: the header the door set, if any.
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ requested: req.headers["x-guildhall-url"] ?? null }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, { headers, redirect: "manual" });

describe("the dashboard's front door", () => {
  test.each(["/guilds", "/guilds/123/members?q=ada&sort=joined-asc"])(
    "%s without a session cookie: 307 to sign in, with the way back",
    async (path) => {
      const response = await get(path, { cookie: "theme=dark; next-auth.csrf-token=x" });
      expect(response.status).toBe(307);
      const location = new URL(response.headers.get("location")!, base);
      expect(location.pathname).toBe("/sign-in");
      expect(location.searchParams.get("callbackUrl")).toBe(path);
      expect(response.headers.get("x-frame-options")).toBe("DENY");
    },
  );

  test.each(["next-auth.session-token", "__Secure-next-auth.session-token"])(
    "with the %s cookie: goes on, carrying the path it asked for",
    async (cookie) => {
      const response = await get("/guilds/123/bans?after=9", { cookie: `a=b; ${cookie}=token` });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ requested: "/guilds/123/bans?after=9" });
    },
  );

  test("the router's _rsc parameter is no part of the way back", async () => {
    const signedOut = await get("/guilds?_rsc=1a2b", { rsc: "1" });
    expect(new URL(signedOut.headers.get("location")!, base).searchParams.get("callbackUrl")).toBe("/guilds");
    const signedIn = await get("/guilds/123/members?q=ada&_rsc=1a2b&sort=joined-asc", {
      cookie: "next-auth.session-token=token",
      rsc: "1",
    });
    expect(await signedIn.json()).toEqual({ requested: "/guilds/123/members?q=ada&sort=joined-asc" });
  });

  test("a client's own x-guildhall-url is never passed on", async () => {
    const signedIn = await get("/guilds/123", {
      cookie: "next-auth.session-token=token",
      "x-guildhall-url": "/elsewhere",
    });
    expect(await signedIn.json()).toEqual({ requested: "/guilds/123" });
    const otherPage = await get("/sign-in", { "x-guildhall-url": "/elsewhere" });
    expect(await otherPage.json()).toEqual({ requested: null });
  });

  test("pages outside the dashboard and server actions go on without a session cookie", async () => {
    for (const path of ["/", "/sign-in", "/guildsx", "/invite/abc"]) expect((await get(path)).status, path).toBe(200);
    const action = await get("/guilds/123/members", { "next-action": "7f3a" });
    expect(action.status).toBe(200);
    expect(await action.json()).toEqual({ requested: "/guilds/123/members" });
  });
});
