// docker-compose.yml and the Caddyfile, linted (`docker compose config` needs the Compose plugin, which no machine of
// ours has): the YAML parsed as Compose reads it (merge keys included), then our rules for the two-instance
// deployment. Each rule is checked on the real file and on a copy broken on purpose.
import { describe, expect, test } from "vitest";
import { parse } from "yaml";
import { read } from "./source-text";

interface ComposeService {
  build?: string;
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: { test: string[] };
  stop_grace_period?: string;
}

/**
 * How long an instance may take to stop after SIGTERM: SHUTDOWN_GRACE_MS's default (lib/server/create-server.ts) and
 * the 5 s past it after which server.ts exits anyway.
 */
const SHUTDOWN_DEADLINE_S = 10 + 5;

const INSTANCES = ["guildhall-a", "guildhall-b"];
const SERVICES = ["prepare", ...INSTANCES, "postgres", "redis", "caddy"];

function dependsOn(service: ComposeService, name: string): string | null {
  const dependencies = service.depends_on ?? {};
  if (Array.isArray(dependencies)) return dependencies.includes(name) ? "service_started" : null;
  return dependencies[name]?.condition ?? null;
}

/** Everything wrong with the compose file (and the Caddyfile it mounts), as sentences (none for a good one). */
function composeProblems(text: string, caddyfile: string): string[] {
  const problems: string[] = [];
  const services = (parse(text, { merge: true }) as { services?: Record<string, ComposeService> }).services ?? {};
  for (const name of SERVICES) if (!services[name]) problems.push(`no ${name} service`);
  if (problems.length > 0) return problems;

  const prepare = services.prepare;
  if (prepare.build !== "." || prepare.command?.join(" ") !== "npm run seed")
    problems.push("prepare: runs `npm run seed` in the image built from this folder");
  if (dependsOn(prepare, "postgres") !== "service_healthy") problems.push("prepare: waits for postgres to be healthy");

  const instanceIds = new Set<string>();
  for (const name of INSTANCES) {
    const instance = services[name];
    if (instance.build !== ".") problems.push(`${name}: runs the image built from this folder`);
    if (!instance.healthcheck?.test.join(" ").includes("/readyz")) problems.push(`${name}: health check on /readyz`);
    if (dependsOn(instance, "prepare") !== "service_completed_successfully")
      problems.push(`${name}: starts after prepare completed successfully`);
    for (const store of ["postgres", "redis"])
      if (dependsOn(instance, store) !== "service_healthy") problems.push(`${name}: waits for ${store} to be healthy`);
    if (!(Number(/^(\d+)s$/.exec(instance.stop_grace_period ?? "")?.[1]) > SHUTDOWN_DEADLINE_S))
      problems.push(`${name}: stop_grace_period past the shutdown's ${SHUTDOWN_DEADLINE_S} s (SIGKILL would cut it)`);
    const environment = instance.environment ?? {};
    if (!environment.DATABASE_URL?.startsWith("postgres://")) problems.push(`${name}: DATABASE_URL on PostgreSQL`);
    if (!environment.REDIS_URL) problems.push(`${name}: REDIS_URL (rate limits shared by both instances)`);
    const id = environment.GUILDHALL_INSTANCE_ID;
    if (id === undefined) problems.push(`${name}: GUILDHALL_INSTANCE_ID`);
    else if (instanceIds.has(id)) problems.push(`${name}: GUILDHALL_INSTANCE_ID ${id} is another instance's too`);
    else instanceIds.add(id);
  }
  for (const store of ["postgres", "redis"])
    if (!services[store].healthcheck) problems.push(`${store}: a health check (the instances wait for it)`);
  for (const name of INSTANCES)
    if (dependsOn(services.caddy, name) !== "service_healthy") problems.push(`caddy: waits for ${name} to be healthy`);

  const upstreams = /^\s*reverse_proxy\s+([^{\n]+)\{/m.exec(caddyfile)?.[1].trim().split(/\s+/) ?? [];
  for (const name of INSTANCES)
    if (!upstreams.includes(`${name}:3000`)) problems.push(`Caddyfile: reverse_proxy to ${name}:3000`);
  if (!/^\s*health_uri \/readyz$/m.test(caddyfile)) problems.push("Caddyfile: health_uri /readyz");
  return problems;
}

const compose = read("docker-compose.yml");
const caddyfile = read("Caddyfile");

describe("docker-compose.yml and the Caddyfile", () => {
  test("have no problem", () => {
    expect(composeProblems(compose, caddyfile)).toEqual([]);
  });

  const broken: [string, (text: string) => string, (text: string) => string, RegExp][] = [
    ["no redis service", (text) => text.replace(/^  redis:$/m, "  cache:"), (text) => text, /no redis service/],
    [
      "a health check of /healthz",
      (text) => text.replace("127.0.0.1:3000/readyz", "127.0.0.1:3000/healthz"),
      (text) => text,
      /guildhall-a: health check on \/readyz/,
    ],
    [
      "instances that start before PostgreSQL is healthy",
      (text) => text.replace(/^    postgres:\n      condition: service_healthy\n/m, ""),
      (text) => text,
      /guildhall-a: waits for postgres to be healthy/,
    ],
    [
      "the same instance id twice",
      (text) => text.replace('GUILDHALL_INSTANCE_ID: "2"', 'GUILDHALL_INSTANCE_ID: "1"'),
      (text) => text,
      /GUILDHALL_INSTANCE_ID 1 is another instance's too/,
    ],
    [
      "a proxy that starts before the instances are healthy",
      (text) =>
        text.replace(
          /^    depends_on:\n      guildhall-a:\n        condition: service_healthy\n/m,
          "    depends_on:\n",
        ),
      (text) => text,
      /caddy: waits for guildhall-a to be healthy/,
    ],
    [
      "Docker's default time to stop",
      (text) => text.replace(/^  stop_grace_period: .*\n/m, ""),
      (text) => text,
      /guildhall-a: stop_grace_period past the shutdown's 15 s/,
    ],
    [
      "the Caddyfile checking /healthz",
      (text) => text,
      (text) => text.replace("health_uri /readyz", "health_uri /healthz"),
      /Caddyfile: health_uri \/readyz/,
    ],
  ];
  test.each(broken)("fail with %s", (_, breakCompose, breakCaddyfile, problem) => {
    const [text, caddy] = [breakCompose(compose), breakCaddyfile(caddyfile)];
    expect(text === compose && caddy === caddyfile).toBe(false);
    expect(composeProblems(text, caddy).join("\n")).toMatch(problem);
  });
});
