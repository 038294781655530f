// One request generator per operation of the built-in API, derived from the router's own route table (apiRoutes), so
// a new route is fuzzed as soon as it exists: its body and query come from Discord's OpenAPI description of the same
// operation, or from GUILDHALL_OPERATIONS below for Guildhall's own operations and non-JSON bodies. A route with
// neither has no generator, and the suite's coverage test names it.
import fc from "fast-check";
import { apiRoutes } from "@/lib/guild-api/routes";
import type { RouteDefinition } from "@/lib/guild-api/http";
import {
  basicAuthHeader,
  jsonBody,
  OTHER_ENCODINGS,
  revokeRequestBody,
  strayBody,
  targetUsersBody,
  tokenRequestBody,
  VALID_BODIES,
  withOtherEncodings,
} from "./bodies";
import { encodeComponent } from "./encoding";
import { HOSTILE_SNOWFLAKES, hostileText } from "./hostile";
import {
  arbitraryFor,
  jsonBodySchema,
  openApiOperation,
  queryParameters,
  type JsonSchema,
  type QueryParameter,
  type SchemaContext,
} from "./schema-arbitrary";

/** The owner's bot; the owner, a moderator and a plain member by Bearer token; a moderator's token with identify only. */
export type Caller = "bot" | "owner" | "mod" | "member" | "narrow" | "none" | "bogus";

export interface FuzzRequest {
  caller: Caller;
  method: string;
  /** Path under /api/v10, already percent-encoded. */
  path: string;
  /** Raw query string without "?", already encoded (or deliberately malformed). */
  query: string;
  body?: { text: string; contentType?: string };
  headers?: Record<string, string>;
  /** How the body was made (valid, mutated field, duplicated key, ...), for failure reports. */
  variant: string;
}

/** Ids the generators draw from: the seeded world, read from the database at start. */
export interface FuzzWorld {
  guildId: string;
  sideGuildId: string;
  applicationId: string;
  clientSecret: string;
  /** The six named users and the bot: callers and targets of read operations. */
  namedUserIds: string[];
  /** Generated members that writes (kick, ban, role changes) may target without disarming the fuzz callers. */
  expendableUserIds: string[];
  roleIds: string[];
  channelIds: string[];
  /** Members in a voice channel (targets for mute, deafen and moves) and the voice channels. */
  voiceUserIds: string[];
  voiceChannelIds: string[];
  integrationIds: string[];
  inviteCodes: string[];
  scheduledEventIds: string[];
}

export interface FuzzOperation {
  /** "METHOD /router/path" */
  key: string;
  route: RouteDefinition;
  /** Where the body and query shapes come from. */
  source: "openapi" | "guildhall";
  /** The query parameters it declares (OpenAPI or GUILDHALL_OPERATIONS). */
  queryNames: string[];
  arbitrary: fc.Arbitrary<FuzzRequest>;
}

/** Guildhall's own operations and bodies Discord's OpenAPI gives only as multipart or not at all. */
interface OperationShape {
  body?: JsonSchema;
  query?: QueryParameter[];
  /** A body encoder of its own (forms, multipart) instead of JSON. */
  customBody?: (world: FuzzWorld) => fc.Arbitrary<{ text: string; contentType?: string; variant: string }>;
  headers?: (world: FuzzWorld) => fc.Arbitrary<Record<string, string>>;
}

const snowflakeSchema: JsonSchema = { type: "string", format: "snowflake" };
const nickBody: JsonSchema = { type: "object", properties: { nick: { type: ["string", "null"], maxLength: 32 } } };

