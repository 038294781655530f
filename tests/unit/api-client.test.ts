// The API client against a tiny local HTTP server: URLs and headers, 429 handling (wait and resend for idempotent
// requests, never for POST/PATCH), transient failures, and Discord errors turned into field paths.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  GuildApiClient,
  GuildApiError,
  RateLimitError,
  flattenErrorTree,
  describeApiError,
  type RateLimitNotice,
} from "@/lib/api-client";

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

type Responder = (req: Seen, count: number) => { status: number; body?: unknown; headers?: Record<string, string> };

let server: http.Server;
let baseUrl: string;
let responder: Responder;
let seen: Seen[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const entry = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body };
      seen.push(entry);
      const answer = responder(entry, seen.length);
      const payload = answer.body === undefined ? "" : JSON.stringify(answer.body);
      res.writeHead(answer.status, { ...(payload ? { "content-type": "application/json" } : {}), ...answer.headers });
      res.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => {
  seen = [];
});

function client(options: Partial<ConstructorParameters<typeof GuildApiClient>[0]> = {}) {
  return new GuildApiClient({ baseUrl, token: "tok", authPrefix: "Bearer", retries: 2, ...options });
}

const role = {
  id: "2",
  name: "Helper",
  permissions: "2",
  position: 1,
  color: 0,
  hoist: false,
  managed: false,
  mentionable: false,
};

describe("requests", () => {
  it("builds versioned URLs from Routes, sends the token, JSON body and URI-encoded audit-log reason", async () => {
    responder = () => ({ status: 200, body: role });
    const result = await client().roles.edit("10", "2", { name: "Helper" }, { reason: "tidy up: ünïcode" });
    expect(result).toEqual(role);
    expect(seen).toHaveLength(1);
    expect(seen[0].method).toBe("PATCH");
    expect(seen[0].url).toBe("/api/v10/guilds/10/roles/2");
    expect(seen[0].headers.authorization).toBe("Bearer tok");
    expect(seen[0].headers["content-type"]).toBe("application/json");
    expect(seen[0].headers["x-audit-log-reason"]).toBe(encodeURIComponent("tidy up: ünïcode"));
    expect(JSON.parse(seen[0].body)).toEqual({ name: "Helper" });
  });

  it("AutoMod rules: Discord's paths, the body and the reason", async () => {
    responder = () => ({ status: 200, body: { id: "5" } });
    await client().autoModeration.list("10");
    await client().autoModeration.create(
      "10",
      { name: "Words", event_type: 1, trigger_type: 1, actions: [{ type: 1 }] },
      { reason: "new-rule" },
    );
    await client().autoModeration.edit("10", "5", { enabled: false });
    expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      "GET /api/v10/guilds/10/auto-moderation/rules",
      "POST /api/v10/guilds/10/auto-moderation/rules",
      "PATCH /api/v10/guilds/10/auto-moderation/rules/5",
    ]);
    expect(seen[1].headers["x-audit-log-reason"]).toBe("new-rule");
    expect(JSON.parse(seen[2].body)).toEqual({ enabled: false });
    responder = () => ({ status: 204 });
    await expect(client().autoModeration.delete("10", "5")).resolves.toBeUndefined();
    expect(seen[3].url).toBe("/api/v10/guilds/10/auto-moderation/rules/5");
  });

  it("puts query values in the URL, skipping undefined ones", async () => {
    responder = () => ({ status: 200, body: [] });
    await client().members.list("10", { limit: 50, after: "123" });
    await client().users.getGuilds({ with_counts: true, before: undefined });
    expect(seen[0].url).toBe("/api/v10/guilds/10/members?limit=50&after=123");
    expect(seen[1].url).toBe("/api/v10/users/@me/guilds?with_counts=true");
  });

  it("uses the configured version and the bot prefix", async () => {
    responder = () => ({ status: 200, body: [] });
    await client({ version: "9", authPrefix: "Bot", token: "bot-token" }).roles.list("10");
    expect(seen[0].url).toBe("/api/v9/guilds/10/roles");
    expect(seen[0].headers.authorization).toBe("Bot bot-token");
  });

  it("resolves 204 answers to undefined", async () => {
    responder = () => ({ status: 204 });
    await expect(client().members.kick("10", "20", { reason: "spam" })).resolves.toBeUndefined();
    expect(seen[0].method).toBe("DELETE");
    expect(seen[0].headers["x-audit-log-reason"]).toBe("spam");
  });

  it("sends OAuth2 requests form-encoded with HTTP Basic client credentials and no bearer token", async () => {
    responder = () => ({ status: 200, body: {} });
    await client().oauth2.revokeToken({ clientId: "app", clientSecret: "s3cr3t" }, "refresh-1", "refresh_token");
    expect(seen[0].url).toBe("/api/v10/oauth2/token/revoke");
    expect(seen[0].headers.authorization).toBe(`Basic ${Buffer.from("app:s3cr3t").toString("base64")}`);
    expect(seen[0].headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(new URLSearchParams(seen[0].body).get("token")).toBe("refresh-1");
  });
});

