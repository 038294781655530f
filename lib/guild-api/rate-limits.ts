// Discord's rate limits for the built-in guild API (https://discord.com/developers/docs/topics/rate-limits):
// - per-route buckets: one counter per route family + top-level resource (guild or channel id, as Discord does) +
//   caller (the token; the IP address for requests without one), with the X-RateLimit-* headers on every answer;
// - the global limit: 50 requests per second per caller, whatever the route;
// - the invalid-request limit: an IP answered too many 401/403/429 in 10 minutes is refused everything for the rest
//   of those 10 minutes (Discord's Cloudflare ban; here a JSON 429 with the global flag, so clients stop entirely).
// Counters are fixed windows that start with a caller's first request, as Discord's buckets do (Reset and
// Reset-After say when the window ends). Each table is a Map kept in window-start order: a request touches its own
// entries and drops at most a few expired ones from the head, and a full table evicts its oldest entry, so memory
// stays bounded under a flood of random tokens or addresses and each request costs O(1).
// `RATE_LIMITS=off` turns all of it off (benchmarks); unset means on.
// These tables are per process. With REDIS_URL set, shared-rate-limits.ts keeps the same counters in Redis instead,
// so several instances behind one load balancer enforce one limit, and falls back to these tables while Redis is away.
import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { RouteDefinition, RouteResult, Router } from "./http";
import { clientAddress } from "@/lib/server/client-ip";
import { recordRateLimitRefusal, type RateLimitRefusal } from "@/lib/server/metrics";

export interface RateLimitOptions {
  enabled: boolean;
  /** Requests per second per caller over all routes (Discord: 50). */
  globalPerSecond: number;
  /** 401, 403 and (non-shared) 429 answers an IP may collect per window before it is refused (Discord: 10,000). */
  invalidRequestLimit: number;
  invalidRequestWindowMs: number;
  /** Most entries each table keeps; past it the oldest is evicted. */
  maxEntries: number;
}

export const DEFAULT_RATE_LIMIT_OPTIONS: RateLimitOptions = {
  enabled: true,
  globalPerSecond: 50,
  invalidRequestLimit: 10_000,
  invalidRequestWindowMs: 10 * 60 * 1000,
  maxEntries: 100_000,
};

/** The options from the environment: RATE_LIMITS=off disables; RATE_LIMIT_INVALID_REQUESTS lowers the IP threshold. */
export function rateLimitOptionsFromEnv(
  env: Readonly<Record<string, string | undefined>> = process.env,
): RateLimitOptions {
  const invalid = Number(env.RATE_LIMIT_INVALID_REQUESTS);
  return {
    ...DEFAULT_RATE_LIMIT_OPTIONS,
    enabled: !["off", "false", "0"].includes((env.RATE_LIMITS ?? "").trim().toLowerCase()),
    ...(Number.isInteger(invalid) && invalid > 0 ? { invalidRequestLimit: invalid } : {}),
  };
}

interface RouteFamily {
  name: string;
  limit: number;
  windowMs: number;
}

/**
 * Route families and their limits. Discord publishes no fixed numbers (clients must read the headers), so these
 * follow what it answers in practice: reads are cheap and bounded mostly by the global limit; writes are tighter;
 * the operations that touch many rows at once (bulk ban, prune, reordering roles or channels, target-user CSVs) are
 * the strictest. The dashboard's heaviest path (a bulk-ban preview reading ~900 bans and members, 8 in flight) is
 * bound by the global 50/s, and its client waits on 429s.
 */
const FAMILIES = {
  read: { name: "read", limit: 40, windowMs: 1_000 },
  write: { name: "write", limit: 20, windowMs: 1_000 },
  bulkBan: { name: "bulk-ban", limit: 2, windowMs: 5_000 },
  pruneCount: { name: "prune-count", limit: 5, windowMs: 5_000 },
  prune: { name: "prune", limit: 1, windowMs: 5_000 },
  positions: { name: "positions", limit: 5, windowMs: 5_000 },
  targetUsers: { name: "target-users", limit: 5, windowMs: 10_000 },
} satisfies Record<string, RouteFamily>;

const SPECIAL_FAMILIES: Record<string, RouteFamily> = {
  "POST /guilds/:guildId/bulk-ban": FAMILIES.bulkBan,
  "GET /guilds/:guildId/prune": FAMILIES.pruneCount,
  "POST /guilds/:guildId/prune": FAMILIES.prune,
  "PATCH /guilds/:guildId/roles": FAMILIES.positions,
  "PATCH /guilds/:guildId/channels": FAMILIES.positions,
  "PUT /invites/:code/target-users": FAMILIES.targetUsers,
  // A search sent as POST (its filters are a body) is a read.
  "POST /guilds/:guildId/members-search": FAMILIES.read,
};

/** Discord's top-level resources: a route's limit is counted per guild or channel it names. */
const MAJOR_PARAMETERS = ["guildId", "channelId", "webhookId"] as const;