// Search Guild Members v2 is not in Discord's OpenAPI (lib/discord/member-search.ts has its community-documented shape).
const msRange: JsonSchema = {
  type: "object",
  properties: {
    range: { type: "object", properties: { gte: { type: "integer" }, lte: { type: "integer" } } },
  },
};
const idList: JsonSchema = { type: "array", items: snowflakeSchema, maxItems: 5 };
const memberSearchFilter: JsonSchema = {
  type: "object",
  properties: {
    user_id: { type: "object", properties: { or_query: idList } },
    usernames: { type: "object", properties: { or_query: { type: "array", items: { type: "string" }, maxItems: 3 } } },
    role_ids: { type: "object", properties: { and_query: idList, or_query: idList } },
    guild_joined_at: msRange,
    safety_signals: { type: "object", properties: { communication_disabled_until: msRange } },
    is_pending: { type: "boolean" },
    query: { type: "string", maxLength: 100 },
    is_bot: { type: "boolean" },
    has_no_roles: { type: "boolean" },
    user_created_at: msRange,
  },
};
const memberSearchCursor: JsonSchema = {
  type: "object",
  properties: { guild_joined_at: { type: "integer" }, user_id: snowflakeSchema, username: { type: "string" } },
};
const memberSearchBody: JsonSchema = {
  type: "object",
  properties: {
    limit: { type: "integer", minimum: 1, maximum: 1000 },
    sort: { type: "integer", minimum: 1, maximum: 6 },
    and_query: memberSearchFilter,
    or_query: memberSearchFilter,
    after: memberSearchCursor,
    before: memberSearchCursor,
  },
};

export const GUILDHALL_OPERATIONS: Record<string, OperationShape> = {
  "POST /guilds/:guildId/members-search": { body: memberSearchBody },
  "POST /oauth2/token": { customBody: tokenRequestBody, headers: basicAuthHeader },
  "POST /oauth2/token/revoke": { customBody: revokeRequestBody, headers: basicAuthHeader },
  "GET /guilds/:guildId/events": {
    query: [
      { name: "after", schema: snowflakeSchema },
      { name: "limit", schema: { type: "integer", minimum: 1, maximum: 1000 } },
    ],
  },
  "PATCH /guilds/:guildId/members/@me/nick": { body: nickBody },
  "PATCH /guilds/:guildId/members/:userId/nick": { body: nickBody },
  "POST /invites/:code": {},
  // A user's interest in a scheduled event (Discord's client routes; no body).
  "PUT /guilds/:guildId/scheduled-events/:guildScheduledEventId/users/@me": {},
  "DELETE /guilds/:guildId/scheduled-events/:guildScheduledEventId/users/@me": {},
  "PUT /guilds/:guildId/requests/@me": {},
  "PUT /invites/:code/target-users": { customBody: targetUsersBody },
};

export interface OperationCoverage {
  operations: FuzzOperation[];
  /** Routes with no generator: neither an OpenAPI operation nor a GUILDHALL_OPERATIONS entry. */
  missing: string[];
}

export function fuzzOperations(world: FuzzWorld, routes: readonly RouteDefinition[] = apiRoutes): OperationCoverage {
  const context: SchemaContext = {
    snowflakes: [world.guildId, ...world.roleIds, ...world.channelIds, ...world.namedUserIds],
  };
  const operations: FuzzOperation[] = [];
  const missing: string[] = [];
  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    const discord = openApiOperation(route.method, route.path);
    const own = GUILDHALL_OPERATIONS[key];
    if (!discord && !own) {
      missing.push(key);
      continue;
    }
    const shape: OperationShape = {
      body: own?.body ?? jsonBodySchema(discord),
      query: own?.query ?? queryParameters(discord),
      customBody: own?.customBody,
      headers: own?.headers,
    };
    operations.push({
      key,
      route,
      source: own ? "guildhall" : "openapi",
      queryNames: (shape.query ?? []).map((q) => q.name),
      arbitrary: requestArbitrary(route, shape, world, context),
    });
  }
  return { operations, missing };
}

const CALLERS = fc.oneof(
  { weight: 4, arbitrary: fc.constant<Caller>("bot") },
  { weight: 2, arbitrary: fc.constant<Caller>("owner") },
  { weight: 3, arbitrary: fc.constant<Caller>("mod") },
  { weight: 2, arbitrary: fc.constant<Caller>("member") },
  { weight: 1, arbitrary: fc.constantFrom<Caller>("narrow", "none", "bogus") },
);

