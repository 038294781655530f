// Issue 12, finding 7: Discord's rate limits on the built-in API. Per-route buckets (route family + guild + token)
// with their headers, Discord's 429 body, the global 50 requests per second, the invalid-request limit per IP, the
// window reset, RATE_LIMITS=off, bounded memory, and @discordjs/rest waiting on them. Every test here fails on the
// main branch of before this change, which sent no X-RateLimit-* header and never answered 429.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { IncomingMessage } from "node:http";
import { REST } from "@discordjs/rest";
import { Routes } from "discord-api-types/v10";
import { route, type Router } from "@/lib/guild-api/http";
import {
  configureRateLimits,
  DEFAULT_RATE_LIMIT_OPTIONS,
  RateLimiter,
  rateLimitOptionsFromEnv,
} from "@/lib/guild-api/rate-limits";
import { startTestServer, type TestServer } from "../integration/harness";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
// A fresh limiter per test, with the defaults `npm start` uses: no test inherits another's counters.
beforeEach(() => {
  configureRateLimits({ enabled: true });
});

/** Raw fetch: no waiting on 429, unlike the harness's api(). */
const send = (authorization: string | null, path: string, method = "GET") =>
  fetch(`${server.baseUrl}/api/v10${path}`, { method, headers: authorization ? { authorization } : {} });

const bot = () => `Bot ${server.botToken}`;
const bearer = async (user: string) => `Bearer ${await server.tokenFor(user)}`;
const pruneCount = () => `/guilds/${server.world.guildId}/prune?days=7`;
const header = (response: Response, name: string) => response.headers.get(name);

describe("per-route buckets", () => {
  it("every answer carries Limit, Remaining (counting down), Reset, Reset-After and a stable Bucket", async () => {
    const before = Date.now() / 1000;
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await send(bot(), "/users/@me"));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(answers.map((r) => header(r, "x-ratelimit-limit"))).toEqual(["40", "40", "40"]);
    expect(answers.map((r) => header(r, "x-ratelimit-remaining"))).toEqual(["39", "38", "37"]);
    const buckets = new Set(answers.map((r) => header(r, "x-ratelimit-bucket")));
    expect(buckets.size).toBe(1);
    expect([...buckets][0]).toMatch(/^[0-9a-f]{32}$/);
    for (const answer of answers) {
      const reset = Number(header(answer, "x-ratelimit-reset"));
      const resetAfter = Number(header(answer, "x-ratelimit-reset-after"));
      expect(header(answer, "x-ratelimit-reset")).toMatch(/^\d+\.\d{3}$/);
      expect(reset).toBeGreaterThan(before);
      expect(reset).toBeLessThanOrEqual(before + 1.5);
      expect(resetAfter).toBeGreaterThan(0);
      expect(resetAfter).toBeLessThanOrEqual(1);
      expect(header(answer, "x-ratelimit-scope")).toBeNull();
    }
    // Another route is another bucket; the same route on another guild is the same bucket hash.
    const guilds = await send(bot(), "/users/@me/guilds");
    expect(header(guilds, "x-ratelimit-bucket")).not.toBe([...buckets][0]);
    const first = await send(bot(), `/guilds/${server.world.guildId}/roles`);
    const second = await send(bot(), `/guilds/${server.world.sideGuildId}/roles`);
    expect(header(second, "x-ratelimit-bucket")).toBe(header(first, "x-ratelimit-bucket"));
  });

  it("an exhausted bucket answers Discord's 429: exact body, Retry-After, scope user, no global flag", async () => {
    for (let i = 0; i < 5; i++) expect((await send(bot(), pruneCount())).status).toBe(200);
    const refused = await send(bot(), pruneCount());
    expect(refused.status).toBe(429);
    expect(header(refused, "content-type")).toBe("application/json");
    const body = (await refused.json()) as { retry_after: number };
    expect(Object.keys(body).sort()).toEqual(["code", "global", "message", "retry_after"]);
    expect(body).toEqual({
      message: "You are being rate limited.",
      retry_after: body.retry_after,
      global: false,
      code: 0,
    });
    expect(body.retry_after).toBeGreaterThan(0);
    expect(body.retry_after).toBeLessThanOrEqual(5);
    expect(header(refused, "retry-after")).toBe(String(Math.ceil(body.retry_after)));
    // discord.py waits on a 429 only when it carries Via (without it, it takes the 429 for a Cloudflare ban).
    expect(header(refused, "via")).toBeTruthy();
    expect(header(refused, "x-ratelimit-scope")).toBe("user");
    expect(header(refused, "x-ratelimit-global")).toBeNull();
    expect(header(refused, "x-ratelimit-limit")).toBe("5");
    expect(header(refused, "x-ratelimit-remaining")).toBe("0");
    expect(Number(header(refused, "x-ratelimit-reset-after"))).toBeCloseTo(body.retry_after, 2);

    // Counted per token and per guild (Discord's top-level resource): others are untouched.
    const otherToken = await send(await bearer("owner"), pruneCount());
    expect(otherToken.status).toBe(200);
    expect(header(otherToken, "x-ratelimit-remaining")).toBe("4");
    const otherGuild = await send(bot(), `/guilds/${server.world.sideGuildId}/prune?days=7`);
    expect(otherGuild.status).not.toBe(429);
    expect(header(otherGuild, "x-ratelimit-remaining")).toBe("4");
  });

  it("the bucket opens again once Reset-After has passed", async () => {
    let last: Response | null = null;
    for (let i = 0; i < 6; i++) last = await send(bot(), pruneCount());
    expect(last!.status).toBe(429);
    const { retry_after: retryAfter } = (await last!.json()) as { retry_after: number };
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 + 20));
    const again = await send(bot(), pruneCount());
    expect(again.status).toBe(200);
    expect(header(again, "x-ratelimit-remaining")).toBe("4");
  });
});

