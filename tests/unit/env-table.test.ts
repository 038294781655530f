// Every environment variable in one table (docs/operations.md#environment-variables): each one the code reads (outside
// tests/ and bench/, whose own are in docs/testing.md and docs/benchmarks.md), the image's ENV sets or the compose
// file names has a row, and every row names a variable something still reads or sets.
import { describe, expect, test } from "vitest";
import { parse } from "yaml";
import { parseDockerfile, parseEnv } from "@/scripts/image-steps";
import { code, filesUnder, read } from "./source-text";

const SOURCE_FILES = [
  ...["app", "components", "lib", "scripts"].flatMap((dir) => filesUnder(dir)),
  "server.ts",
  "instrumentation.ts",
  "proxy.ts",
  "next.config.mjs",
  "prisma.config.ts",
].filter(
  (file) =>
    /\.(ts|tsx|mjs|js)$/.test(file) &&
    !file.startsWith("lib/generated/") &&
    // CI's tool, not Guildhall: it hands its own PATH and HOME to the folders it builds in.
    file !== "scripts/image-steps.ts",
);

/** Reads by name: process.env.NAME, process.env["NAME"], env.NAME (a parameter defaulting to process.env), fromEnv("NAME"). */
const READS = [
  /\benv\.([A-Z][A-Z0-9_]*)\b/g,
  /\bprocess\.env\[\s*["'`]([A-Z][A-Z0-9_]*)["'`]\s*\]/g,
  /\bfromEnv\(\s*["'`]([A-Z][A-Z0-9_]*)["'`]\s*\)/g,
];

/** The variables a source text reads. */
function variablesRead(source: string): string[] {
  return [...new Set(READS.flatMap((pattern) => [...source.matchAll(pattern)].map((match) => match[1])))].sort();
}

/** The variables of the table under "## Environment variables": the names in each row's first cell. */
function tableVariables(markdown: string): string[] {
  const section = markdown.split(/^## Environment variables$/m)[1]?.split(/^## /m)[0] ?? "";
  return section
    .split("\n")
    .filter((line) => /^\|\s*`/.test(line))
    .flatMap((line) => [...line.split("|")[1].matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1]));
}

const readBy = new Map<string, string[]>();
for (const file of SOURCE_FILES)
  for (const name of variablesRead(code(file))) readBy.set(name, [...(readBy.get(name) ?? []), file]);

const dockerfile = parseDockerfile(read("Dockerfile"));
const imageEnv = Object.keys(
  Object.assign(
    {},
    ...(dockerfile.at(-1)?.instructions ?? [])
      .filter((each) => each.keyword === "ENV")
      .map((each) => parseEnv(each.args)),
  ) as Record<string, string>,
);

const composeText = read("docker-compose.yml");
const compose = parse(composeText, { merge: true }) as {
  services: Record<string, { build?: string; environment?: Record<string, string> }>;
};
// What Guildhall's containers get (the services built from this folder), and what `docker compose up` reads itself.
const composeEnv = [
  ...Object.values(compose.services)
    .filter((service) => service.build === ".")
    .flatMap((service) => Object.keys(service.environment ?? {})),
  ...[...composeText.matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)].map((match) => match[1]),
];

const table = tableVariables(read("docs/operations.md"));

describe("the environment-variable table", () => {
  test("the reads are found (a read the patterns miss would go undocumented)", () => {
    expect(variablesRead('process.env.PORT; process.env["HOST"]; env.REDIS_URL; fromEnv("GATEWAY_X")')).toEqual([
      "GATEWAY_X",
      "HOST",
      "PORT",
      "REDIS_URL",
    ]);
    expect(readBy.get("GATEWAY_MAX_CONCURRENCY")).toEqual(["lib/guild-api/gateway/options.ts"]);
    expect(readBy.get("RATE_LIMITS")).toEqual(["lib/guild-api/rate-limits.ts"]);
  });

  test("no read by a computed name, except through the gateway's fromEnv (whose calls are read above)", () => {
    const computed = SOURCE_FILES.filter((file) => /\bprocess\.env\[\s*(?!["'`])/.test(code(file)));
    expect(computed).toEqual(["lib/guild-api/gateway/options.ts"]);
  });

  test("has a row for every variable the code reads", () => {
    const missing = [...readBy.keys()].filter((name) => !table.includes(name)).sort();
    expect(missing.map((name) => `${name} (read by ${readBy.get(name)?.join(", ")})`)).toEqual([]);
  });

  test("has a row for every variable the image and the compose file set or read", () => {
    expect(imageEnv).toContain("NODE_ENV");
    expect(composeEnv).toContain("GUILDHALL_INSTANCE_ID");
    expect(composeEnv).toContain("POSTGRES_PASSWORD");
    expect([...new Set([...imageEnv, ...composeEnv])].filter((name) => !table.includes(name)).sort()).toEqual([]);
  });

  test("has no row for a variable nothing reads or sets, and one row per variable", () => {
    const known = new Set([...readBy.keys(), ...imageEnv, ...composeEnv]);
    expect(table.filter((name) => !known.has(name))).toEqual([]);
    expect(table.filter((name, index) => table.indexOf(name) !== index)).toEqual([]);
  });
});
