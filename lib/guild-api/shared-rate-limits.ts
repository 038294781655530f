// Discord's rate limits shared by every Guildhall instance through Redis (REDIS_URL). The rules are rate-limits.ts's
// (the same buckets, windows, headers and 429 bodies); only the counters move: each request's checks and increments
// of the IP block, the caller's global window and the route's bucket run as one Lua script, so two instances can
// never both admit the last request of a window. Windows are Redis keys with a millisecond expiry set by the first
// request, as the per-instance tables open theirs, so instances agree on when a window ends without sharing clocks.
//
// Redis must never stall the API: a command that takes longer than REDIS_RATE_LIMIT_TIMEOUT_MS (default 250 ms), or
// any request while the connection is down, is judged by this instance's own tables instead, and so is every request
// for a second (at least four timeouts) after such a failure: a hung Redis then costs one timeout a second, not one
// per request. The switch
// either way is logged once. Commands are never queued while disconnected.
import type { IncomingMessage } from "node:http";
import { createClient, type RedisClientType } from "redis";
import type { RouteResult, Router } from "./http";
import { assertOutsideTransaction } from "./store/db";
import {
  bucketHeaders,
  callerKey,
  installRateLimiter,
  refusal,
  routeLimitOf,
  type Admission,
  type ApiRateLimiter,
  type RateLimiter,
  type RateLimitOptions,
} from "./rate-limits";
import { clientAddress } from "@/lib/server/client-ip";
import { componentLogger } from "@/lib/server/logger";

const log = componentLogger("rate-limits");

const DEFAULT_TIMEOUT_MS = 250;
/**
 * After a failed or timed-out command, how long requests skip Redis before one tries it again: a second, and always
 * several timeouts, so a hung Redis delays a small share of requests however long the timeout.
 */
const skipAfterFailureMs = (timeoutMs: number) => Math.max(1_000, 4 * timeoutMs);
const KEY_PREFIX = "guildhall:rate-limits:";

/**
 * KEYS: the IP's invalid-request counter, the caller's global window, the route bucket's window.
 * ARGV: invalid-request limit, global limit per second, the bucket's limit, the bucket's window (ms), "1" when a
 * route matched (else only the IP block applies).
 * Returns {verdict, ms left of the IP block or the global window, the bucket's count before this request, ms left of
 * the bucket's window}; verdict 0 admitted, 1 IP blocked, 2 global limit, 3 bucket spent. A refused request counts
 * nowhere, as in the per-instance tables.
 */
const ADMIT_SCRIPT = `
local blocked = tonumber(redis.call('GET', KEYS[1]) or '0')
if blocked >= tonumber(ARGV[1]) then return {1, redis.call('PTTL', KEYS[1]), 0, 0} end
if ARGV[5] ~= '1' then return {0, 0, 0, 0} end
local function window(key, ms)
  local ttl = redis.call('PTTL', key)
  if ttl < 0 then return 0, ms end
  return tonumber(redis.call('GET', key)), ttl
end
local bucketWindow = tonumber(ARGV[4])
local globalCount, globalTtl = window(KEYS[2], 1000)
local bucketCount, bucketTtl = window(KEYS[3], bucketWindow)
if globalCount >= tonumber(ARGV[2]) then return {2, globalTtl, bucketCount, bucketTtl} end
if globalCount == 0 then redis.call('SET', KEYS[2], 1, 'PX', 1000) else redis.call('INCR', KEYS[2]) end
if bucketCount >= tonumber(ARGV[3]) then return {3, globalTtl, bucketCount, bucketTtl} end
if bucketCount == 0 then redis.call('SET', KEYS[3], 1, 'PX', bucketWindow) else redis.call('INCR', KEYS[3]) end
return {0, globalTtl, bucketCount, bucketTtl}
`;

/**
 * KEYS: the IP's invalid-request counter. ARGV: the limit, the window (ms). Reaching the limit blocks the address
 * for a whole window from now, as in the per-instance table.
 */
const INVALID_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 or count == tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return count
`;

type Verdict = [number, number, number, number];

/** Where Redis is, for logs: host and port only (the URL may carry a password). */
function describe(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || "6379"}`;
  } catch {
    return "REDIS_URL";
  }
}

export class SharedRateLimiter implements ApiRateLimiter {
  readonly options: RateLimitOptions;
  private readonly scripts = new Map<string, string>();
  private degraded = false;
  private skipUntil = 0;

  constructor(
    private readonly client: RedisClientType,
    /** This instance's own tables: the limits while Redis is away. */
    private readonly local: RateLimiter,
    private readonly where: string,
    private readonly timeoutMs: number,
  ) {
    this.options = local.options;
    client.on("error", (error: Error) => this.fallBack(error));
    // A new connection is worth trying at once; its first answer ends the fallback (recovered()).
    client.on("ready", () => (this.skipUntil = 0));
  }

