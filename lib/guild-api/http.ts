// The guild API's HTTP edge on bare node:http: a small trie router, the request context handed to
// route handlers (params, query, authentication, audit-log reason, validated bodies), and the
// translation of results and errors into responses. No Next.js on this path (see
// docs/architecture.md, "Fast path").
//
// The pipeline's order is the security rule of this file: the whole body is read (and a form parsed) first; only
// then is the token looked up and judged, and the handler runs synchronously in the same SQLite transaction as its
// write (BEGIN IMMEDIATE for every method that may write). So a caller who holds back a body and is demoted, banned
// or revoked meanwhile is judged as they are when the write happens, not as they were when the request started.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { z } from "zod";
import { judgeToken, MANAGE_SCOPE, type OperationName, type OperationPolicy } from "@/lib/discord/policies";
import { apiPolicyOf } from "./strict";
import { ApiError, Errors, zodToApiError } from "./errors";
import { authenticate, type Identity } from "./auth";
import { chain, type MaybePromise } from "./maybe-promise";
import { BODY_LIMITS, parseJson, parseMultipart, parseUrlEncoded, readBody } from "./request-body";
import { writeTransaction } from "./store/db";
import { StoreUnavailableError } from "./store/driver";
import { readScope } from "./store/read-cache";
import { rateLimiter, type Admission } from "./rate-limits";
import { recordApiRequest } from "@/lib/server/metrics";
import { withRequestId } from "@/lib/server/request-id";
import { logApiRequest } from "./request-log";
import { componentLogger } from "@/lib/server/logger";

export interface RouteResult {
  status: number;
  json?: unknown;
  body?: Buffer | string;
  contentType?: string;
  headers?: Record<string, string>;
}

export const ok = (json: unknown): RouteResult => ({ status: 200, json });
export const created = (json: unknown): RouteResult => ({ status: 201, json });
export const noContent = (): RouteResult => ({ status: 204 });

const AUDIT_REASON_MAX = 512;
const log = componentLogger("api");
const EMPTY_BODY = Buffer.alloc(0);

export class RouteContext {
  /** The caller as judged inside the handler's transaction (null for anonymous requests). */
  identity: Identity | null = null;
  /** What the route's async `prepare` step produced (see preparedRoute). */
  prepared: unknown = undefined;
  private body: Buffer | null = null;
  private form: FormData | null = null;
  private formError: unknown = null;

  constructor(
    readonly req: IncomingMessage,
    readonly params: Readonly<Record<string, string>>,
    readonly query: URLSearchParams,
    readonly baseUrl: string,
    /** The route's body limit in bytes (request-body.ts); the JSON limit unless the route declares its own. */
    readonly bodyLimit: number = BODY_LIMITS.json,
  ) {}

  /** The caller, for routes that need a token. */
  get caller(): Identity {
    if (!this.identity) throw Errors.unauthorized();
    return this.identity;
  }

  /** X-Audit-Log-Reason, URL-decoded (clients such as @discordjs/rest encode it), at most 512 characters. */
  get auditReason(): string | null {
    const raw = this.req.headers["x-audit-log-reason"];
    if (typeof raw !== "string" || raw.length === 0) return null;
    let decoded = raw;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      // not percent-encoded: keep it as sent
    }
    return decoded.slice(0, AUDIT_REASON_MAX);
  }

  /**
   * Reads the whole body within the route's limit, and parses it when it is a form, before anyone is judged. A form
   * that does not parse is remembered and thrown by formData(), in the handler's order. A request with no body and no
   * content type (every GET) has nothing to wait for: done at once, without a promise (see handleApiRequest).
   */
  readBody(): Promise<void> | undefined {
    const headers = this.req.headers;
    const bodyless = headers["content-length"] === undefined && headers["transfer-encoding"] === undefined;
    if (bodyless && headers["content-type"] === undefined) {
      this.body = EMPTY_BODY;
      return undefined;
    }
    return this.readAndParseBody(bodyless);
  }

  private async readAndParseBody(bodyless: boolean): Promise<void> {
    this.body = bodyless ? EMPTY_BODY : await readBody(this.req, this.bodyLimit);
    const type = this.contentType;
    try {
      if (type === "multipart/form-data") this.form = await parseMultipart(this.req, this.body, this.bodyLimit);
      else if (type === "application/x-www-form-urlencoded") this.form = parseUrlEncoded(this.body);
    } catch (error) {
      this.formError = error instanceof ApiError ? error : Errors.bad(50035, "Invalid Form Body");
    }
  }

  /** The body as read before the handler ran. */
  rawBody(): Buffer {
    if (!this.body) throw new Error("The request body is read by the pipeline before the handler runs.");
    return this.body;
  }

  /** The JSON body validated with `schema`; an absent body validates as `{}` unless the schema says otherwise. */
  json<S extends z.ZodType>(schema: S, whenEmpty: unknown = {}): z.output<S> {
    return parseWith(schema, parseJson(this.rawBody(), whenEmpty));
  }

  /** The query string as an object of strings (last value wins), validated with `schema`. */
  queryAs<S extends z.ZodType>(schema: S): z.output<S> {
    return parseWith(schema, Object.fromEntries(this.query));
  }

  /** multipart/form-data or application/x-www-form-urlencoded bodies, as parsed before the handler ran. */
  formData(): FormData {
    if (this.formError) throw this.formError;
    if (this.form) return this.form;
    throw Errors.bad(50035, "Invalid Form Body");
  }

  get contentType(): string {
    return (this.req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
  }
}