describe("the global limit", () => {
  it("50 requests per second per token over all routes; the 51st is a global 429", async () => {
    const token = await bearer("admin");
    // 60 at once over two routes (30 each: no route bucket of 40 is reached), all inside one second.
    const paths = Array.from({ length: 60 }, (_, i) => (i % 2 ? "/users/@me" : "/users/@me/guilds"));
    const answers = await Promise.all(paths.map((path) => send(token, path)));
    const refused = answers.filter((r) => r.status === 429);
    expect(answers.filter((r) => r.status === 200)).toHaveLength(50);
    expect(refused).toHaveLength(10);
    for (const answer of refused) {
      expect(header(answer, "x-ratelimit-global")).toBe("true");
      expect(header(answer, "x-ratelimit-scope")).toBe("global");
      expect(Number(header(answer, "retry-after"))).toBe(1);
      const body = (await answer.json()) as { retry_after: number };
      expect(body).toMatchObject({ message: "You are being rate limited.", global: true, code: 0 });
      expect(body.retry_after).toBeLessThanOrEqual(1);
    }
    // Another caller is not affected.
    expect((await send(bot(), "/users/@me")).status).toBe(200);
  });
});

describe("the invalid-request limit per IP", () => {
  it("too many 401/403/429 answers block the address, valid token or not, with a global 429", async () => {
    configureRateLimits({ invalidRequestLimit: 5 });
    for (let i = 0; i < 3; i++) expect((await send("Bot not-a-token", "/users/@me")).status).toBe(401);
    // A member without Kick Members: 403 counts too.
    for (let i = 0; i < 2; i++) expect((await send(await bearer("member"), pruneCount())).status).toBe(403);
    const blocked = await send(bot(), "/users/@me");
    expect(blocked.status).toBe(429);
    const body = (await blocked.json()) as { message: string; retry_after: number };
    expect(body).toMatchObject({ global: true, code: 0 });
    expect(body.message).toMatch(/^You are being blocked from accessing our API temporarily/);
    expect(body.retry_after).toBeGreaterThan(599);
    expect(header(blocked, "x-ratelimit-global")).toBe("true");
    expect(Number(header(blocked, "retry-after"))).toBe(600);
    // Unknown paths are blocked too: the block is on the address, before any routing work.
    expect((await send(null, "/no/such/route")).status).toBe(429);
  });

  it("the threshold comes from RATE_LIMIT_INVALID_REQUESTS; Discord's 10,000 per 10 minutes otherwise", () => {
    expect(rateLimitOptionsFromEnv({}).invalidRequestLimit).toBe(10_000);
    expect(rateLimitOptionsFromEnv({}).invalidRequestWindowMs).toBe(600_000);
    expect(rateLimitOptionsFromEnv({ RATE_LIMIT_INVALID_REQUESTS: "5" }).invalidRequestLimit).toBe(5);
    expect(rateLimitOptionsFromEnv({ RATE_LIMIT_INVALID_REQUESTS: "-1" }).invalidRequestLimit).toBe(10_000);
  });
});

