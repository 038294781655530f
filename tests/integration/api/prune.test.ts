// Prune on a hand-built guild whose members exercise the subset rule, the activity cut-off and the hierarchy exactly.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PermissionFlagsBits as P, Routes } from "discord-api-types/v10";
import { fail, lastEventId } from "./read-back";
import { startTestServer, type TestServer } from "../harness";
import { sql } from "@/lib/guild-api/store/db";
import { DAY, seedPruneGuild } from "../prune-guild";
import { expectOperationResponse } from "../openapi";

let server: TestServer;
const GUILD = 7_000_000_000n;
const ROLE = {
  A: 7_000_000_001n,
  B: 7_000_000_002n,
  KICKER: 7_000_000_003n,
  MOD: 7_000_000_004n,
  HIGH: 7_000_000_005n,
};
const MINUTE = 60_000;
/** name → [roles, ms since last activity] */
const FIXTURE: Record<string, [bigint[], number]> = {
  idle_no_roles: [[], 40 * DAY],
  idle_no_roles_2: [[], 10 * DAY],
  just_over_7_days: [[], 7 * DAY + MINUTE],
  just_under_7_days: [[], 7 * DAY - MINUTE],
  active_no_roles: [[], DAY / 2],
  idle_role_a: [[ROLE.A], 40 * DAY],
  idle_roles_a_b: [[ROLE.A, ROLE.B], 40 * DAY],
  idle_role_b: [[ROLE.B], 40 * DAY],
  active_role_a: [[ROLE.A], DAY / 2],
  idle_role_high: [[ROLE.HIGH], 40 * DAY],
  idle_roles_a_high: [[ROLE.A, ROLE.HIGH], 40 * DAY],
};

beforeAll(async () => {
  // Hundreds of bans and prunes on purpose, in the strictest buckets: see TestServerOptions.rateLimits.
  server = await startTestServer({ rateLimits: { enabled: false } });
  const user = (name: keyof TestServer["world"]["users"]) => BigInt(server.world.users[name]);
  await seedPruneGuild({
    guildId: GUILD,
    name: "Prune Lab",
    ownerId: user("owner"),
    roles: [
      [ROLE.A, "A", 0n],
      [ROLE.B, "B", 0n],
      [ROLE.KICKER, "Kicker", P.KickMembers],
      [ROLE.MOD, "Mod", P.KickMembers | P.ManageGuild],
      [ROLE.HIGH, "High", 0n],
    ],
    staff: [
      // The owner has been away for 100 days and holds no role: still never pruned.
      [user("owner"), "owner", [], 100 * DAY],
      [user("mod"), "mod", [ROLE.MOD]],
      [user("helper"), "helper", [ROLE.KICKER]],
      [user("member"), "member"],
    ],
    idle: FIXTURE,
    firstUserId: 7_100_000_000n,
  });
});
afterAll(() => server?.close());

const count = (query: Record<string, string>, as = "owner") =>
  server.rest(as).get(Routes.guildPrune(String(GUILD)), { query: new URLSearchParams(query) }) as Promise<{
    pruned: number;
  }>;
const begin = (body: unknown, as = "owner", reason?: string) =>
  server.rest(as).post(Routes.guildPrune(String(GUILD)), { body, reason }) as Promise<{ pruned: number | null }>;
const memberNames = async () =>
  (
    (await sql.all(
      "SELECT u.username FROM members m JOIN users u ON u.id = m.user_id WHERE m.guild_id = ? ORDER BY u.username",
      GUILD,
    )) as Array<{ username: string }>
  ).map((r) => r.username);
const removedSince = async (after: bigint) =>
  (
    (await sql.all(
      "SELECT type, payload FROM gateway_events WHERE guild_id = ? AND id > ? AND type != 'GUILD_AUDIT_LOG_ENTRY_CREATE' ORDER BY id",
      GUILD,
      after,
    )) as Array<{ type: string; payload: string }>
  ).map((e) => {
    expect(e.type).toBe("GUILD_MEMBER_REMOVE");
    const d = JSON.parse(e.payload) as { guild_id: string; user: { username: string } };
    expect(d.guild_id).toBe(String(GUILD));
    return d.user.username;
  });
