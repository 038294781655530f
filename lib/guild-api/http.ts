// The guild API's HTTP edge on bare node:http: a small trie router, the request context handed to
// route handlers (params, query, authentication, audit-log reason, validated bodies), and the
// translation of results and errors into responses. No Next.js on this path (see README, "Fast path").
import type { IncomingMessage, ServerResponse } from "node:http";
import type { z } from "zod";
import { ApiError, Errors, zodToApiError } from "./errors";
import { authenticate, type Identity } from "./auth";
import { rateLimiter, type Admission } from "./rate-limits";

export type AuthMode = "required" | "optional" | "none";

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

const MAX_BODY_BYTES = 16 * 1024 * 1024;
const AUDIT_REASON_MAX = 512;

export class RouteContext {
  private bodyPromise: Promise<Buffer> | null = null;

  constructor(
    readonly req: IncomingMessage,
    readonly params: Readonly<Record<string, string>>,
    readonly query: URLSearchParams,
    readonly identity: Identity | null,
    readonly baseUrl: string,
  ) {}

  /** The caller, for routes declared with auth "required". */
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

  rawBody(): Promise<Buffer> {
    this.bodyPromise ??= readBody(this.req);
    return this.bodyPromise;
  }

  /** The JSON body validated with `schema`; an absent body validates as `{}` unless the schema says otherwise. */
  async json<S extends z.ZodType>(schema: S, whenEmpty: unknown = {}): Promise<z.output<S>> {
    const buffer = await this.rawBody();
    let input: unknown = whenEmpty;
    if (buffer.length > 0) {
      try {
        input = JSON.parse(buffer.toString("utf8"));
      } catch {
        throw Errors.bad(50109, "The request body contains invalid JSON.");
      }
    }
    return parseWith(schema, input);
  }

  /** The query string as an object of strings (last value wins), validated with `schema`. */
  queryAs<S extends z.ZodType>(schema: S): z.output<S> {
    return parseWith(schema, Object.fromEntries(this.query));
  }

  /** multipart/form-data or application/x-www-form-urlencoded bodies, parsed by undici's Request. */
  async formData(): Promise<FormData> {
    const body = await this.rawBody();
    const contentType = this.req.headers["content-type"] ?? "";
    try {
      return await new Request("http://local/", {
        method: "POST",
        headers: { "content-type": contentType },
        body: new Uint8Array(body),
      }).formData();
    } catch {
      throw Errors.bad(50035, "Invalid Form Body");
    }
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

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new ApiError(413, 40005, "Request entity too large"));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

export type RouteHandler = (ctx: RouteContext) => RouteResult | Promise<RouteResult>;

export interface RouteDefinition {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Path under the version prefix, with `:name` parameters, e.g. `/guilds/:guildId/roles/:roleId`. */
  path: string;
  auth: AuthMode;
  handler: RouteHandler;
}

export function route(
  method: RouteDefinition["method"],
  path: string,
  auth: AuthMode,
  handler: RouteHandler,
): RouteDefinition {
  return { method, path, auth, handler };
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
  // Never leak internals: log the cause on the server, answer Discord's generic 500.
  console.error("[guild-api] unhandled error:", error);
  return { status: 500, json: Errors.internal().toBody() };
}

/**
 * Handles one request whose path is already stripped of the version prefix.
 * `baseUrl` is the public origin (for URLs the API returns, such as widget avatars).
 */
export async function handleApiRequest(
  router: Router,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  search: string,
  baseUrl: string,
): Promise<void> {
  const started = performance.now();
  let result: RouteResult;
  const limiter = rateLimiter();
  let admission: Admission | null = null;
  try {
    const matched = router.match(req.method ?? "GET", path);
    // Rate limits (lib/guild-api/rate-limits.ts) before anything else costs: a refused request reads no token.
    admission = limiter.admit(req, matched);
    if (admission.refused) return send(res, limiter.settle(admission, admission.refused), started);
    if (matched === "not-found") throw Errors.notFound();
    if (matched === "method-not-allowed") throw Errors.methodNotAllowed();
    const { definition, params } = matched;
    let identity: Identity | null = null;
    if (definition.auth !== "none") {
      const header = req.headers.authorization;
      if (header) {
        identity = authenticate(header);
        if (!identity && definition.auth === "required") throw Errors.unauthorized();
      } else if (definition.auth === "required") {
        throw Errors.unauthorized();
      }
    }
    const ctx = new RouteContext(req, params, new URLSearchParams(search), identity, baseUrl);
    result = await definition.handler(ctx);
  } catch (error) {
    result = errorResult(error);
  }
  if (admission) result = limiter.settle(admission, result);
  if (!res.headersSent) send(res, result, started);
}
