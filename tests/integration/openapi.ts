// Discord's published OpenAPI description as the oracle for response shapes (Ajv 2020).
// Patches, each with its reason:
//  1. InnerErrors._errors[].code: the spec reuses Error (integer code); Discord and discord-api-types send
//     string codes such as "BASE_TYPE_REQUIRED". We accept string or integer.
//  2. ChannelTypes: stable lacks GUILD_MEDIA (16), which our spec names (the preview file has it).
import fs from "node:fs";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { expect } from "vitest";

const SPEC_PATH = new URL("../fixtures/discord-openapi/openapi.json", import.meta.url);

type Json = Record<string, unknown>;
let ajv: Ajv2020 | null = null;
let spec: Json | null = null;

function load(): { ajv: Ajv2020; spec: Json } {
  if (ajv && spec) return { ajv, spec };
  spec = JSON.parse(fs.readFileSync(SPEC_PATH, "utf8")) as Json;
  const schemas = (spec.components as Json).schemas as Record<string, Json>;
  // Patch 1
  ((schemas.InnerErrors.properties as Json)._errors as Json).items = {
    type: "object",
    properties: { code: { type: ["string", "integer"] }, message: { type: "string" } },
    required: ["code", "message"],
  };
  // Patch 2
  const channelTypes = schemas.ChannelTypes as { oneOf?: Json[]; enum?: number[] };
  if (channelTypes.oneOf && !channelTypes.oneOf.some((o) => o.const === 16))
    channelTypes.oneOf.push({ title: "GUILD_MEDIA", const: 16 });
  for (const name of ["GuildChannelResponse", "CreateGuildChannelRequest", "UpdateGuildChannelRequestPartial"]) {
    const type = (schemas[name]?.properties as Record<string, { enum?: number[] }> | undefined)?.type;
    if (type?.enum && !type.enum.includes(16)) type.enum.push(16);
  }
  ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  for (const format of ["int32", "int64", "double", "nonce"]) ajv.addFormat(format, true);
  ajv.addFormat("snowflake", /^(0|[1-9][0-9]*)$/);
  ajv.addSchema({ $id: "discord", components: spec.components });
  return { ajv, spec };
}

/** Validates `value` against components.schemas[name]; fails the test with Ajv's errors. */
export function expectSchema(name: string, value: unknown): void {
  const { ajv } = load();
  const validate = ajv.getSchema(`discord#/components/schemas/${name}`);
  if (!validate) throw new Error(`No schema ${name} in the OpenAPI file`);
  const valid = validate(value);
  expect(valid, `${name}: ${ajv.errorsText(validate.errors, { separator: "\n" })}`).toBe(true);
}

/** Validates a success body against the operation's declared response schema (method + OpenAPI path). */
export function expectOperationResponse(method: string, path: string, status: number, value: unknown): void {
  const { ajv, spec } = load();
  const operation = ((spec.paths as Json)[path] as Json | undefined)?.[method.toLowerCase()] as Json | undefined;
  if (!operation) throw new Error(`No operation ${method} ${path} in the OpenAPI file`);
  const response = (operation.responses as Json)[String(status)] as Json | undefined;
  if (!response) throw new Error(`${method} ${path} declares no ${status} response`);
  const content = (response.content as Json | undefined)?.["application/json"] as Json | undefined;
  if (!content) throw new Error(`${method} ${path} ${status} has no JSON body`);
  const schema = JSON.parse(
    JSON.stringify(content.schema).replaceAll('"#/components/', '"discord#/components/'),
  ) as Json;
  const validate = ajv.compile(schema);
  expect(validate(value), `${method} ${path}: ${ajv.errorsText(validate.errors, { separator: "\n" })}`).toBe(true);
}

/** Fields client libraries read unguarded that Discord sends but its OpenAPI description does not mark required. */
export const LIBRARY_REQUIRED: Record<string, { fields: string[]; why: string }> = {
  IntegrationApplicationResponse: {
    fields: ["summary"],
    why: "discord.py 2.2 reads application.summary of every bot integration (KeyError without it)",
  },
  PrivateApplicationResponse: {
    fields: ["description", "icon", "bot_public", "bot_require_code_grant", "verify_key", "owner"],
    why: "discord.py's AppInfo (client.login) reads them unguarded",
  },
};