export interface RouteLimit {
  family: RouteFamily;
  /** X-RateLimit-Bucket: opaque, stable per route (method and path, not the ids in it). */
  bucket: string;
  majorParameter: (typeof MAJOR_PARAMETERS)[number] | null;
}

const routeLimits = new WeakMap<RouteDefinition, RouteLimit>();

export function routeLimitOf(definition: RouteDefinition): RouteLimit {
  let found = routeLimits.get(definition);
  if (!found) {
    const key = `${definition.method} ${definition.path}`;
    const family = SPECIAL_FAMILIES[key] ?? (definition.method === "GET" ? FAMILIES.read : FAMILIES.write);
    found = {
      family,
      bucket: createHash("sha256").update(`guildhall-bucket:${key}`).digest("hex").slice(0, 32),
      majorParameter: MAJOR_PARAMETERS.find((name) => definition.path.includes(`/:${name}`)) ?? null,
    };
    routeLimits.set(definition, found);
  }
  return found;
}

interface Window {
  count: number;
  resetAt: number;
}

/** Fixed windows by key, in window-start order, with O(1) expiry and a size cap. */
class WindowTable {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly maxEntries: number) {}

  get size(): number {
    return this.windows.size;
  }

  /** The live window for `key`, opening a new one when none is running. */
  current(key: string, windowMs: number, now: number): Window {
    this.dropExpired(now);
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      // Re-inserted so the Map's order stays window-start order, which the head sweep relies on.
      if (window) this.windows.delete(key);
      else if (this.windows.size >= this.maxEntries) this.windows.delete(this.windows.keys().next().value!);
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
    }
    return window;
  }

  peek(key: string, now: number): Window | null {
    const window = this.windows.get(key);
    return window && window.resetAt > now ? window : null;
  }

  /** At most two expired entries from the head per call: enough to keep up, never a long pause. */
  private dropExpired(now: number): void {
    for (let i = 0; i < 2; i++) {
      const head = this.windows.entries().next();
      if (head.done || head.value[1].resetAt > now) return;
      this.windows.delete(head.value[0]);
    }
  }
}

export type RateLimitScope = "user" | "global" | "shared";

/** What `admit` decided for one request: the bucket headers to send, or the 429 to answer instead. */
export interface Admission {
  ip: string;
  headers: Record<string, string> | null;
  refused: RouteResult | null;
}

export const RATE_LIMITED = "You are being rate limited.";
export const IP_BLOCKED =
  "You are being blocked from accessing our API temporarily due to exceeding global rate limits. Refer to https://discord.com/developers/docs/topics/rate-limits for more information.";

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** The X-RateLimit-* headers of a request counted as the `count + 1`th in a bucket window that ends at `resetAt`. */
export function bucketHeaders(limit: RouteLimit, count: number, resetAt: number, now: number): Record<string, string> {
  const remaining = Math.max(0, limit.family.limit - count - 1);
  return {
    "x-ratelimit-limit": String(limit.family.limit),
    "x-ratelimit-remaining": String(count >= limit.family.limit ? 0 : remaining),
    "x-ratelimit-reset": seconds(resetAt),
    "x-ratelimit-reset-after": seconds(resetAt - now),
    "x-ratelimit-bucket": limit.bucket,
  };
}

/**
 * What the API's request handler asks of a limiter. The per-instance RateLimiter below answers at once; the shared
 * one (shared-rate-limits.ts) answers after a round trip to Redis, hence the promises.
 */
export interface ApiRateLimiter {
  readonly options: RateLimitOptions;
  admit(req: IncomingMessage, matched: ReturnType<Router["match"]>, now?: number): Admission | Promise<Admission>;
  settle(admission: Admission, result: RouteResult, now?: number): RouteResult | Promise<RouteResult>;
}

export class RateLimiter implements ApiRateLimiter {
  readonly options: RateLimitOptions;
  private readonly buckets: WindowTable;
  private readonly globals: WindowTable;
  private readonly invalid: WindowTable;

  constructor(options: Partial<RateLimitOptions> = {}) {
    this.options = { ...DEFAULT_RATE_LIMIT_OPTIONS, ...options };
    this.buckets = new WindowTable(this.options.maxEntries);
    this.globals = new WindowTable(this.options.maxEntries);
    this.invalid = new WindowTable(this.options.maxEntries);
  }

  /** Entries held, for tests of the memory bound. */
  get entries(): number {
    return this.buckets.size + this.globals.size + this.invalid.size;
  }