export function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw zodToApiError(result.error, input);
  return result.data;
}

/** Runs synchronously, inside the request's transaction: it may not await (a transaction cannot span an await). */
export type RouteHandler = (ctx: RouteContext) => MaybePromise<RouteResult>;

export interface RouteDefinition {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Path under the version prefix, with `:name` parameters, e.g. `/guilds/:guildId/roles/:roleId`. */
  path: string;
  /** The operation in lib/discord/policies.ts: who may call it is read from there. */
  operation: OperationName;
  /**
   * Asynchronous work on the read body (a CSV checked against the users table while yielding) that must finish
   * before the transaction. It sees the caller as authenticated before the transaction; the handler re-judges.
   */
  prepare?: (ctx: RouteContext) => Promise<void>;
  handler: RouteHandler;
  /** Largest body accepted, in bytes (BODY_LIMITS in request-body.ts); BODY_LIMITS.json when absent. */
  bodyLimit?: number;
  /** A POST that only reads (a search whose filters are a body): no write transaction. */
  readOnly?: boolean;
}

export function route(
  method: RouteDefinition["method"],
  path: string,
  operation: OperationName,
  handler: RouteHandler,
  options: { bodyLimit?: number; readOnly?: boolean } = {},
): RouteDefinition {
  return { method, path, operation, handler, ...options };
}

/** A route whose body needs asynchronous work first; `handler` receives its result and judges again. */
export function preparedRoute<T>(
  method: RouteDefinition["method"],
  path: string,
  operation: OperationName,
  prepare: (ctx: RouteContext) => Promise<T>,
  handler: (ctx: RouteContext, prepared: T) => RouteResult | Promise<RouteResult>,
  options: { bodyLimit?: number; readOnly?: boolean } = {},
): RouteDefinition {
  return {
    method,
    path,
    operation,
    prepare: async (ctx) => {
      ctx.prepared = await prepare(ctx);
    },
    handler: (ctx) => handler(ctx, ctx.prepared as T),
    ...options,
  };
}

interface TrieNode {
  statics: Map<string, TrieNode>;
  param: { name: string; node: TrieNode } | null;
  routes: Map<string, RouteDefinition>;
}

const newNode = (): TrieNode => ({ statics: new Map(), param: null, routes: new Map() });

/** Static segments win over parameters, so `/members/search` and `/members/@me` beat `/members/:userId`. */
export class Router {
  private readonly root = newNode();

  constructor(routes: readonly RouteDefinition[]) {
    for (const definition of routes) this.add(definition);
  }

  private add(definition: RouteDefinition): void {
    let node = this.root;
    for (const segment of definition.path.split("/").filter(Boolean)) {
      if (segment.startsWith(":")) {
        const name = segment.slice(1);
        if (node.param && node.param.name !== name) {
          throw new Error(`Route ${definition.path}: parameter :${name} conflicts with :${node.param.name}`);
        }
        node.param ??= { name, node: newNode() };
        node = node.param.node;
      } else {
        let next = node.statics.get(segment);
        if (!next) node.statics.set(segment, (next = newNode()));
        node = next;
      }
    }
    if (node.routes.has(definition.method)) throw new Error(`Duplicate route ${definition.method} ${definition.path}`);
    node.routes.set(definition.method, definition);
  }