/** The JSON schema an operation declares for a status, with component references left as they are. */
export function operationResponseSchema(method: string, path: string, status: number): Json {
  const { spec } = load();
  const operation = ((spec.paths as Json)[path] as Json | undefined)?.[method.toLowerCase()] as Json | undefined;
  if (!operation) throw new Error(`No operation ${method} ${path} in the OpenAPI file`);
  const response = (operation.responses as Json)[String(status)] as Json | undefined;
  const schema = ((response?.content as Json | undefined)?.["application/json"] as Json | undefined)?.schema;
  if (!schema) throw new Error(`${method} ${path} ${status} has no JSON body`);
  return schema as Json;
}

/**
 * Walks `value` along `schema` and lists every required field that is absent, as a JSON path ("$.application.summary"),
 * with LIBRARY_REQUIRED's fields counted as required too. Unions (oneOf/anyOf) take the branch that misses least
 * among those whose type fits; allOf merges its parts.
 */
export function missingRequiredFields(schema: Json, value: unknown, path = "$"): string[] {
  const { spec } = load();
  const schemas = (spec.components as Json).schemas as Record<string, Json>;
  let name: string | undefined;
  let node = schema;
  while (typeof node.$ref === "string") {
    name = node.$ref.split("/").pop() as string;
    node = schemas[name];
  }
  if (value === null || value === undefined) return [];
  const branches = (node.oneOf ?? node.anyOf) as Json[] | undefined;
  if (branches) {
    const fitting = branches.filter((branch) => typeFits(resolve(branch, schemas), value));
    const candidates = (fitting.length > 0 ? fitting : branches).map((branch) =>
      missingRequiredFields(branch, value, path),
    );
    return candidates.reduce((best, next) => (next.length < best.length ? next : best));
  }
  if (Array.isArray(node.allOf))
    return (node.allOf as Json[]).flatMap((part) => missingRequiredFields(part, value, path));
  if (Array.isArray(value)) {
    const items = node.items as Json | undefined;
    return items ? value.flatMap((item, index) => missingRequiredFields(items, item, `${path}[${index}]`)) : [];
  }
  if (typeof value !== "object") return [];
  const object = value as Record<string, unknown>;
  const required = [
    ...((node.required as string[] | undefined) ?? []),
    ...(name ? (LIBRARY_REQUIRED[name]?.fields ?? []) : []),
  ];
  const missing = required.filter((key) => !(key in object)).map((key) => `${path}.${key}`);
  const properties = (node.properties as Record<string, Json> | undefined) ?? {};
  for (const [key, child] of Object.entries(properties))
    if (key in object) missing.push(...missingRequiredFields(child, object[key], `${path}.${key}`));
  const additional = node.additionalProperties;
  if (additional && typeof additional === "object")
    for (const [key, child] of Object.entries(object))
      if (!(key in properties)) missing.push(...missingRequiredFields(additional as Json, child, `${path}.${key}`));
  return missing;
}

function resolve(schema: Json, schemas: Record<string, Json>): Json {
  let node = schema;
  while (typeof node.$ref === "string") node = schemas[node.$ref.split("/").pop() as string];
  return node;
}

/** Whether a union branch can describe the value: its declared type, or its object shape's `type` constant. */
function typeFits(schema: Json, value: unknown): boolean {
  const types = ([] as unknown[]).concat(schema.type ?? []);
  const actual = value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
  if (types.length > 0 && !types.some((t) => t === actual || (t === "integer" && actual === "number"))) return false;
  if (actual === "object" && schema.properties) {
    // Discriminated unions (integrations by `type`, channels by `type`): a const or enum that excludes the value.
    const discriminator = (schema.properties as Record<string, Json>).type;
    const own = (value as Record<string, unknown>).type;
    if (discriminator && own !== undefined) {
      if (discriminator.const !== undefined && discriminator.const !== own) return false;
      if (Array.isArray(discriminator.enum) && !discriminator.enum.includes(own)) return false;
    }
  }
  return true;
}