describe("RATE_LIMITS=off", () => {
  it("is read from the environment; unset means on", () => {
    expect(rateLimitOptionsFromEnv({}).enabled).toBe(true);
    expect(rateLimitOptionsFromEnv({ RATE_LIMITS: "off" }).enabled).toBe(false);
    expect(rateLimitOptionsFromEnv({ RATE_LIMITS: "on" }).enabled).toBe(true);
  });

  it("turns every limit and header off", async () => {
    const previous = process.env.RATE_LIMITS;
    process.env.RATE_LIMITS = "off";
    try {
      configureRateLimits();
      const answers = await Promise.all(Array.from({ length: 80 }, () => send(bot(), "/users/@me")));
      expect(answers.every((r) => r.status === 200)).toBe(true);
      expect(header(answers[0], "x-ratelimit-limit")).toBeNull();
    } finally {
      if (previous === undefined) delete process.env.RATE_LIMITS;
      else process.env.RATE_LIMITS = previous;
    }
  });
});

describe("@discordjs/rest against the limits", () => {
  it("a burst past a bucket completes: the client waits for the reset", async () => {
    // A client of its own: the rateLimited event is @discordjs/rest's, not the harness's lazy client's.
    const rest = new REST({ api: `${server.baseUrl}/api`, authPrefix: "Bot", retries: 0, timeout: 10_000 }).setToken(
      server.botToken,
    );
    const started = Date.now();
    const first = await send(bot(), pruneCount());
    const resetAfterMs = Number(header(first, "x-ratelimit-reset-after")) * 1000;
    const results = await Promise.all(
      Array.from({ length: 6 }, () => rest.get(Routes.guildPrune(server.world.guildId))),
    );
    expect(results).toHaveLength(6);
    for (const result of results) expect(result).toMatchObject({ pruned: expect.any(Number) });
    expect(Date.now() - started).toBeGreaterThanOrEqual(resetAfterMs);
  });

  it("answered 429 (the bucket spent by another client with the same token), it waits and then succeeds", async () => {
    for (let i = 0; i < 5; i++) await send(bot(), pruneCount());
    const probe = await send(bot(), pruneCount());
    expect(probe.status).toBe(429);
    const { retry_after: retryAfter } = (await probe.json()) as { retry_after: number };
    const rest = new REST({ api: `${server.baseUrl}/api`, authPrefix: "Bot", retries: 0, timeout: 10_000 }).setToken(
      server.botToken,
    );
    const limited: unknown[] = [];
    rest.on("rateLimited", (info) => limited.push(info));
    const started = Date.now();
    const result = await rest.get(Routes.guildPrune(server.world.guildId));
    expect(result).toMatchObject({ pruned: expect.any(Number) });
    expect(Date.now() - started).toBeGreaterThanOrEqual(retryAfter * 1000 - 50);
    expect(limited.length).toBeGreaterThan(0);
  });
});

describe("cost", () => {
  const definition = route("GET", "/guilds/:guildId", "Get Guild", () => ({ status: 200 }));
  const request = (authorization: string, ip = "10.0.0.1") =>
    ({ socket: { remoteAddress: ip }, headers: { authorization } }) as unknown as IncomingMessage;
  const matched = (guildId: string): ReturnType<Router["match"]> => ({ definition, params: { guildId } });

  it("memory stays bounded under a flood of random tokens and addresses", () => {
    const limiter = new RateLimiter({ ...DEFAULT_RATE_LIMIT_OPTIONS, maxEntries: 1_000 });
    for (let i = 0; i < 20_000; i++) {
      const admission = limiter.admit(
        request(`Bot random-${i}`, `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`),
        matched("1"),
      );
      limiter.settle(admission, { status: 401 });
    }
    expect(limiter.entries).toBeLessThanOrEqual(3_000);
  });

  it("expired windows are dropped as new requests arrive", () => {
    const limiter = new RateLimiter(DEFAULT_RATE_LIMIT_OPTIONS);
    const t0 = 1_000_000;
    for (let i = 0; i < 100; i++) limiter.admit(request(`Bot t-${i}`), matched("1"), t0);
    expect(limiter.entries).toBe(200);
    for (let i = 0; i < 200; i++) limiter.admit(request("Bot steady"), matched("1"), t0 + 2_000 + i);
    expect(limiter.entries).toBe(2);
  });
});