const memberCount = async () =>
  ((await sql.get("SELECT member_count FROM guilds WHERE id = ?", GUILD)) as { member_count: bigint }).member_count;
const roles = (...ids: bigint[]) => ids.map(String).join(",");

describe("Get Guild Prune Count", () => {
  test("by default only inactive members without roles count; the owner never does", async () => {
    const pruned = await count({ days: "30" });
    expect(pruned).toEqual({ pruned: 1 }); // idle_no_roles
    expectOperationResponse("GET", "/guilds/{guild_id}/prune", 200, pruned);
    expect(await count({})).toEqual({ pruned: 3 }); // days defaults to 7: + idle_no_roles_2, just_over_7_days
    expect(await count({ days: "7" })).toEqual({ pruned: 3 });
    expect(await count({ days: "1" })).toEqual({ pruned: 4 }); // + just_under_7_days; active_no_roles (12 h) stays
  });

  test("include_roles: a member counts when all their roles are listed; any other role keeps them", async () => {
    expect(await count({ days: "30", include_roles: roles(ROLE.A) })).toEqual({ pruned: 2 }); // + idle_role_a, not idle_roles_a_b
    expect(await count({ days: "30", include_roles: roles(ROLE.B) })).toEqual({ pruned: 2 }); // + idle_role_b
    expect(await count({ days: "30", include_roles: roles(ROLE.A, ROLE.B) })).toEqual({ pruned: 4 }); // + idle_roles_a_b
    expect(await count({ days: "30", include_roles: roles(ROLE.A, ROLE.B, ROLE.HIGH) })).toEqual({ pruned: 6 }); // + idle_role_high, idle_roles_a_high
    expect(await count({ days: "1", include_roles: roles(ROLE.A) })).toEqual({ pruned: 5 }); // the 4 without roles + idle_role_a; active_role_a stays
    // @everyone is every member's implicit role: listing it changes nothing.
    expect(await count({ days: "30", include_roles: roles(GUILD) })).toEqual({ pruned: 1 });
  });

  test("roles at or above the caller's highest role are not pruned by that caller", async () => {
    expect(await count({ days: "30", include_roles: roles(ROLE.A, ROLE.B, ROLE.HIGH) }, "mod")).toEqual({ pruned: 4 });
    expect(await count({ days: "30", include_roles: roles(ROLE.MOD) }, "mod")).toEqual({ pruned: 1 });
  });

  test("days 1 and 30 are the edges; include_roles: roles of this guild, at most 100", async () => {
    await count({ days: "1" });
    await count({ days: "30" });
    for (const days of ["0", "31", "x"])
      expect(await fail(count({ days }))).toMatchObject({ status: 400, code: 50035 });
    const foreign = await fail(count({ include_roles: `${ROLE.A},${server.world.roles.moderator}` }));
    expect(foreign?.rawError).toMatchObject({
      code: 50035,
      errors: { include_roles: { 1: { _errors: [{ code: "ROLE_INVALID" }] } } },
    });
    const tooMany = await fail(count({ include_roles: Array.from({ length: 101 }, () => String(ROLE.A)).join(",") }));
    expect(tooMany?.rawError).toMatchObject({
      errors: { include_roles: { _errors: [{ code: "BASE_TYPE_MAX_LENGTH" }] } },
    });
    expect((await fail(count({ include_roles: "1,abc" })))?.rawError).toMatchObject({
      errors: { include_roles: { 1: { _errors: [{ code: "NUMBER_TYPE_COERCE" }] } } },
    });
  });

  test("needs Manage Server and Kick Members: Kick alone 50013, no permission 50013, outsider 50001", async () => {
    expect(await count({ days: "30" }, "mod")).toEqual({ pruned: 1 });
    expect(await fail(count({}, "helper"))).toMatchObject({ status: 403, code: 50013 });
    expect(await fail(count({}, "member"))).toMatchObject({ status: 403, code: 50013 });
    expect(await fail(count({}, "outsider"))).toMatchObject({ status: 403, code: 50001 });
  });
});

