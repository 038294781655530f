// Deterministic passes run before the sampled requests: the mutations random sampling reaches too rarely (an
// out-of-range id in one field of an otherwise valid body, in each path and query parameter), and, in the bench's
// sweep only, one oversized body per operation.
import { JSON_TYPE, mutateFirstElement, VALID_BODIES, withRawField } from "./bodies";
import type { FuzzOperation, FuzzRequest, FuzzWorld } from "./operations";

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