function requestArbitrary(
  route: RouteDefinition,
  shape: OperationShape,
  world: FuzzWorld,
  context: SchemaContext,
): fc.Arbitrary<FuzzRequest> {
  const segments = route.path.split("/").filter(Boolean);
  const segmentArbitraries = segments.map((segment) =>
    segment.startsWith(":") ? pathParameter(segment.slice(1), route.method, world) : fc.constant(segment),
  );
  const hasBody = shape.body !== undefined || shape.customBody !== undefined;
  const body: fc.Arbitrary<{ text: string; contentType?: string; variant: string } | undefined> = shape.customBody
    ? shape.customBody(world)
    : shape.body
      ? withOtherEncodings(
          jsonBody(shape.body, context, VALID_BODIES[`${route.method} ${route.path}`]?.(world) ?? []),
          OTHER_ENCODINGS[`${route.method} ${route.path}`]?.(world),
        )
      : strayBody;
  return fc
    .record({
      caller: CALLERS,
      segments: fc.tuple(...segmentArbitraries),
      query: queryString(shape.query ?? [], context),
      body,
      headers: fc.tuple(shape.headers ? shape.headers(world) : fc.constant({}), auditReasonHeader),
    })
    .map(({ caller, segments: values, query, body: made, headers }) => ({
      caller,
      method: route.method,
      path: `/${values.join("/")}`,
      query,
      body: made ? { text: made.text, contentType: made.contentType } : undefined,
      headers: { ...headers[0], ...headers[1] },
      variant: made?.variant ?? (hasBody ? "no body" : "none"),
    }));
}

const malformedEscapes = fc.constantFrom("%", "%zz", "%E0%A4%A", "%C0%AF", "%00", "%2F", "%25", "%uD800");

function pathParameter(name: string, method: string, world: FuzzWorld): fc.Arbitrary<string> {
  const reading = method === "GET";
  const pool: Record<string, string[]> = {
    guildId: [world.guildId, world.guildId, world.guildId, world.sideGuildId],
    userId: [...(reading ? world.namedUserIds : [...world.expendableUserIds, ...world.voiceUserIds]), "@me", "%40me"],
    roleId: world.roleIds,
    channelId: [...world.channelIds, ...world.voiceChannelIds],
    integrationId: world.integrationIds,
    guildScheduledEventId: world.scheduledEventIds,
    code: world.inviteCodes,
    applicationId: [world.applicationId],
  };
  const known = pool[name] ?? [world.guildId];
  // Ids that cannot name a path segment as-is ("." and ".." are resolved by URL parsers, not sent).
  const hostile = fc
    .oneof(fc.constantFrom(...HOSTILE_SNOWFLAKES), hostileText)
    .filter((v) => v !== "" && v !== "." && v !== "..")
    .map(encodeComponent);
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...(known.length ? known : [world.guildId])) },
    { weight: 3, arbitrary: hostile },
    { weight: 1, arbitrary: malformedEscapes },
  );
}

function queryString(parameters: readonly QueryParameter[], context: SchemaContext): fc.Arbitrary<string> {
  const value = (parameter: QueryParameter) =>
    fc.oneof(
      { weight: 3, arbitrary: arbitraryFor(parameter.schema, context).map((v) => encodeComponent(String(v))) },
      { weight: 3, arbitrary: hostileText.map(encodeComponent) },
      { weight: 1, arbitrary: malformedEscapes },
    );
  const pairs = parameters.map((parameter) =>
    fc.option(
      value(parameter).map((v) => `${parameter.name}=${v}`),
      { nil: undefined, freq: 2 },
    ),
  );
  const extras = fc.oneof(
    { weight: 6, arbitrary: fc.constant<string[]>([]) },
    // Repeated names (last wins on our side), unknown names, names without "=", and an oversized value.
    { weight: 1, arbitrary: fc.constantFrom(...parameters.map((p) => p.name), "x").map((n) => [`${n}=1`, `${n}=-1`]) },
    { weight: 1, arbitrary: fc.constantFrom(["unknown=1"], ["limit"], ["=1"], ["&&"], [`q=${"a".repeat(10_000)}`]) },
  );
  return fc
    .tuple(fc.tuple(...pairs), extras)
    .map(([chosen, more]) => [...chosen.filter((p): p is string => p !== undefined), ...more].join("&"));
}

const auditReasonHeader: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { weight: 8, arbitrary: fc.constant({}) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom("%E0%A4%A", "%00", "a".repeat(2000), "%F0%9F%98%80", "reason\u00e9", encodeComponent("\ud800"))
      .map((reason) => ({ "x-audit-log-reason": reason })),
  },
);
