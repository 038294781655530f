// Issue 12, "Tests and figures": property-based fuzzing of every operation of the built-in API. For each route of the
// router's table, generated and mutated bodies, queries and path ids (from Discord's OpenAPI request schemas and the
// spec's limits) are sent by the owner's bot, the owner, a moderator, a plain member and unauthenticated callers.
// Properties: every answer is a 2xx or a 4xx; a 4xx has Discord's error body; no 5xx; no hang (5 s per request);
// a refused request changes nothing in the database.
// FUZZ_SEED and FUZZ_RUNS_PER_OPERATION reproduce or lengthen a run; `npm run bench` runs a longer sweep.
import "./rate-limits-off";
import { describe, expect, inject, test } from "vitest";
import { apiRoutes } from "@/lib/guild-api/routes";
import { checkOperation, DEFAULT_SEED } from "./campaign";
import { fuzzOperations, GUILDHALL_OPERATIONS, type FuzzWorld } from "./operations";
import { openApiOperation } from "./schema-arbitrary";

const SEED = Number(process.env.FUZZ_SEED ?? DEFAULT_SEED);
const RUNS_PER_OPERATION = Number(process.env.FUZZ_RUNS_PER_OPERATION ?? 16);
const MIN_REQUESTS = 1_000;

const keys = apiRoutes.map((route) => `${route.method} ${route.path}`);
let sent = 0;

describe("API fuzz", () => {
  test("every route of the router has a request generator", () => {
    const world = {
      guildId: "1",
      sideGuildId: "2",
      applicationId: "3",
      clientSecret: "s",
      namedUserIds: ["4"],
      expendableUserIds: ["5"],
      roleIds: ["6"],
      channelIds: ["7"],
      voiceUserIds: [],
      voiceChannelIds: [],
      integrationIds: [],
      inviteCodes: [],
      scheduledEventIds: [],
    } satisfies FuzzWorld;
    expect(fuzzOperations(world).missing).toEqual([]);
    // An override for a route that no longer exists is dead weight that would hide a renamed route.
    expect(Object.keys(GUILDHALL_OPERATIONS).filter((key) => !keys.includes(key))).toEqual([]);
    expect(
      keys.filter(
        (key) =>
          openApiOperation(...(key.split(" ") as [string, string])) === undefined && !(key in GUILDHALL_OPERATIONS),
      ),
    ).toEqual([]);
  });

  test.each(keys)("%s", { timeout: 120_000 }, async (key) => {
    const result = await checkOperation(inject("templateDatabase"), key, RUNS_PER_OPERATION, SEED);
    expect(result, `${key} has no generator`).not.toBeNull();
    sent += result!.requests;
    expect(result!.failure, result!.failure ?? "").toBeNull();
  });
});

// Tests in a file run in order: this one sees every operation's count (a failing operation stops early).
test("the run sent at least 1,000 requests", () => {
  console.log(`API fuzz: ${sent} requests to ${keys.length} operations (FUZZ_SEED=${SEED})`);
  expect(sent).toBeGreaterThanOrEqual(MIN_REQUESTS);
});
