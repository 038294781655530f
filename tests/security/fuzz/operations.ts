// One request generator per operation of the built-in API, derived from the router's own route table (apiRoutes), so
// a new route is fuzzed as soon as it exists: its body and query come from Discord's OpenAPI description of the same
// operation, or from GUILDHALL_OPERATIONS below for Guildhall's own operations and non-JSON bodies. A route with
// neither has no generator, and the suite's coverage test names it.
import fc from "fast-check";
import { apiRoutes } from "@/lib/guild-api/routes";
import type { RouteDefinition } from "@/lib/guild-api/http";
import { HOSTILE_BODY_TEXTS, HOSTILE_SNOWFLAKES, HOSTILE_STRINGS, hostileJsonFragment, hostileText } from "./hostile";
import {
  arbitraryFor,
  jsonBodySchema,
  openApiOperation,
  queryParameters,
  resolveSchema,
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

export const GUILDHALL_OPERATIONS: Record<string, OperationShape> = {
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
  "PUT /guilds/:guildId/requests/@me": {},
  "PUT /invites/:code/target-users": { customBody: targetUsersBody },
};

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

/**
 * Bodies the built-in API accepts, per operation: the bases "one field changed at a time" starts from, so a mutated
 * field meets the operation's own rules and services instead of an unrelated validation error. Schema-generated
 * bodies (from the OpenAPI file) are used as bases too.
 */
export const VALID_BODIES: Record<string, (w: FuzzWorld) => unknown[]> = {
  "PATCH /guilds/:guildId": (w) => [
    { name: "Fuzz Guild" },
    { description: "fuzzed", verification_level: 1, preferred_locale: "en-US" },
    { afk_timeout: 300, afk_channel_id: w.voiceChannelIds[0] ?? null, system_channel_flags: 0 },
  ],
  "POST /guilds/:guildId/channels": (w) => [
    { name: "fuzz", type: 0, topic: "t", rate_limit_per_user: 0 },
    { name: "fuzz-voice", type: 2, bitrate: 64_000, user_limit: 10 },
    {
      name: "fuzz-ow",
      type: 0,
      parent_id: null,
      permission_overwrites: [{ id: w.roleIds[0], type: 0, allow: "0", deny: "1024" }],
    },
  ],
  "PATCH /guilds/:guildId/channels": (w) => [[{ id: w.channelIds[1], position: 1, lock_permissions: false }]],
  "POST /guilds/:guildId/roles": () => [{ name: "fuzz", permissions: "0", color: 0, hoist: false, mentionable: false }],
  "PATCH /guilds/:guildId/roles": (w) => [[{ id: w.roleIds[1], position: 1 }]],
  "PATCH /guilds/:guildId/roles/:roleId": () => [{ name: "renamed", permissions: "1024", color: 255 }],
  "PATCH /guilds/:guildId/members/@me": () => [{ nick: "fuzz" }],
  "PATCH /guilds/:guildId/members/@me/nick": () => [{ nick: "fuzz" }],
  "PATCH /guilds/:guildId/members/:userId/nick": () => [{ nick: "fuzz" }],
  "PATCH /guilds/:guildId/members/:userId": (w) => [
    { nick: "fuzz", roles: [w.roleIds[1]] },
    { mute: true, deaf: false, channel_id: w.voiceChannelIds[0] ?? null },
    { communication_disabled_until: inAnHour(), flags: 0 },
  ],
  "PUT /guilds/:guildId/bans/:userId": () => [{ delete_message_seconds: 3600 }, {}],
  "POST /guilds/:guildId/bulk-ban": (w) => [{ user_ids: w.expendableUserIds.slice(0, 3), delete_message_seconds: 0 }],
  "POST /guilds/:guildId/prune": (w) => [{ days: 7, compute_prune_count: true, include_roles: [w.roleIds[1]] }],
  "POST /channels/:channelId/invites": () => [{ max_age: 3600, max_uses: 5, temporary: false, unique: true }],
  "PATCH /guilds/:guildId/widget": (w) => [{ enabled: true, channel_id: w.channelIds[0] }],
  "PATCH /guilds/:guildId/welcome-screen": (w) => [
    {
      enabled: true,
      description: "hi",
      welcome_channels: [{ channel_id: w.channelIds[0], description: "rules", emoji_name: "📜" }],
    },
  ],
  "PUT /guilds/:guildId/onboarding": (w) => [
    { enabled: false, mode: 0, prompts: [], default_channel_ids: w.channelIds.slice(0, 7) },
  ],
  "PUT /guilds/:guildId/incident-actions": () => [{ invites_disabled_until: inAnHour(), dms_disabled_until: null }],
  "PATCH /applications/@me": () => [{ description: "fuzzed" }],
};

/** Encodings an operation takes besides JSON, mixed into its JSON bodies. */
const OTHER_ENCODINGS: Record<string, (w: FuzzWorld) => fc.Arbitrary<MadeBody>> = {
  "POST /channels/:channelId/invites": inviteFormBodies,
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

/** UTF-8 percent-encoding that also takes lone surrogates (encodeURIComponent throws on them). */
export function encodeComponent(value: string): string {
  let out = "";
  for (const byte of Buffer.from(value, "utf8")) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~@]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
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

type MadeBody = { text: string; contentType?: string; variant: string };
const JSON_TYPE = "application/json";
const WRONG_CONTENT_TYPES = [
  undefined,
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=fuzz",
  "multipart/form-data",
  "application/xml",
  "application/json; charset=utf-16",
  "application/json-patch+json",
];

/** JSON text of `value` with the value at `key` replaced by a raw fragment (so 2^64 stays 2^64 on the wire). */
function withRawField(value: Record<string, unknown>, key: string, fragment: string): string {
  const marker = "\u0001fuzz-raw\u0001";
  return JSON.stringify({ ...value, [key]: marker }).replace(JSON.stringify(marker), fragment);
}

function jsonBody(schema: JsonSchema, context: SchemaContext, curated: unknown[]): fc.Arbitrary<MadeBody> {
  const generated = arbitraryFor(schema, context);
  const valid = curated.length ? fc.oneof(generated, fc.constantFrom(...curated)) : generated;
  const names = fieldNamesOf(schema);
  const fieldNames = fc.constantFrom(...(names.length ? names : ["id", "name"]));
  const asObject = (v: unknown): Record<string, unknown> =>
    v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  return fc.oneof(
    { weight: 3, arbitrary: valid.map((v) => ({ text: JSON.stringify(v), contentType: JSON_TYPE, variant: "valid" })) },
    {
      // One field changed at a time: the rest of the body stays valid, so the field's own validation is reached.
      // Half the time the field is one the base body already has (its rules are then surely reached), and id fields
      // get snowflake-shaped strings half the time (out-of-range ids must be refused, not bound to SQLite).
      weight: 6,
      arbitrary: fc
        .tuple(valid, fieldNames, fc.nat(), fc.boolean(), hostileJsonFragment, hostileSnowflakeFragment)
        .map(([v, schemaKey, pick, preferSnowflake, fragment, snowflake]) => {
          const own = Object.keys(asObject(v));
          const key = own.length && pick % 2 === 0 ? own[pick % own.length] : schemaKey;
          const value = preferSnowflake && ID_FIELD.test(key) ? snowflake : fragment;
          return {
            text: Array.isArray(v) ? mutateFirstElement(v, value) : withRawField(asObject(v), key, value),
            contentType: JSON_TYPE,
            variant: `mutated field ${Array.isArray(v) ? "[0]" : key}`,
          };
        }),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(valid, fieldNames, hostileJsonFragment).map(([v, key, fragment]) => {
        const text = JSON.stringify(asObject(v));
        const inner = text.slice(1, -1);
        return {
          text: `{${inner}${inner ? "," : ""}${JSON.stringify(key)}:${fragment},${JSON.stringify(key)}:null}`,
          contentType: JSON_TYPE,
          variant: `duplicated key ${key}`,
        };
      }),
    },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(...HOSTILE_BODY_TEXTS)
        .map((text) => ({ text, contentType: JSON_TYPE, variant: "hostile JSON text" })),
    },
    {
      weight: 1,
      arbitrary: hostileJsonFragment.map((text) => ({ text, contentType: JSON_TYPE, variant: "wrong top-level type" })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(valid, fc.constantFrom(...WRONG_CONTENT_TYPES)).map(([v, contentType]) => ({
        text: JSON.stringify(v),
        contentType,
        variant: `content-type ${contentType ?? "(none)"}`,
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          valid,
          fc.dictionary(fc.constantFrom(...HOSTILE_STRINGS.filter((s) => s.length < 200), "x"), fc.jsonValue(), {
            maxKeys: 3,
          }),
        )
        .map(([v, extra]) => ({
          text: JSON.stringify({ ...extra, ...asObject(v) }),
          contentType: JSON_TYPE,
          variant: "unknown fields",
        })),
    },
  );
}

const ID_FIELD = /(^id|_id|_ids|roles|channels)$/;
const hostileSnowflakeFragment = fc.oneof(
  fc.constantFrom(...HOSTILE_SNOWFLAKES).map((id) => JSON.stringify(id)),
  fc.constantFrom(...HOSTILE_SNOWFLAKES).map((id) => JSON.stringify([id])),
);

/** An array body (positions, bulk lists) with one field of its first element, or the element itself, replaced. */
function mutateFirstElement(array: unknown[], fragment: string): string {
  const first = array[0];
  if (first && typeof first === "object" && !Array.isArray(first)) {
    const keys = Object.keys(first);
    const key = keys[fragment.length % Math.max(keys.length, 1)] ?? "id";
    return `[${withRawField(first as Record<string, unknown>, key, fragment)}${array.length > 1 ? `,${JSON.stringify(array.slice(1)).slice(1, -1)}` : ""}]`;
  }
  return JSON.stringify([...array, "\u0001x"]).replace('"\\u0001x"', fragment);
}

function fieldNamesOf(schema: JsonSchema): string[] {
  const resolved = resolveSchema(schema);
  const alternatives = (resolved.oneOf ?? resolved.anyOf) as JsonSchema[] | undefined;
  if (alternatives) return [...new Set(alternatives.flatMap(fieldNamesOf))];
  if (resolved.type === "array" && resolved.items) return fieldNamesOf(resolved.items as JsonSchema);
  return Object.keys((resolved.properties as Record<string, unknown> | undefined) ?? {});
}

/** Operations without a body still get one now and then: a body must never confuse a bodiless route. */
const strayBody: fc.Arbitrary<MadeBody | undefined> = fc.oneof(
  { weight: 8, arbitrary: fc.constant(undefined) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(...HOSTILE_BODY_TEXTS)
      .map((text) => ({ text, contentType: JSON_TYPE, variant: "stray body" })),
  },
);

const auditReasonHeader: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { weight: 8, arbitrary: fc.constant({}) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom("%E0%A4%A", "%00", "a".repeat(2000), "%F0%9F%98%80", "reason\u00e9", encodeComponent("\ud800"))
      .map((reason) => ({ "x-audit-log-reason": reason })),
  },
);

const FORM = "application/x-www-form-urlencoded";
const formText = (fields: Record<string, string | undefined>) =>
  Object.entries(fields)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([k, v]) => `${encodeComponent(k)}=${encodeComponent(v)}`)
    .join("&");

function multipart(
  parts: Array<{ name: string; filename?: string; text: string }>,
  boundary = "fuzzboundary",
): MadeBody {
  const text =
    parts
      .map(
        (p) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ""}\r\n` +
          `Content-Type: ${p.filename ? "text/csv" : "text/plain"}\r\n\r\n${p.text}\r\n`,
      )
      .join("") + `--${boundary}--\r\n`;
  return { text, contentType: `multipart/form-data; boundary=${boundary}`, variant: "multipart" };
}

function withOtherEncodings(json: fc.Arbitrary<MadeBody>, other: fc.Arbitrary<MadeBody> | undefined) {
  return other ? fc.oneof({ weight: 3, arbitrary: json }, { weight: 1, arbitrary: other }) : json;
}

/** Create Channel Invite as a form, or multipart with payload_json and a target-users file (as Discord takes it). */
function inviteFormBodies(world: FuzzWorld): fc.Arbitrary<MadeBody> {
  const value = fc.oneof(fc.constantFrom("3600", "0", "5", "true", "1", "2"), hostileText);
  const fields = fc.record(
    {
      max_age: value,
      max_uses: value,
      temporary: value,
      unique: value,
      target_type: value,
      target_user_id: fc.oneof(fc.constantFrom(...world.namedUserIds), fc.constantFrom(...HOSTILE_SNOWFLAKES)),
      role_ids: fc.oneof(fc.constantFrom(...world.roleIds), fc.constantFrom(...HOSTILE_SNOWFLAKES)),
    },
    { requiredKeys: [] },
  );
  const csv = fc
    .array(fc.oneof(fc.constantFrom(...world.expendableUserIds), fc.constantFrom(...HOSTILE_SNOWFLAKES)), {
      maxLength: 10,
    })
    .map((lines) => lines.join("\n"));
  return fc.oneof(
    fields.map((f) => ({ text: formText(f), contentType: FORM, variant: "invite form" })),
    fc
      .tuple(
        fc.oneof(
          hostileJsonFragment,
          fields.map((f) => JSON.stringify(f)),
        ),
        fc.option(csv),
      )
      .map(([payload, file]) => ({
        ...multipart([
          { name: "payload_json", text: payload },
          ...(file === null ? [] : [{ name: "target_users_file", filename: "users.csv", text: file }]),
        ]),
        variant: "invite multipart",
      })),
  );
}

function tokenRequestBody(world: FuzzWorld): fc.Arbitrary<MadeBody> {
  const field = (valid: fc.Arbitrary<string>) => fc.option(fc.oneof(valid, hostileText), { nil: undefined, freq: 3 });
  const fields = fc.record({
    grant_type: field(fc.constantFrom("authorization_code", "refresh_token", "client_credentials", "password", "")),
    code: field(fc.string({ maxLength: 40 })),
    refresh_token: field(fc.string({ maxLength: 40 })),
    redirect_uri: field(fc.constantFrom("http://localhost:3000/api/auth/callback/guildhall", "https://evil.example/")),
    code_verifier: field(fc.string({ minLength: 43, maxLength: 128 })),
    scope: field(fc.constantFrom("identify", "identify guilds", "bot", "guilds.join applications.commands", "")),
    client_id: field(fc.constant(world.applicationId)),
    client_secret: field(fc.constant(world.clientSecret)),
  });
  return formBodies(fields);
}

function revokeRequestBody(world: FuzzWorld): fc.Arbitrary<MadeBody> {
  const fields = fc.record({
    token: fc.option(fc.oneof(fc.string({ maxLength: 40 }), hostileText), { nil: undefined, freq: 4 }),
    token_type_hint: fc.option(fc.constantFrom("access_token", "refresh_token", "bogus"), { nil: undefined }),
    client_id: fc.option(fc.oneof(fc.constant(world.applicationId), hostileText), { nil: undefined, freq: 4 }),
    client_secret: fc.option(fc.oneof(fc.constant(world.clientSecret), hostileText), { nil: undefined, freq: 4 }),
  });
  return formBodies(fields);
}

function formBodies(fields: fc.Arbitrary<Record<string, string | undefined>>): fc.Arbitrary<MadeBody> {
  return fc.oneof(
    { weight: 5, arbitrary: fields.map((f) => ({ text: formText(f), contentType: FORM, variant: "form" })) },
    {
      weight: 2,
      arbitrary: fields.map((f) =>
        multipart(Object.entries(f).flatMap(([name, text]) => (text === undefined ? [] : [{ name, text }]))),
      ),
    },
    {
      weight: 1,
      arbitrary: fields.map((f) => ({
        text: JSON.stringify(f),
        contentType: JSON_TYPE,
        variant: "JSON to a form endpoint",
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom("%", "a=%zz", "=&=&", "grant_type", `scope=${"x".repeat(50_000)}`, "\u0000=\u0000")
        .map((text) => ({ text, contentType: FORM, variant: "malformed form" })),
    },
  );
}

function basicAuthHeader(world: FuzzWorld): fc.Arbitrary<Record<string, string>> {
  const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant({}) },
    { weight: 1, arbitrary: fc.constant({ authorization: basic(world.applicationId, world.clientSecret) }) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          "Basic",
          "Basic !!!",
          "Basic " + Buffer.from("nocolon").toString("base64"),
          basic("%zz", "%"),
          basic("", ""),
        )
        .map((authorization) => ({ authorization })),
    },
  );
}

function targetUsersBody(world: FuzzWorld): fc.Arbitrary<MadeBody> {
  const line = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...world.namedUserIds, ...world.expendableUserIds) },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_SNOWFLAKES) },
    { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_STRINGS.filter((s) => s.length < 200)) },
    { weight: 1, arbitrary: fc.constantFrom("user_id", '"1"', "1,2", "", " ") },
  );
  const csv = fc.array(line, { maxLength: 20 }).map((lines) => lines.join("\n"));
  return fc.oneof(
    {
      weight: 5,
      arbitrary: csv.map((text) => multipart([{ name: "target_users_file", filename: "users.csv", text }])),
    },
    { weight: 1, arbitrary: csv.map((text) => multipart([{ name: "other_field", text }])) },
    { weight: 1, arbitrary: csv.map((text) => ({ text, contentType: "text/csv", variant: "CSV without multipart" })) },
    {
      weight: 1,
      arbitrary: fc.constantFrom("--fuzzboundary\r\n", "garbage", "--x--").map((text) => ({
        text,
        contentType: "multipart/form-data; boundary=fuzzboundary",
        variant: "broken multipart",
      })),
    },
  );
}

/** The values every field of every curated body is set to, one field at a time, in the systematic pass. */
const SYSTEMATIC_FRAGMENTS = [
  '"99999999999999999999"',
  '"9223372036854775808"',
  '"-1"',
  "99999999999999999999",
  "9223372036854775808",
  "-1",
  "1e400",
  "0.5",
  "null",
  '"\\ud800"',
  '"\\u0000"',
  "[]",
  "{}",
  `"${"x".repeat(5_000)}"`,
];

/**
 * Every field of every VALID_BODIES body of `key`, set to each SYSTEMATIC_FRAGMENTS value in turn, sent by the bot to
 * real ids (a member in voice, a role below the bot's): the mutations random sampling reaches too rarely, such as an
 * out-of-range `channel_id` on a member who can be moved.
 */
export function systematicMutations(key: string, world: FuzzWorld): FuzzRequest[] {
  const bodies = VALID_BODIES[key]?.(world) ?? [];
  const [method, routePath] = key.split(" ");
  const ids: Record<string, string | undefined> = {
    guildId: world.guildId,
    userId: world.voiceUserIds.find((id) => !world.namedUserIds.includes(id)) ?? world.expendableUserIds[0],
    roleId: world.roleIds[1],
    channelId: world.channelIds[0],
    code: world.inviteCodes[0],
    applicationId: world.applicationId,
  };
  const path = routePath.replace(/:(\w+)/g, (_, name: string) => ids[name] ?? world.guildId);
  const requests: FuzzRequest[] = [];
  for (const body of bodies) {
    const fields = Array.isArray(body) ? [null] : Object.keys(body as object);
    for (const field of fields)
      for (const fragment of SYSTEMATIC_FRAGMENTS)
        requests.push({
          caller: "bot",
          method,
          path,
          query: "",
          body: {
            text:
              field === null
                ? mutateFirstElement(body as unknown[], fragment)
                : withRawField(body as Record<string, unknown>, field, fragment),
            contentType: JSON_TYPE,
          },
          variant: `systematic ${field ?? "[0]"}=${fragment.slice(0, 24)}`,
        });
  }
  return requests;
}

/** Ids every path parameter and snowflake query parameter gets in the systematic pass (out of range or not numbers). */
const SYSTEMATIC_IDS = ["-1", "9223372036854775808", "18446744073709551616", "99999999999999999999", "1e3", "%00"];

/**
 * Each path parameter, then each query parameter, set to each SYSTEMATIC_IDS value with everything else valid, sent by
 * the bot: 64-bit overflow in any id must be a 400 (or a 404), never a throw from SQLite's binding.
 */
export function systematicIds(operation: FuzzOperation, world: FuzzWorld): FuzzRequest[] {
  const { method, path: routePath } = operation.route;
  const valid: Record<string, string> = {
    guildId: world.guildId,
    userId: world.namedUserIds[0],
    roleId: world.roleIds[1],
    channelId: world.channelIds[0],
    integrationId: world.integrationIds[0] ?? world.guildId,
    code: world.inviteCodes[0] ?? "x",
    applicationId: world.applicationId,
  };
  const build = (override: Record<string, string>) =>
    routePath.replace(/:(\w+)/g, (_, name: string) => override[name] ?? valid[name] ?? world.guildId);
  const requests: FuzzRequest[] = [];
  const request = (path: string, query: string, variant: string): FuzzRequest => ({
    caller: "bot",
    method,
    path,
    query,
    variant,
    body: method === "GET" || method === "DELETE" ? undefined : { text: "{}", contentType: JSON_TYPE },
  });
  for (const [, name] of routePath.matchAll(/:(\w+)/g))
    for (const id of SYSTEMATIC_IDS) requests.push(request(build({ [name]: id }), "", `systematic :${name}=${id}`));
  for (const name of operation.queryNames)
    for (const id of SYSTEMATIC_IDS) requests.push(request(build({}), `${name}=${id}`, `systematic ?${name}=${id}`));
  return requests;
}

/** Above any body limit the API sets (16 MB today): the answer must be a JSON 413, not a reset connection. */
const OVERSIZED_BYTES = 17 * 1024 * 1024;

/** One oversized JSON body to a real target of a body-taking operation (the bench's sweep only: 17 MB each). */
export function oversizedBody(operation: FuzzOperation, world: FuzzWorld): FuzzRequest[] {
  const { method, path: routePath } = operation.route;
  if (method === "GET" || method === "DELETE") return [];
  return [
    {
      caller: "bot",
      method,
      path: routePath.replace(/:(\w+)/g, (_, name: string) =>
        name === "code" ? (world.inviteCodes[0] ?? "x") : name === "roleId" ? world.roleIds[1] : world.guildId,
      ),
      query: "",
      body: { text: `{"name":"${"x".repeat(OVERSIZED_BYTES)}"}`, contentType: JSON_TYPE },
      variant: "oversized body (17 MB)",
    },
  ];
}