describe("Begin Guild Prune", () => {
  test("permissions and limits are checked before anything is removed", async () => {
    const before = await memberNames();
    expect(await fail(begin({ days: 30 }, "helper"))).toMatchObject({ status: 403, code: 50013 });
    expect(await fail(begin({ days: 30 }, "member"))).toMatchObject({ status: 403, code: 50013 });
    expect(await fail(begin({ days: 30 }, "outsider"))).toMatchObject({ status: 403, code: 50001 });
    for (const days of [0, 31])
      expect((await fail(begin({ days })))?.rawError).toMatchObject({
        code: 50035,
        errors: { days: { _errors: [{}] } },
      });
    expect(
      (
        await fail(
          begin({ days: 30, include_roles: Array.from({ length: 101 }, (_, i) => String(ROLE.A + BigInt(i))) }),
        )
      )?.rawError,
    ).toMatchObject({
      errors: { include_roles: { _errors: [{ code: "BASE_TYPE_MAX_LENGTH" }] } },
    });
    expect((await fail(begin({ days: 30, include_roles: [String(ROLE.A), "42"] })))?.rawError).toMatchObject({
      errors: { include_roles: { 1: { _errors: [{ code: "ROLE_INVALID" }] } } },
    });
    expect(await memberNames()).toEqual(before);
  });

  test("removes exactly the matching members, one GUILD_MEMBER_REMOVE each, and audits MEMBER_PRUNE", async () => {
    const since = await lastEventId();
    const countBefore = await memberCount();
    // As mod: High is above Mod, so idle_role_high and idle_roles_a_high stay.
    const result = await begin(
      { days: 30, include_roles: [String(ROLE.A), String(ROLE.HIGH)] },
      "mod",
      "spring cleaning",
    );
    expect(result).toEqual({ pruned: 2 });
    expectOperationResponse("POST", "/guilds/{guild_id}/prune", 200, result);
    expect((await removedSince(since)).sort()).toEqual(["idle_no_roles", "idle_role_a"]);
    expect(await memberNames()).toEqual([
      "active_no_roles",
      "active_role_a",
      "helper",
      "idle_no_roles_2",
      "idle_role_b",
      "idle_role_high",
      "idle_roles_a_b",
      "idle_roles_a_high",
      "just_over_7_days",
      "just_under_7_days",
      "member",
      "mod",
      "owner",
    ]);
    expect(await memberCount()).toBe(countBefore - 2n);
    const audit = (await sql.all(
      "SELECT user_id, target_id, reason, options FROM audit_log_entries WHERE guild_id = ? AND action_type = 21 ORDER BY id DESC",
      GUILD,
    )) as Array<{
      user_id: bigint;
      target_id: string | null;
      reason: string;
      options: string;
    }>;
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      user_id: BigInt(server.world.users.mod),
      target_id: null,
      reason: "spring cleaning",
    });
    expect(JSON.parse(audit[0].options)).toEqual({ delete_member_days: "30", members_removed: "2" });
    expect(await count({ days: "30", include_roles: roles(ROLE.A) })).toEqual({ pruned: 0 });
  });

  test("compute_prune_count=false answers null and still prunes; include_roles may be comma-separated", async () => {
    const since = await lastEventId();
    const result = await begin({ days: 30, compute_prune_count: false, include_roles: roles(ROLE.A, ROLE.B) });
    expect(result).toEqual({ pruned: null });
    expectOperationResponse("POST", "/guilds/{guild_id}/prune", 200, result);
    expect((await removedSince(since)).sort()).toEqual(["idle_role_b", "idle_roles_a_b"]);
  });

  test("defaults: days 7, members without roles only; nulls mean the defaults; the owner stays", async () => {
    const since = await lastEventId();
    const result = await begin({ days: null, include_roles: null, compute_prune_count: null });
    expect(result).toEqual({ pruned: 2 });
    expect((await removedSince(since)).sort()).toEqual(["idle_no_roles_2", "just_over_7_days"]);
    expect(await memberNames()).toContain("owner");
    expect(await memberNames()).toContain("just_under_7_days");
  });
});
