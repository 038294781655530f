// The HTTP core every API class shares: URL from the configured base and version, the Authorization header,
// the audit-log reason, JSON in and out, and the failure policy:
// - 429: every request waits `retry_after` and is sent again, as often as it is refused, while its waits add up to
//   at most maxRateLimitWaitMs (each reported through onRateLimit so the UI can say "waiting N s"), as @discordjs/rest
//   does: a 429 is not a failure counted against `retries`. Several requests refused by one bucket wake together and
//   the bucket takes only some of them again; a job's eight unbans in flight must not give up after three rounds.
//   POST and PATCH too: Discord (and the built-in API) refuse a rate-limited request before doing anything, so
//   resending it cannot apply it twice, and a moderator's action never fails on a short wait. Longer waits throw
//   RateLimitError.
// - network failures and 502/503/504: idempotent requests are retried with a short backoff, others are not
//   (a POST that timed out may have happened).
// - any other non-2xx: GuildApiError with Discord's code and field paths.
import { GuildApiError, GuildApiUnreachableError, RateLimitError, type RequestDescription } from "./errors";

export type HttpMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE";

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];

/** The last argument of every API method: the audit-log reason and a cancellation signal. */
export interface RequestOptions {
  reason?: string;
  signal?: AbortSignal;
}

export interface RequestData extends RequestOptions {
  method: HttpMethod;
  /** Path under the versioned base, from Routes (e.g. /guilds/1/roles). */
  path: string;
  query?: object;
  /** JSON body. */
  body?: unknown;
  /** application/x-www-form-urlencoded body (OAuth2 endpoints); replaces `body`. */
  form?: Record<string, string | undefined>;
  /** Raw multipart body (FormData), for file uploads. */
  formData?: FormData;
  /** Send no Authorization header (public endpoints) or a specific one (HTTP Basic for OAuth2 clients). */
  auth?: false | { authorization: string };
  /** /api/oauth2/... style routes that Discord also serves unversioned; default true. */
  versioned?: boolean;
}

export interface RateLimitNotice {
  method: HttpMethod;
  path: string;
  /** Seconds. */
  retryAfter: number;
  global: boolean;
  /** True when the client is waiting and will resend; false when it gives up and throws. */
  willRetry: boolean;
}

export interface RestOptions {
  /** Base API URL without version, e.g. https://discord.com/api */
  baseUrl: string;
  version?: string;
  token?: string | null;
  authPrefix?: "Bearer" | "Bot";
  /** The longest a request sits out 429s in all (its waits added up) before it throws RateLimitError. */
  maxRateLimitWaitMs?: number;
  /** How many times an idempotent request is resent after network failures and 502/503/504 (429s: see above). */
  retries?: number;
  onRateLimit?: (notice: RateLimitNotice) => void;
  fetch?: typeof fetch;
  userAgent?: string;
  /** Per-attempt timeout. */
  timeoutMs?: number;
  /** The id of the work this call is part of, sent as X-Request-Id (the dashboard's: lib/server/request-id.ts). */
  requestId?: () => string | undefined;
}

const IDEMPOTENT: ReadonlySet<HttpMethod> = new Set(["GET", "HEAD", "PUT", "DELETE"]);
const TRANSIENT_STATUSES = new Set([502, 503, 504]);
/** What a 429's wait counts for at least, towards maxRateLimitWaitMs. */
const MIN_COUNTED_RATE_LIMIT_WAIT_MS = 50;

export function isIdempotent(method: HttpMethod): boolean {
  return IDEMPOTENT.has(method);
}