  /**
   * Counts one request against the IP's invalid-request state, the caller's global window and the route's bucket.
   * Paths no route matches only meet the IP block.
   */
  admit(req: IncomingMessage, matched: ReturnType<Router["match"]>, now = Date.now()): Admission {
    const ip = clientAddress(req) || "unknown";
    const admission: Admission = { ip, headers: null, refused: null };
    if (!this.options.enabled) return admission;

    const blocked = this.invalid.peek(ip, now);
    if (blocked && blocked.count >= this.options.invalidRequestLimit) {
      admission.refused = refusal("invalid_requests", blocked.resetAt - now, {});
      return admission;
    }
    if (typeof matched === "string") return admission;
    const { definition, params } = matched;

    const caller = callerKey(req.headers.authorization, ip);
    const limit = routeLimitOf(definition);
    const major = limit.majorParameter ? (params[limit.majorParameter] ?? "") : "";
    const bucket = this.buckets.current(`${limit.bucket}:${major}:${caller}`, limit.family.windowMs, now);
    const headers = bucketHeaders(limit, bucket.count, bucket.resetAt, now);
    admission.headers = headers;

    const global = this.globals.current(caller, 1_000, now);
    if (global.count >= this.options.globalPerSecond) {
      admission.refused = refusal("global", global.resetAt - now, headers);
      return admission;
    }
    global.count++;
    if (bucket.count >= limit.family.limit) {
      admission.refused = refusal("route", bucket.resetAt - now, headers);
      return admission;
    }
    bucket.count++;
    return admission;
  }

  /** Adds the bucket headers to the answer and counts 401, 403 and non-shared 429 answers against the IP. */
  settle(admission: Admission, result: RouteResult, now = Date.now()): RouteResult {
    if (!this.options.enabled) return result;
    const { status } = result;
    if (status === 401 || status === 403 || (status === 429 && result.headers?.["x-ratelimit-scope"] !== "shared")) {
      const window = this.invalid.current(admission.ip, this.options.invalidRequestWindowMs, now);
      // Reaching the threshold blocks the address for a whole window from now, not just what is left of this one.
      if (++window.count === this.options.invalidRequestLimit)
        window.resetAt = now + this.options.invalidRequestWindowMs;
    }
    if (!admission.headers || admission.refused === result) return result;
    return { ...result, headers: { ...admission.headers, ...result.headers } };
  }
}

/**
 * The caller a counter belongs to: the token (hashed, so a flood of long random headers costs a fixed-size key and
 * no secret sits in the tables), or the IP for requests without one, as Discord applies limits to unauthenticated
 * requests by address.
 */
export function callerKey(authorization: string | undefined, ip: string): string {
  if (!authorization) return `ip:${ip}`;
  return `t:${createHash("sha256").update(authorization).digest("base64url").slice(0, 22)}`;
}

/**
 * The 429 for a request the `refusedBy` limit refuses (a route's bucket, the caller's global limit, or the address's
 * block for invalid requests), counted in guildhall_rate_limit_refusals_total: every rate-limit answer is made here.
 */
export function refusal(
  refusedBy: RateLimitRefusal,
  waitMs: number,
  bucketHeaders: Record<string, string>,
): RouteResult {
  recordRateLimitRefusal(refusedBy);
  if (refusedBy === "route") return tooManyRequests(waitMs, "user", RATE_LIMITED, bucketHeaders);
  return tooManyRequests(waitMs, "global", refusedBy === "global" ? RATE_LIMITED : IP_BLOCKED, bucketHeaders);
}

/** Discord's 429: JSON {message, retry_after, global, code} with Retry-After and the scope headers. */
export function tooManyRequests(
  waitMs: number,
  scope: RateLimitScope,
  message: string,
  bucketHeaders: Record<string, string>,
): RouteResult {
  const retryAfter = Math.max(0.001, Math.ceil(waitMs) / 1000);
  const global = scope === "global";
  const headers: Record<string, string> = {
    ...bucketHeaders,
    // Retry-After is whole seconds (RFC 9110, and Discord's example); the body's retry_after keeps the milliseconds.
    "retry-after": String(Math.ceil(retryAfter)),
    "x-ratelimit-scope": scope,
    // Discord's API answers pass its load balancer, which adds Via; a 429 without it is a Cloudflare ban to
    // discord.py, which then raises instead of waiting (discord/http.py: `if not response.headers.get('Via')`).
    via: "1.1 guildhall",
  };
  if (global) headers["x-ratelimit-global"] = "true";
  // A spent bucket says so; a global refusal leaves the route's own count as it is.
  if (scope === "user") headers["x-ratelimit-remaining"] = "0";
  // The spec's RatelimitedResponse requires `code`; Discord sends 0 on its own rate-limit answers.
  return { status: 429, json: { message, retry_after: retryAfter, global, code: 0 }, headers };
}

let limiter: ApiRateLimiter = new RateLimiter(rateLimitOptionsFromEnv());

/** The process's limiter (one per server process; integration tests run one server per file). */
export function rateLimiter(): ApiRateLimiter {
  return limiter;
}

/** Replaces the limiter: the server calls it at start with the environment's options and any overrides. */
export function configureRateLimits(options: Partial<RateLimitOptions> = {}): RateLimiter {
  const local = new RateLimiter({ ...rateLimitOptionsFromEnv(), ...options });
  limiter = local;
  return local;
}

/** Puts another limiter in front (the Redis-shared one, which keeps a RateLimiter for when Redis is away). */
export function installRateLimiter(replacement: ApiRateLimiter): void {
  limiter = replacement;
}
