// Prune on a hand-built guild whose members exercise the subset rule exactly.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DiscordAPIError } from "@discordjs/rest";
import { Routes } from "discord-api-types/v10";
import { startTestServer, type TestServer } from "./harness";
import { expectOperationResponse } from "./openapi";

let server: TestServer;
let db: () => import("better-sqlite3").Database;
const GUILD = 7_000_000_000n;
const ROLE_A = 7_000_000_001n;
const ROLE_B = 7_000_000_002n;
const DAY = 86_400_000;
/** name → [roles, days since last activity] */
const FIXTURE: Record<string, [bigint[], number]> = {
  idle_no_roles: [[], 40],
  idle_no_roles_2: [[], 10],
  active_no_roles: [[], 1],
  idle_role_a: [[ROLE_A], 40],
  idle_roles_a_b: [[ROLE_A, ROLE_B], 40],
  idle_role_b: [[ROLE_B], 40],
  active_role_a: [[ROLE_A], 1],
};
const ids = new Map<string, bigint>();

beforeAll(async () => {
  server = await startTestServer();
  ({ db } = await import("@/lib/guild-api/store/db"));
  const { insertMember } = await import("@/lib/guild-api/store/membership");
  const now = Date.now();
  const owner = BigInt(server.world.users.owner);
  const d = db();
  d.prepare("INSERT INTO guilds (id, name, owner_id, created_at) VALUES (?, 'Prune Lab', ?, 0)").run(GUILD, owner);
  d.prepare("INSERT INTO roles (id, guild_id, name, permissions, position) VALUES (?, ?, '@everyone', 0, 0), (?, ?, 'A', 0, 1), (?, ?, 'B', 0, 2)").run(GUILD, GUILD, ROLE_A, GUILD, ROLE_B, GUILD);
  insertMember({ guildId: GUILD, userId: owner, username: "owner", now: now - 100 * DAY });
  insertMember({ guildId: GUILD, userId: BigInt(server.world.users.helper), username: "helper", now });
  let n = 0;
  for (const [name, [roles, idleDays]] of Object.entries(FIXTURE)) {
    const id = 7_100_000_000n + BigInt(n++);
    ids.set(name, id);
    d.prepare("INSERT INTO users (id, username, discriminator, bot, created_at) VALUES (?, ?, '0', 0, 0)").run(id, name);
    insertMember({ guildId: GUILD, userId: id, username: name, roleIds: roles, now: now - idleDays * DAY });
  }
});
afterAll(() => server?.close());

const count = (query: Record<string, string>) => server.rest("owner").get(Routes.guildPrune(String(GUILD)), { query: new URLSearchParams(query) }) as Promise<{ pruned: number }>;
const fail = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => error as DiscordAPIError);

describe("Get Guild Prune Count", () => {
  test("by default only inactive members without roles count (never the owner)", async () => {
    expect(await count({ days: "30" })).toEqual({ pruned: 1 });
    expect(await count({ days: "7" })).toEqual({ pruned: 2 });
    expectOperationResponse("GET", "/guilds/{guild_id}/prune", 200, await count({}));
  });

  test("include_roles: members whose roles are a subset of the list count; any other role keeps them", async () => {
    expect(await count({ days: "30", include_roles: String(ROLE_A) })).toEqual({ pruned: 2 }); // idle_no_roles, idle_role_a
    expect(await count({ days: "30", include_roles: `${ROLE_A},${ROLE_B}` })).toEqual({ pruned: 4 }); // + idle_roles_a_b, idle_role_b
  });

  test("days 1 and 30 are the edges; other guilds' roles are refused", async () => {
    await count({ days: "1" });
    for (const days of ["0", "31"]) expect(await fail(count({ days }))).toMatchObject({ status: 400, code: 50035 });
    const error = await fail(count({ include_roles: server.world.roles.moderator }));
    expect(error?.rawError).toMatchObject({ errors: { include_roles: { 0: { _errors: [{ code: "ROLE_INVALID" }] } } } });
  });

  test("needs Manage Server and Kick Members", async () => {
    const asHelper = await fail(server.rest("helper").get(Routes.guildPrune(String(GUILD))));
    expect(asHelper).toMatchObject({ status: 403, code: 50013 });
    expect(await fail(server.rest("member").get(Routes.guildPrune(String(GUILD))))).toMatchObject({ status: 403, code: 50001 });
  });
});

describe("Begin Guild Prune", () => {
  test("compute_prune_count=false answers null", async () => {
    const result = await server.rest("owner").post(Routes.guildPrune(String(GUILD)), { body: { days: 30, compute_prune_count: false, include_roles: [] } });
    expect(result).toEqual({ pruned: null });
    expect(await count({ days: "30" })).toEqual({ pruned: 0 });
  });

  test("removes exactly the matching members, one GUILD_MEMBER_REMOVE each, and audits it", async () => {
    const result = await server.rest("owner").post(Routes.guildPrune(String(GUILD)), { body: { days: 30, include_roles: [String(ROLE_A)] }, reason: "spring cleaning" });
    expect(result).toEqual({ pruned: 1 });
    expectOperationResponse("POST", "/guilds/{guild_id}/prune", 200, result);
    const remaining = (db().prepare("SELECT u.username FROM members m JOIN users u ON u.id = m.user_id WHERE m.guild_id = ? ORDER BY u.username").all(GUILD) as Array<{ username: string }>).map((r) => r.username);
    expect(remaining).toEqual(["active_no_roles", "active_role_a", "helper", "idle_no_roles_2", "idle_role_b", "idle_roles_a_b", "owner"]);
    const removed = (db().prepare("SELECT payload FROM gateway_events WHERE guild_id = ? AND type = 'GUILD_MEMBER_REMOVE'").all(GUILD) as Array<{ payload: string }>).map((r) => (JSON.parse(r.payload) as { user: { username: string } }).user.username);
    expect(removed.sort()).toEqual(["idle_no_roles", "idle_role_a"]);
    const audit = db().prepare("SELECT reason, options FROM audit_log_entries WHERE guild_id = ? AND action_type = 21 ORDER BY id DESC").get(GUILD) as { reason: string; options: string };
    expect(audit.reason).toBe("spring cleaning");
    expect(JSON.parse(audit.options)).toEqual({ delete_member_days: "30", members_removed: "1" });
    expect((db().prepare("SELECT member_count FROM guilds WHERE id = ?").get(GUILD) as { member_count: bigint }).member_count).toBe(7n);
  });
});