  match(
    method: string,
    path: string,
  ): { definition: RouteDefinition; params: Record<string, string> } | "not-found" | "method-not-allowed" {
    const params: Record<string, string> = {};
    const node = this.walk(this.root, path.split("/").filter(Boolean), 0, params);
    if (!node) return "not-found";
    const definition = node.routes.get(method);
    if (!definition) return node.routes.size > 0 ? "method-not-allowed" : "not-found";
    return { definition, params };
  }

  private walk(node: TrieNode, segments: string[], index: number, params: Record<string, string>): TrieNode | null {
    if (index === segments.length) return node.routes.size > 0 ? node : null;
    const segment = segments[index];
    // Clients encode path segments (discord-api-types sends "@me" as "%40me"): match statics decoded too.
    const staticNext =
      node.statics.get(segment) ?? (segment.includes("%") ? node.statics.get(safeDecode(segment) ?? "") : undefined);
    if (staticNext) {
      const found = this.walk(staticNext, segments, index + 1, params);
      if (found) return found;
    }
    if (node.param) {
      const value = safeDecode(segment);
      if (value === null) return null;
      const found = this.walk(node.param.node, segments, index + 1, params);
      if (found) {
        params[node.param.name] = value;
        return found;
      }
    }
    return null;
  }
}

function safeDecode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

function send(res: ServerResponse, result: RouteResult, started: number): void {
  const headers: Record<string, string> = { ...result.headers };
  let body: Buffer | string | undefined = result.body;
  if (result.json !== undefined) {
    body = JSON.stringify(result.json);
    headers["content-type"] = "application/json";
  } else if (result.contentType) {
    headers["content-type"] = result.contentType;
  }
  if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
  // Server-Timing: from routing to the serialized answer (request body read included), for clients and the bench.
  headers["server-timing"] = `app;dur=${(performance.now() - started).toFixed(2)}`;
  res.writeHead(result.status, headers);
  res.end(body);
}

export function errorResult(error: unknown): RouteResult {
  if (error instanceof ApiError) {
    const headers = { ...error.headers };
    const json: Record<string, unknown> = error.toBody();
    if (error.status === 429) {
      const retryAfter = Number(headers["retry-after"] ?? 1);
      Object.assign(json, { retry_after: retryAfter, global: false });
    }
    return { status: error.status, json, headers };
  }
  if (error instanceof StoreUnavailableError) {
    log.error(error.message);
    return errorResult(Errors.unavailable());
  }
  // Never leak internals: log the cause on the server, answer Discord's generic 500.
  log.error({ err: error }, "unhandled error");
  return { status: 500, json: Errors.internal().toBody() };
}

/** Routes only anonymous callers use never look at the Authorization header (the token endpoint reads Basic there). */
const takesTokens = (policy: OperationPolicy) => policy.tokens.some((kind) => kind !== "anonymous");
const allowsAnonymous = (policy: OperationPolicy) => policy.tokens.includes("anonymous");

/** `<scheme> <token>` with something on both sides; anything else is answered 401 before the body is read. */
function looksLikeToken(header: string | undefined): header is string {
  if (!header) return false;
  const space = header.indexOf(" ");
  return space > 0 && header.slice(space + 1).trim().length > 0;
}

/**
 * The caller behind the header, judged against the operation's token kinds and scopes. Discord answers a token it
 * will not take on a route (a user's token on a bot-only route) with 401; Guildhall's management routes are
 * bot-only to Discord, so a Bearer token without the management scope gets that same answer.
 */
function identify(
  policy: OperationPolicy,
  operation: OperationName,
  header: string | undefined,
): MaybePromise<Identity | null> {
  if (!takesTokens(policy)) return null;
  if (!looksLikeToken(header)) return judgeIdentity(policy, operation, null);
  return chain(authenticate(header), (identity) => judgeIdentity(policy, operation, identity));
}

function judgeIdentity(policy: OperationPolicy, operation: OperationName, identity: Identity | null): Identity | null {
  if (!identity) {
    if (allowsAnonymous(policy)) return null;
    throw Errors.unauthorized();
  }
  const verdict = judgeToken(
    operation,
    { tokenKind: identity.kind, scopes: identity.kind === "bearer" ? identity.scopes : undefined },
    policy,
  );
  if (verdict.ok) return identity;
  if (verdict.reason === "scope" && !verdict.missingScopes.includes(MANAGE_SCOPE)) throw Errors.missingScope();
  if (verdict.reason === "token" && identity.kind === "bot") throw Errors.botsCannotUse();
  // Add Guild Member: a user's token may not add anyone, whatever its scopes (Discord's 20002). Other bot-only routes
  // (every management route on Discord's terms) answer a user's token with Discord's 401.
  if (verdict.reason === "token" && operation === "Add Guild Member") throw Errors.onlyBots();
  throw Errors.unauthorized();
}