describe("429 handling", () => {
  const rateLimited = (retryAfter: number) => ({
    status: 429,
    body: { message: "You are being rate limited.", retry_after: retryAfter, global: false, code: 0 },
    headers: { "retry-after": String(Math.ceil(retryAfter)) },
  });

  it("waits retry_after and resends an idempotent request, reporting the wait", async () => {
    responder = (_req, count) => (count === 1 ? rateLimited(0.2) : { status: 200, body: [role] });
    const notices: RateLimitNotice[] = [];
    const started = Date.now();
    const roles = await client({ onRateLimit: (n) => notices.push(n) }).roles.list("10");
    expect(roles).toEqual([role]);
    expect(seen).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(notices).toEqual([
      { method: "GET", path: "/guilds/10/roles", retryAfter: 0.2, global: false, willRetry: true },
    ]);
  });

  it("resends a POST or PATCH after the wait too: a 429 means the request was not applied", async () => {
    responder = (_req, count) => (count % 2 === 1 ? rateLimited(0.05) : { status: 200, body: role });
    const notices: RateLimitNotice[] = [];
    const api = client({ onRateLimit: (n) => notices.push(n) });
    await expect(api.roles.create("10", { name: "x" })).resolves.toEqual(role);
    expect(seen.map((r) => r.method)).toEqual(["POST", "POST"]);
    await expect(api.members.edit("10", "20", { nick: "n" })).resolves.toEqual(role);
    expect(seen.map((r) => r.method)).toEqual(["POST", "POST", "PATCH", "PATCH"]);
    expect(notices.map((n) => [n.method, n.willRetry])).toEqual([
      ["POST", true],
      ["PATCH", true],
    ]);
  });

  it("a POST whose wait is too long throws RateLimitError with the wait, sent once", async () => {
    responder = () => rateLimited(30);
    const error = await client({ maxRateLimitWaitMs: 1000 })
      .roles.create("10", { name: "x" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(30);
    expect((error as RateLimitError).status).toBe(429);
    expect(seen).toHaveLength(1);
    expect(describeApiError(error)).toBe("Rate limited: try again in 30 s.");
  });

  it("gives up on waits longer than allowed, even for GET", async () => {
    responder = () => rateLimited(30);
    await expect(client({ maxRateLimitWaitMs: 1000 }).roles.list("10")).rejects.toMatchObject({
      name: "RateLimitError",
      retryAfter: 30,
    });
    expect(seen).toHaveLength(1);
  });

  it("resends through 429 after 429 (not counted as retries) until its waits would pass the limit in all", async () => {
    responder = () => rateLimited(0.1);
    const notices: RateLimitNotice[] = [];
    const api = client({ retries: 1, maxRateLimitWaitMs: 450, onRateLimit: (n) => notices.push(n) });
    await expect(api.roles.list("10")).rejects.toBeInstanceOf(RateLimitError);
    // Four waits of 100 ms fit in 450 ms; the fifth would not.
    expect(seen).toHaveLength(5);
    expect(notices.map((n) => n.willRetry)).toEqual([true, true, true, true, false]);
  });

  it("a bucket answering 429 with no wait at all is given up on too", async () => {
    responder = () => rateLimited(0);
    await expect(client({ maxRateLimitWaitMs: 200 }).roles.list("10")).rejects.toBeInstanceOf(RateLimitError);
    // Each counted as 50 ms: four fit in 200 ms.
    expect(seen).toHaveLength(5);
  });

  it("reads Retry-After when the body has no retry_after", async () => {
    responder = (_req, count) =>
      count === 1
        ? { status: 429, body: { message: "slow down", code: 0 }, headers: { "retry-after": "0" } }
        : { status: 204 };
    await expect(client().bans.unban("10", "20")).resolves.toBeUndefined();
    expect(seen).toHaveLength(2);
  });
});

describe("transient failures", () => {
  it("retries an idempotent request after a 503, not a POST", async () => {
    responder = (_req, count) =>
      count === 1 ? { status: 503, body: { message: "busy", code: 0 } } : { status: 200, body: [] };
    await expect(client().roles.list("10")).resolves.toEqual([]);
    expect(seen).toHaveLength(2);
    seen = [];
    responder = () => ({ status: 503, body: { message: "busy", code: 0 } });
    await expect(client().channels.create("10", { name: "x" })).rejects.toMatchObject({ status: 503 });
    expect(seen).toHaveLength(1);
  });

  it("does not retry ordinary 4xx errors", async () => {
    responder = () => ({ status: 403, body: { message: "Missing Permissions", code: 50013 } });
    await expect(client().roles.list("10")).rejects.toMatchObject({
      status: 403,
      code: 50013,
      message: "Missing Permissions",
    });
    expect(seen).toHaveLength(1);
  });
});

describe("errors", () => {
  it("turns Discord's nested errors into field paths", async () => {
    responder = () => ({
      status: 400,
      body: {
        code: 50035,
        message: "Invalid Form Body",
        errors: {
          name: { _errors: [{ code: "BASE_TYPE_BAD_LENGTH", message: "Must be between 2 and 100 in length." }] },
          roles: { "0": { _errors: [{ code: "NUMBER_TYPE_COERCE", message: 'Value "x" is not snowflake.' }] } },
        },
      },
    });
    const error = (await client()
      .guilds.edit("10", { name: "x" })
      .catch((e: unknown) => e)) as GuildApiError;
    expect(error).toBeInstanceOf(GuildApiError);
    expect(error.status).toBe(400);
    expect(error.code).toBe(50035);
    expect(error.fieldErrors).toEqual([
      { path: "name", code: "BASE_TYPE_BAD_LENGTH", message: "Must be between 2 and 100 in length." },
      { path: "roles.0", code: "NUMBER_TYPE_COERCE", message: 'Value "x" is not snowflake.' },
    ]);
    expect(error.fieldErrorMap).toEqual({
      name: ["Must be between 2 and 100 in length."],
      "roles.0": ['Value "x" is not snowflake.'],
    });
    expect(error.request).toEqual({ method: "PATCH", path: "/guilds/10" });
    expect(describeApiError(error)).toBe("Invalid Form Body: name: Must be between 2 and 100 in length.");
  });

  it("flattens body-level errors and deep nesting", () => {
    expect(
      flattenErrorTree({
        _errors: [{ code: "A", message: "body" }],
        permission_overwrites: { "1": { allow: { _errors: [{ code: "B", message: "bad allow" }] } } },
      }),
    ).toEqual([
      { path: "", code: "A", message: "body" },
      { path: "permission_overwrites.1.allow", code: "B", message: "bad allow" },
    ]);
  });

  it("maps RFC 6749 OAuth2 errors", async () => {
    responder = () => ({
      status: 400,
      body: { error: "invalid_grant", error_description: "The refresh token is invalid." },
    });
    const error = (await client()
      .oauth2.refreshToken({ clientId: "a", clientSecret: "b" }, "r")
      .catch((e: unknown) => e)) as GuildApiError;
    expect(error.oauthError).toBe("invalid_grant");
    expect(error.message).toBe("The refresh token is invalid.");
    expect(error.code).toBe(0);
  });

  it("reports an unreachable API without retrying a POST", async () => {
    const api = new GuildApiClient({ baseUrl: "http://127.0.0.1:1/api", token: "t", retries: 1 });
    await expect(api.roles.create("10", {})).rejects.toMatchObject({ name: "GuildApiUnreachableError" });
  });
});

describe("the token's own user id", () => {
  it("is asked once per token and API; a failure is asked again", async () => {
    let answers = 0;
    responder = (entry) => {
      answers++;
      // The first ask of token "flaky" fails; every other answers its token's id.
      if (entry.headers.authorization === "Bot flaky" && answers === 1) return { status: 500, body: { message: "no" } };
      return { status: 200, body: { id: `id-of-${String(entry.headers.authorization).slice(4)}`, username: "x" } };
    };
    const a = client({ token: "a", authPrefix: "Bot", retries: 0 });
    expect(await a.users.getCurrentId()).toBe("id-of-a");
    expect(await client({ token: "a", authPrefix: "Bot" }).users.getCurrentId()).toBe("id-of-a");
    expect(seen).toHaveLength(1);
    expect(await client({ token: "b", authPrefix: "Bot" }).users.getCurrentId()).toBe("id-of-b");
    expect(seen).toHaveLength(2);

    answers = 0;
    const flaky = () => client({ token: "flaky", authPrefix: "Bot", retries: 0 }).users.getCurrentId();
    await expect(flaky()).rejects.toThrow();
    expect(await flaky()).toBe("id-of-flaky");
    expect(await flaky()).toBe("id-of-flaky");
    expect(seen).toHaveLength(4);
  });
});
