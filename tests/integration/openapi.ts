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
