// Plausible request values from Discord's OpenAPI request schemas: the shape a well-behaved client would send (right
// field names and types, values inside the declared bounds, snowflakes drawn from the seeded world), which the
// mutators then break one field at a time. Only the JSON Schema keywords Discord's file uses for requests are read.
import fs from "node:fs";
import fc from "fast-check";

export type JsonSchema = Record<string, unknown>;
type Json = Record<string, unknown>;

const SPEC_PATH = new URL("../../fixtures/discord-openapi/openapi.json", import.meta.url);
/** Objects and arrays nest at most this deep; below it a schema yields null (deep nesting is the mutators' job). */
const MAX_DEPTH = 4;
const MAX_ITEMS = 4;
const MAX_STRING = 40;

let spec: Json | null = null;
export function openApiSpec(): Json {
  spec ??= JSON.parse(fs.readFileSync(SPEC_PATH, "utf8")) as Json;
  return spec;
}

/** The OpenAPI operation for a router path such as `/guilds/:guildId/roles/:roleId`, or undefined. */
export function openApiOperation(method: string, routerPath: string): Json | undefined {
  const paths = openApiSpec().paths as Record<string, Json>;
  return paths[openApiPath(routerPath)]?.[method.toLowerCase()] as Json | undefined;
}

/** `/guilds/:guildId` → `/guilds/{guild_id}`, Discord's parameter names. */
export function openApiPath(routerPath: string): string {
  return routerPath.replace(
    /:(\w+)/g,
    (_, name: string) => `{${name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}}`,
  );
}

/** Follows $ref pointers into the OpenAPI file. */
export function resolveSchema(schema: JsonSchema): JsonSchema {
  let current = schema;
  for (let hops = 0; typeof current.$ref === "string" && hops < 20; hops++) {
    const pointer = (current.$ref as string).replace(/^#\//, "").split("/");
    let target: unknown = openApiSpec();
    for (const part of pointer) target = (target as Json)[part];
    current = target as JsonSchema;
  }
  return current;
}

export interface SchemaContext {
  /** Snowflakes of the seeded world (guild, users, roles, channels), so generated ids often point at real rows. */
  snowflakes: readonly string[];
}

/** An arbitrary of values valid (or nearly: some bounds are only approximated) for `schema`. */
export function arbitraryFor(schema: JsonSchema, context: SchemaContext, depth = 0): fc.Arbitrary<unknown> {
  const s = resolveSchema(schema);
  if (depth > MAX_DEPTH) return fc.constant(null);
  if ("const" in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  const alternatives = (s.oneOf ?? s.anyOf) as JsonSchema[] | undefined;
  if (alternatives?.length) return fc.oneof(...alternatives.map((a) => arbitraryFor(a, context, depth)));
  if (Array.isArray(s.allOf) && s.allOf.length) return arbitraryFor(s.allOf[0] as JsonSchema, context, depth);
  const types = Array.isArray(s.type) ? (s.type as string[]) : s.type ? [s.type as string] : ["object"];
  return fc.oneof(...types.map((type) => arbitraryForType(type, s, context, depth)));
}

function arbitraryForType(type: string, s: JsonSchema, context: SchemaContext, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer": {
      if (s.format === "snowflake" || s.format === "int64")
        return fc.constantFrom(...context.snowflakes.slice(0, 4).map(Number), 0, 1);
      const min = typeof s.minimum === "number" ? s.minimum : -1000;
      const max = typeof s.maximum === "number" ? s.maximum : Math.max(min, 0) + 100_000;
      return fc.integer({ min: Math.max(min, Number.MIN_SAFE_INTEGER), max: Math.min(max, Number.MAX_SAFE_INTEGER) });
    }
    case "number":
      return fc.double({
        min: typeof s.minimum === "number" ? s.minimum : -1e6,
        max: typeof s.maximum === "number" ? s.maximum : 1e6,
        noNaN: true,
      });
    case "string": {
      if (s.format === "snowflake" || s.pattern === "^(0|[1-9][0-9]*)$") return fc.constantFrom(...context.snowflakes);
      if (s.format === "uri") return fc.constantFrom("https://example.com/a", "https://guildhall.test/x.png");
      if (s.format === "date-time") return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
      const minLength = typeof s.minLength === "number" ? s.minLength : 0;
      const maxLength = Math.max(minLength, Math.min(typeof s.maxLength === "number" ? s.maxLength : MAX_STRING, 200));
      return fc.string({ minLength, maxLength });
    }
    case "array": {
      const items = (s.items as JsonSchema | undefined) ?? {};
      const maxLength = Math.min(typeof s.maxItems === "number" ? s.maxItems : MAX_ITEMS, MAX_ITEMS);
      const minLength = Math.min(typeof s.minItems === "number" ? s.minItems : 0, maxLength);
      return fc.array(arbitraryFor(items, context, depth + 1), { minLength, maxLength });
    }
    default: {
      const properties = (s.properties as Record<string, JsonSchema> | undefined) ?? {};
      const required = new Set((s.required as string[] | undefined) ?? []);
      const model = Object.fromEntries(
        Object.entries(properties).map(([name, property]) => [name, arbitraryFor(property, context, depth + 1)]),
      );
      return fc.record(model, { requiredKeys: Object.keys(properties).filter((name) => required.has(name)) });
    }
  }
}

/** The JSON request body schema of an OpenAPI operation, if it declares one. */
export function jsonBodySchema(operation: Json | undefined): JsonSchema | undefined {
  const content = (operation?.requestBody as Json | undefined)?.content as Record<string, Json> | undefined;
  return content?.["application/json"]?.schema as JsonSchema | undefined;
}

export interface QueryParameter {
  name: string;
  schema: JsonSchema;
}

/** The query parameters an OpenAPI operation declares. */
export function queryParameters(operation: Json | undefined): QueryParameter[] {
  const parameters = (operation?.parameters as Json[] | undefined) ?? [];
  return parameters
    .map((p) => resolveSchema(p as JsonSchema))
    .filter((p) => p.in === "query")
    .map((p) => ({ name: p.name as string, schema: (p.schema as JsonSchema | undefined) ?? { type: "string" } }));
}