function appendQuery(url: URL, query: object | undefined): void {
  if (!query) return;
  for (const [key, value] of Object.entries(query as Record<string, QueryValue>)) {
    if (value === undefined || value === null) continue;
    url.searchParams.set(key, Array.isArray(value) ? value.join(",") : String(value));
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Seconds to wait, from the body's retry_after or the Retry-After / X-RateLimit-Reset-After headers. */
function retryAfterSeconds(response: Response, body: unknown): number {
  const fromBody =
    typeof body === "object" && body !== null ? Number((body as { retry_after?: unknown }).retry_after) : NaN;
  if (Number.isFinite(fromBody) && fromBody >= 0) return fromBody;
  for (const header of ["retry-after", "x-ratelimit-reset-after"]) {
    const value = Number(response.headers.get(header));
    if (response.headers.has(header) && Number.isFinite(value) && value >= 0) return value;
  }
  return 1;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  const type = response.headers.get("content-type") ?? "";
  if (type.includes("json")) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/** Answers that never change for a token (its user's id), per process: `${base} ${token}` → key → answer. */
const perToken = new Map<string, Map<string, Promise<unknown>>>();
/** Tokens remembered at most (a bot's one, in practice); the oldest goes first. */
const PER_TOKEN_MAX = 64;

export class RestClient {
  readonly baseUrl: string;
  readonly version: string;
  private readonly token: string | null;
  private readonly authPrefix: "Bearer" | "Bot";
  private readonly maxRateLimitWaitMs: number;
  private readonly retries: number;
  private readonly onRateLimit?: (notice: RateLimitNotice) => void;
  private readonly fetchImpl: typeof fetch;
  private readonly userAgent: string;
  private readonly timeoutMs: number;
  private readonly requestId?: () => string | undefined;

  constructor(options: RestOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.version = options.version ?? "10";
    this.token = options.token ?? null;
    this.authPrefix = options.authPrefix ?? "Bearer";
    this.maxRateLimitWaitMs = options.maxRateLimitWaitMs ?? 10_000;
    this.retries = options.retries ?? 2;
    this.onRateLimit = options.onRateLimit;
    this.fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.userAgent = options.userAgent ?? "Guildhall (https://github.com/guildhall, 0.1)";
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.requestId = options.requestId;
  }

  /**
   * `ask()`'s answer for this client's token and API, asked once per process: for what a token can never change
   * (whose it is). A failure is not kept.
   */
  oncePerToken<T>(key: string, ask: () => Promise<T>): Promise<T> {
    const tokenKey = `${this.baseUrl} ${this.token ?? ""}`;
    let answers = perToken.get(tokenKey);
    if (!answers) {
      if (perToken.size >= PER_TOKEN_MAX) perToken.delete(perToken.keys().next().value!);
      perToken.set(tokenKey, (answers = new Map()));
    }
    let answer = answers.get(key) as Promise<T> | undefined;
    if (!answer) {
      answer = ask();
      answer.catch(() => answers.delete(key));
      answers.set(key, answer);
    }
    return answer;
  }

  url(path: string, query?: object, versioned = true): URL {
    const url = new URL(`${this.baseUrl}${versioned ? `/v${this.version}` : ""}${path}`);
    appendQuery(url, query);
    return url;
  }

  async request<T>(data: RequestData): Promise<T> {
    const url = this.url(data.path, data.query, data.versioned ?? true);
    const description: RequestDescription = { method: data.method, path: data.path };
    const headers: Record<string, string> = { "user-agent": this.userAgent, accept: "application/json" };
    const requestId = this.requestId?.();
    if (requestId) headers["x-request-id"] = requestId;
    if (data.auth === undefined) {
      if (this.token) headers.authorization = `${this.authPrefix} ${this.token}`;
    } else if (data.auth) {
      headers.authorization = data.auth.authorization;
    }
    // Discord (and discord.js) send the reason URI-encoded so any Unicode survives the header.
    if (data.reason) headers["x-audit-log-reason"] = encodeURIComponent(data.reason);
    let body: BodyInit | undefined;
    if (data.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(
        Object.entries(data.form).filter((e): e is [string, string] => e[1] !== undefined),
      ).toString();
    } else if (data.formData) {
      body = data.formData;
    } else if (data.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(data.body);
    }

    const idempotent = isIdempotent(data.method);
    let rateLimitWaitMs = 0;
    for (let attempt = 0; ;) {
      let response: Response;
      const timeout = AbortSignal.timeout(this.timeoutMs);
      const signal = data.signal ? AbortSignal.any([data.signal, timeout]) : timeout;
      try {
        response = await this.fetchImpl(url, { method: data.method, headers, body, signal, cache: "no-store" });
      } catch (cause) {
        if (data.signal?.aborted) throw cause;
        if (idempotent && attempt < this.retries) {
          await sleep(200 * 2 ** attempt++, data.signal);
          continue;
        }
        throw new GuildApiUnreachableError(description, cause);
      }

      const parsed = await readBody(response);
      if (response.ok) return parsed as T;

      if (response.status === 429) {
        const retryAfter = retryAfterSeconds(response, parsed);
        const global =
          Boolean((parsed as { global?: unknown } | undefined)?.global) ||
          response.headers.get("x-ratelimit-global") === "true";
        // A wait of 0 counts as a short one, so that a bucket answering "retry now" forever is still given up on.
        rateLimitWaitMs += Math.max(retryAfter * 1000, MIN_COUNTED_RATE_LIMIT_WAIT_MS);
        const willRetry = rateLimitWaitMs <= this.maxRateLimitWaitMs;
        this.onRateLimit?.({ method: data.method, path: data.path, retryAfter, global, willRetry });
        if (!willRetry) throw new RateLimitError(parsed, retryAfter, global, description);
        await sleep(retryAfter * 1000, data.signal);
        continue;
      }
      if (TRANSIENT_STATUSES.has(response.status) && idempotent && attempt < this.retries) {
        await sleep(200 * 2 ** attempt++, data.signal);
        continue;
      }
      throw new GuildApiError(response.status, parsed, description);
    }
  }
}