/** Methods whose handlers may write: their judgement and write share one BEGIN IMMEDIATE transaction. */
const writes = (method: string) => method !== "GET" && method !== "HEAD";

/**
 * Handles one request whose path is already stripped of the version prefix.
 * `baseUrl` is the public origin (for URLs the API returns, such as widget avatars); `requestId` names the request on
 * its log line and on the gateway events a change writes (lib/server/request-id.ts).
 * Awaits only what it waits for: on Node 20 every promise costs the async_hooks propagation of each async-context store
 * the process has entered (lib/server/async-context.ts), and a page rendered by Next enters some.
 */
export async function handleApiRequest(
  router: Router,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  search: string,
  baseUrl: string,
  requestId: string,
): Promise<void> {
  const started = performance.now();
  let result: RouteResult;
  const limiter = rateLimiter();
  let admission: Admission | null = null;
  const matched = router.match(req.method ?? "GET", path);
  const operationName = typeof matched === "string" ? "unmatched" : matched.definition.operation;
  try {
    // Rate limits (lib/guild-api/rate-limits.ts) before anything else costs: a refused request reads no token.
    // The per-instance limiter answers at once; the Redis-shared one after a round trip (no await, no extra tick, when
    // there is nothing to wait for).
    const admitted = limiter.admit(req, matched);
    admission = admitted instanceof Promise ? await admitted : admitted;
    if (admission.refused) {
      const refused = limiter.settle(admission, admission.refused);
      return answer(
        req,
        res,
        refused instanceof Promise ? await refused : refused,
        operationName,
        started,
        requestId,
        matched,
      );
    }
    if (matched === "not-found") throw Errors.notFound();
    if (matched === "method-not-allowed") throw Errors.methodNotAllowed();
    const { definition, params } = matched;
    const operation = definition.operation;
    // Strict mode routes only Discord's operations (routes/index.ts), so every matched one has a policy.
    const policy = apiPolicyOf(operation)!;
    const header = req.headers.authorization;
    // No token, or garbage where one should be: refused before the body is waited for.
    if (takesTokens(policy) && !allowsAnonymous(policy) && !looksLikeToken(header)) throw Errors.unauthorized();

    const ctx = new RouteContext(req, params, new URLSearchParams(search), baseUrl, definition.bodyLimit);
    const write = writes(definition.method) && !definition.readOnly;
    // A token that is already unknown or under-scoped is refused before its body is read; it is judged again below.
    if (write) {
      const refusedEarly = identify(policy, operation, header);
      if (refusedEarly instanceof Promise) await refusedEarly;
    }
    const reading = ctx.readBody();
    if (reading) await reading;
    if (definition.prepare) {
      ctx.identity = await identify(policy, operation, header);
      await definition.prepare(ctx);
    }
    // One read scope (store/read-cache.ts): the judgement and the handler read the cached rows as of one moment, inside
    // the write transaction when there is one. A read whose rows are all cached answers without a promise.
    const judgeAndRun = (): MaybePromise<RouteResult> =>
      readScope(() =>
        chain(identify(policy, operation, header), (identity) => {
          ctx.identity = identity;
          return definition.handler(ctx);
        }),
      );
    // A change runs under its request's id: the outbox rows it writes keep it (events.ts).
    if (write) result = await withRequestId(requestId, () => writeTransaction(async () => judgeAndRun()));
    else {
      const answer = judgeAndRun();
      result = answer instanceof Promise ? await answer : answer;
    }
  } catch (error) {
    result = errorResult(error);
  }
  if (admission) {
    const settled = limiter.settle(admission, result);
    result = settled instanceof Promise ? await settled : settled;
  }
  if (!res.headersSent) answer(req, res, result, operationName, started, requestId, matched);
}

/** Sends the answer, counts it in the process's metrics (lib/server/metrics.ts) and logs it (request-log.ts). */
function answer(
  req: IncomingMessage,
  res: ServerResponse,
  result: RouteResult,
  operation: string,
  started: number,
  requestId: string,
  matched?: ReturnType<Router["match"]>,
): void {
  send(res, result, started);
  const seconds = (performance.now() - started) / 1000;
  recordApiRequest(operation, result.status, seconds);
  const guildId = typeof matched === "object" ? matched.params.guildId : undefined;
  logApiRequest(requestId, operation, req.method, result.status, seconds, guildId);
}
