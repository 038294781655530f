// Request bodies: curated valid bodies per operation (the bases of "one field changed at a time"), JSON bodies built
// from Discord's OpenAPI schemas and then broken (a mutated field, a duplicated key, invalid JSON, a wrong top-level
// type, a wrong content type, unknown fields), and the non-JSON encodings some operations take (forms, multipart).
import fc from "fast-check";
import { encodeComponent } from "./encoding";
import { HOSTILE_BODY_TEXTS, HOSTILE_SNOWFLAKES, HOSTILE_STRINGS, hostileJsonFragment, hostileText } from "./hostile";
import { arbitraryFor, resolveSchema, type JsonSchema, type SchemaContext } from "./schema-arbitrary";
import type { FuzzWorld } from "./operations";

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
  "POST /guilds/:guildId/members-search": (w) => [
    {
      limit: 10,
      sort: 1,
      and_query: { guild_joined_at: { range: { gte: 0 } }, role_ids: { or_query: [w.roleIds[1]] } },
    },
    {
      limit: 5,
      sort: 5,
      after: { user_id: w.namedUserIds[0], username: "a" },
      or_query: { query: "ab", is_bot: false },
    },
  ],
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
export const OTHER_ENCODINGS: Record<string, (w: FuzzWorld) => fc.Arbitrary<MadeBody>> = {
  "POST /channels/:channelId/invites": inviteFormBodies,
};

export type MadeBody = { text: string; contentType?: string; variant: string };
export const JSON_TYPE = "application/json";
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
export function withRawField(value: Record<string, unknown>, key: string, fragment: string): string {
  const marker = "\u0001fuzz-raw\u0001";
  return JSON.stringify({ ...value, [key]: marker }).replace(JSON.stringify(marker), () => fragment);
}

export function jsonBody(schema: JsonSchema, context: SchemaContext, curated: unknown[]): fc.Arbitrary<MadeBody> {
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
export function mutateFirstElement(array: unknown[], fragment: string): string {
  const first = array[0];
  if (first && typeof first === "object" && !Array.isArray(first)) {
    const keys = Object.keys(first);
    const key = keys[fragment.length % Math.max(keys.length, 1)] ?? "id";
    return `[${withRawField(first as Record<string, unknown>, key, fragment)}${array.length > 1 ? `,${JSON.stringify(array.slice(1)).slice(1, -1)}` : ""}]`;
  }
  return JSON.stringify([...array, "\u0001x"]).replace('"\\u0001x"', () => fragment);
}

function fieldNamesOf(schema: JsonSchema): string[] {
  const resolved = resolveSchema(schema);
  const alternatives = (resolved.oneOf ?? resolved.anyOf) as JsonSchema[] | undefined;
  if (alternatives) return [...new Set(alternatives.flatMap(fieldNamesOf))];
  if (resolved.type === "array" && resolved.items) return fieldNamesOf(resolved.items as JsonSchema);
  return Object.keys((resolved.properties as Record<string, unknown> | undefined) ?? {});
}

/** Operations without a body still get one now and then: a body must never confuse a bodiless route. */
export const strayBody: fc.Arbitrary<MadeBody | undefined> = fc.oneof(
  { weight: 8, arbitrary: fc.constant(undefined) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(...HOSTILE_BODY_TEXTS)
      .map((text) => ({ text, contentType: JSON_TYPE, variant: "stray body" })),
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

export function withOtherEncodings(json: fc.Arbitrary<MadeBody>, other: fc.Arbitrary<MadeBody> | undefined) {
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

export function tokenRequestBody(world: FuzzWorld): fc.Arbitrary<MadeBody> {
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

export function revokeRequestBody(world: FuzzWorld): fc.Arbitrary<MadeBody> {
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

export function basicAuthHeader(world: FuzzWorld): fc.Arbitrary<Record<string, string>> {
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

export function targetUsersBody(world: FuzzWorld): fc.Arbitrary<MadeBody> {
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