  admit(req: IncomingMessage, matched: ReturnType<Router["match"]>, now = Date.now()): Admission | Promise<Admission> {
    if (!this.shared(now)) return this.local.admit(req, matched, now);
    const ip = clientAddress(req) || "unknown";
    const route = typeof matched === "string" ? null : matched;
    const limit = route ? routeLimitOf(route.definition) : null;
    const caller = callerKey(req.headers.authorization, ip);
    const major = route && limit?.majorParameter ? (route.params[limit.majorParameter] ?? "") : "";
    const keys = [
      `${KEY_PREFIX}invalid:${ip}`,
      `${KEY_PREFIX}global:${caller}`,
      `${KEY_PREFIX}bucket:${limit?.bucket ?? ""}:${major}:${caller}`,
    ];
    const args = [
      String(this.options.invalidRequestLimit),
      String(this.options.globalPerSecond),
      String(limit?.family.limit ?? 0),
      String(limit?.family.windowMs ?? 0),
      route ? "1" : "0",
    ];
    return this.run(ADMIT_SCRIPT, keys, args).then(
      (reply) => {
        this.recovered();
        const [verdict, blockOrGlobalMs, bucketCount, bucketMs] = (reply as number[]).map(Number) as Verdict;
        const admission: Admission = { ip, headers: null, refused: null };
        if (verdict === 1) {
          admission.refused = refusal("invalid_requests", blockOrGlobalMs, {});
          return admission;
        }
        if (!limit) return admission;
        const headers = bucketHeaders(limit, bucketCount, now + bucketMs, now);
        admission.headers = headers;
        if (verdict === 2) admission.refused = refusal("global", blockOrGlobalMs, headers);
        if (verdict === 3) admission.refused = refusal("route", bucketMs, headers);
        return admission;
      },
      (error: unknown) => {
        this.fallBack(error);
        return this.local.admit(req, matched, now);
      },
    );
  }

  settle(admission: Admission, result: RouteResult, now = Date.now()): RouteResult | Promise<RouteResult> {
    const { status } = result;
    const invalid =
      status === 401 || status === 403 || (status === 429 && result.headers?.["x-ratelimit-scope"] !== "shared");
    if (!invalid || !this.shared(now)) return this.local.settle(admission, result, now);
    const withHeaders =
      !admission.headers || admission.refused === result
        ? result
        : { ...result, headers: { ...admission.headers, ...result.headers } };
    // Counted before the answer leaves, so the address's next request, to any instance, already sees it.
    return this.run(
      INVALID_SCRIPT,
      [`${KEY_PREFIX}invalid:${admission.ip}`],
      [String(this.options.invalidRequestLimit), String(this.options.invalidRequestWindowMs)],
    ).then(
      () => {
        this.recovered();
        return withHeaders;
      },
      (error: unknown) => {
        this.fallBack(error);
        return this.local.settle(admission, result, now);
      },
    );
  }

  /**
   * One script run, given up after the timeout. The client's own command timeout covers only the wait to be written,
   * not the wait for the answer, so a Redis that hangs with its connection open would stall the request without this.
   */
  private run(script: string, keys: string[], args: string[]): Promise<unknown> {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer in ${this.timeoutMs} ms`)), this.timeoutMs);
    });
    return Promise.race([this.evaluate(script, keys, args), expired]).finally(() => clearTimeout(timer));
  }

  /** EVALSHA, loading the script on first use or after Redis forgot it (a restart). */
  private async evaluate(script: string, keys: string[], args: string[]): Promise<unknown> {
    assertOutsideTransaction("A Redis round trip");
    let sha = this.scripts.get(script);
    if (!sha) {
      sha = await this.client.scriptLoad(script);
      this.scripts.set(script, sha);
    }
    try {
      return await this.client.evalSha(sha, { keys, arguments: args });
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
      this.scripts.delete(script);
      return this.evaluate(script, keys, args);
    }
  }

  private shared(now: number): boolean {
    return this.options.enabled && this.client.isReady && now >= this.skipUntil;
  }

  private recovered(): void {
    if (!this.degraded) return;
    this.degraded = false;
    log.warn(`Redis at ${this.where} answers again: rate limits are shared by every instance.`);
  }

  /** Logged (once, like any failure) when Redis has not answered by the time the server starts listening. */
  notConnectedYet(waitedMs: number): void {
    this.fallBack(new Error(`not connected after ${waitedMs} ms`));
  }

  private fallBack(error: unknown): void {
    this.skipUntil = Date.now() + skipAfterFailureMs(this.timeoutMs);
    if (this.degraded) return;
    this.degraded = true;
    const reason = error instanceof Error ? error.message : String(error);
    log.warn(`Redis at ${this.where} is unreachable (${reason}): rate limits are per instance until it answers.`);
  }

  async close(): Promise<void> {
    if (this.client.isOpen) await this.client.close();
    else this.client.destroy();
  }
}

export interface SharedRateLimits {
  /** Resolves once Redis answers, or after `withinMs` (false): the server waits this long before it listens. */
  connected(withinMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/** How long a starting server waits for Redis before it listens (and judges per instance until Redis answers). */
export const REDIS_STARTUP_WAIT_MS = 2_000;

/**
 * With a Redis URL, shares the process's rate limits through Redis from now on (`local`, the per-instance limiter
 * configured at start, judges while Redis is away) and returns the handle that closes the connection; without one,
 * leaves `local` in place. The connection opens in the background; until it is ready each request is judged by
 * `local`, which is why the server awaits `connected()` before it takes requests.
 */
export function shareRateLimits(
  url: string | undefined,
  local: RateLimiter,
  env: Readonly<Record<string, string | undefined>> = process.env,
): SharedRateLimits | null {
  if (!url) return null;
  const timeout =
    Number(env.REDIS_RATE_LIMIT_TIMEOUT_MS) > 0 ? Number(env.REDIS_RATE_LIMIT_TIMEOUT_MS) : DEFAULT_TIMEOUT_MS;
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 2_000,
      // Keep trying for as long as the server runs, at most every 2 s.
      reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 2_000),
    },
  }) as RedisClientType;
  const shared = new SharedRateLimiter(client, local, describe(url), timeout);
  installRateLimiter(shared);
  // A refused first connection is an "error" event (logged once by the limiter); the client keeps retrying.
  const ready = client.connect().then(
    () => true,
    () => false,
  );
  return {
    connected: (withinMs) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), withinMs)));
      return Promise.race([ready, late]).then((answered) => {
        clearTimeout(timer);
        if (!answered) shared.notConnectedYet(withinMs);
        return answered;
      });
    },
    close: () => shared.close(),
  };
}
