// Get Guild Prune Count stays exact through member writes of every kind, on both engines. After each write (through
// the API, and last_active_at written directly, which no API path writes today), for both demo guilds and for
// hundreds of cut-offs (every member's own last activity and the millisecond after it, every UTC midnight of the last
// 130 days and the millisecond before it), the count the store answers equals COUNT(*) over members; the API's count
// equals it for the owner; and every member's role_count equals its member_roles rows (the count reads role_count).
// On PostgreSQL the count sums per-day counts kept by triggers (roleless_members_by_day, migration
// …_roleless_members_by_day): they must also equal the members grouped by day, row for row, or this file fails.
// Tests run in order on one database.
import { Routes } from "discord-api-types/v10";
import { expect, test } from "vitest";
import { sql, storeOnPostgresql } from "@/lib/guild-api/store/db";
import { countInactiveMembers } from "@/lib/guild-api/store/members";
import { testServerForFile } from "../harness";
import { lastEventId } from "./read-back";

// Bans, a prune and many counts in a row: the limits have their own tests (TestServerOptions.rateLimits).
const server = testServerForFile({ rateLimits: { enabled: false } });
const DAY = 86_400_000;
const guild = () => BigInt(server.world.guildId);
const sideGuild = () => BigInt(server.world.sideGuildId);
const worldUserIds = () => Object.values(server.world.users).map(BigInt);

/** Cut-offs where a count can go wrong: on a member's own time, at day edges. */
async function cutoffs(guildId: bigint, now: number): Promise<bigint[]> {
  const times = (await sql.values("SELECT last_active_at FROM members WHERE guild_id = ?", guildId)) as bigint[];
  const midnight = BigInt(Math.floor(now / DAY) * DAY);
  const edges = Array.from({ length: 131 }, (_, k) => midnight - BigInt(k * DAY));
  return [...new Set([...times, ...times.map((t) => t + 1n), ...edges, ...edges.map((t) => t - 1n)])];
}

const directCount = async (guildId: bigint, cutoff: bigint) =>
  Number(
    (await sql.value(
      "SELECT COUNT(*) FROM members WHERE guild_id = ? AND role_count = 0 AND last_active_at < ?",
      guildId,
      cutoff,
    )) as bigint,
  );

/** Every check of the file's header, after a write. */
async function expectCountsExact(): Promise<void> {
  const outOfStep = await sql.values(
    `SELECT m.user_id FROM members m
     WHERE m.role_count <> (SELECT COUNT(*) FROM member_roles r WHERE r.guild_id = m.guild_id AND r.user_id = m.user_id)`,
  );
  expect(outOfStep, "members whose role_count differs from their member_roles rows").toEqual([]);

  const now = Date.now();
  for (const guildId of [guild(), sideGuild()]) {
    const wrong: Array<{ cutoff: bigint; counted: number; direct: number }> = [];
    for (const cutoff of await cutoffs(guildId, now)) {
      const [counted, direct] = [await countInactiveMembers(guildId, cutoff, []), await directCount(guildId, cutoff)];
      if (counted !== direct) wrong.push({ cutoff, counted, direct });
    }
    expect(wrong, `guild ${guildId}`).toEqual([]);
  }

  // The API as the owner: the owner is never counted.
  const owner = BigInt(server.world.users.owner);
  for (const days of [1, 7, 30]) {
    const answer = (await server
      .rest("owner")
      .get(Routes.guildPrune(server.world.guildId), { query: new URLSearchParams({ days: String(days) }) })) as {
      pruned: number;
    };
    const expected = Number(
      (await sql.value(
        "SELECT COUNT(*) FROM members WHERE guild_id = ? AND role_count = 0 AND last_active_at < ? AND user_id <> ?",
        guild(),
        BigInt(Date.now() - days * DAY),
        owner,
      )) as bigint,
    );
    expect({ days, pruned: answer.pruned }).toEqual({ days, pruned: expected });
  }

  if (storeOnPostgresql()) {
    const kept = await sql.all(
      `SELECT guild_id, day, member_count FROM roleless_members_by_day WHERE member_count <> 0 ORDER BY guild_id, day`,
    );
    const recounted = await sql.all(
      `SELECT guild_id, guildhall_utc_day(last_active_at) AS day, COUNT(*) AS member_count FROM members
       WHERE role_count = 0 GROUP BY 1, 2 ORDER BY 1, 2`,
    );
    expect(kept).toEqual(recounted);
    expect(recounted.length).toBeGreaterThan(10);
  }
}

/** Members of the demo guild without roles, inactive for more than `days`, who are not the demo world's named users. */
async function idleWithoutRoles(days: number, limit: number): Promise<bigint[]> {
  return (await sql.values(
    `SELECT user_id FROM members WHERE guild_id = ? AND role_count = 0 AND last_active_at < ?
     AND user_id NOT IN (${worldUserIds().join(", ")}) AND user_id <> ? ORDER BY user_id LIMIT ?`,
    guild(),
    BigInt(Date.now() - days * DAY),
    BigInt(server.world.botUserId),
    limit,
  )) as bigint[];
}

/** Members of the demo guild holding exactly `roleCount` roles, not the demo world's named users. */
async function withRoles(roleCount: number, limit: number): Promise<bigint[]> {
  return (await sql.values(
    `SELECT user_id FROM members WHERE guild_id = ? AND role_count = ?
     AND user_id NOT IN (${worldUserIds().join(", ")}) AND user_id <> ? ORDER BY user_id DESC LIMIT ?`,
    guild(),
    roleCount,
    BigInt(server.world.botUserId),
    limit,
  )) as bigint[];
}

/** Users of the demo world who are in neither guild nor banned from the demo guild. */
async function strangers(limit: number): Promise<Array<{ id: bigint; username: string }>> {
  return (await sql.all(
    `SELECT id, username FROM users WHERE bot = FALSE AND username LIKE '%\\_%' ESCAPE '\\'
     AND id NOT IN (SELECT user_id FROM members) AND id NOT IN (SELECT user_id FROM bans) ORDER BY id LIMIT ?`,
    limit,
  )) as Array<{ id: bigint; username: string }>;
}

const roles = () => server.world.roles;

test("the demo world as seeded (on PostgreSQL: as npm run db:copy rebuilt the counts)", async () => {
  expect((await idleWithoutRoles(30, 100)).length).toBeGreaterThan(5);
  await expectCountsExact();
});

test("Add Guild Member: a user joins without roles, another with a role", async () => {
  const [plain, withRole] = await strangers(2);
  for (const [user, body] of [
    [plain, {}],
    [withRole, { roles: [roles().member] }],
  ] as const) {
    const token = await server.tokenFor(user.username, ["guilds.join"]);
    await server
      .rest("bot")
      .put(Routes.guildMember(server.world.guildId, String(user.id)), { body: { access_token: token, ...body } });
  }
  await expectCountsExact();
});

test("Add Guild Member Role to an inactive member without roles, then Remove Guild Member Role", async () => {
  const [target] = await idleWithoutRoles(30, 1);
  const route = Routes.guildMemberRole(server.world.guildId, String(target), roles().member);
  await server.rest("owner").put(route);
  await expectCountsExact();
  await server.rest("owner").delete(route);
  await expectCountsExact();
});

test("Modify Guild Member roles: none to two, two to none, one to another", async () => {
  const [none] = await idleWithoutRoles(30, 1);
  const [two] = await withRoles(2, 1);
  const [one] = await withRoles(1, 1);
  const patch = (userId: bigint, roleIds: string[]) =>
    server.rest("owner").patch(Routes.guildMember(server.world.guildId, String(userId)), { body: { roles: roleIds } });
  await patch(none, [roles().member, roles().regular]);
  await patch(two, []);
  await patch(one, [roles().regular]);
  await expectCountsExact();
});

test("Remove Guild Member (kick) of inactive members, with and without roles", async () => {
  const [idle] = await idleWithoutRoles(30, 1);
  const [holder] = await withRoles(1, 1);
  for (const userId of [idle, holder])
    await server.rest("owner").delete(Routes.guildMember(server.world.guildId, String(userId)));
  await expectCountsExact();
});

test("Create Guild Ban of members with and without roles", async () => {
  const [idle] = await idleWithoutRoles(30, 1);
  const [holder] = await withRoles(2, 1);
  for (const userId of [idle, holder])
    await server.rest("owner").put(Routes.guildBan(server.world.guildId, String(userId)), { body: {} });
  await expectCountsExact();
});

test("Bulk Guild Ban: several members in one statement, with and without roles, and a non-member", async () => {
  const [stranger] = await strangers(1);
  const ids = [...(await idleWithoutRoles(10, 4)), ...(await withRoles(1, 2)), stranger.id].map(String);
  await server.rest("owner").post(Routes.guildBulkBan(server.world.guildId), { body: { user_ids: ids } });
  await expectCountsExact();
});

test("Delete Guild Role: its holders with no other role are left without roles", async () => {
  const holdersOnlyOfIt = Number(
    (await sql.value(
      "SELECT COUNT(*) FROM members m WHERE m.guild_id = ? AND m.role_count = 1 AND EXISTS (SELECT 1 FROM member_roles r WHERE r.guild_id = m.guild_id AND r.user_id = m.user_id AND r.role_id = ?)",
      guild(),
      BigInt(roles().regular),
    )) as bigint,
  );
  expect(holdersOnlyOfIt).toBeGreaterThan(0);
  await server.rest("owner").delete(Routes.guildRole(server.world.guildId, roles().regular));
  await expectCountsExact();
});

test("Begin Guild Prune, with include_roles", async () => {
  const result = (await server.rest("owner").post(Routes.guildPrune(server.world.guildId), {
    body: { days: 30, include_roles: [roles().member] },
  })) as { pruned: number };
  expect(result.pruned).toBeGreaterThan(0);
  await expectCountsExact();
});

test("last activity written directly: across days, within a day, to now; with and without roles; a whole guild", async () => {
  const [a, b, c] = await idleWithoutRoles(1, 3);
  const [holder] = await withRoles(1, 1);
  const move = (userId: bigint, to: bigint) =>
    sql.run("UPDATE members SET last_active_at = ? WHERE guild_id = ? AND user_id = ?", to, guild(), userId);
  const at = (userId: bigint) =>
    sql.value(
      "SELECT last_active_at FROM members WHERE guild_id = ? AND user_id = ?",
      guild(),
      userId,
    ) as Promise<bigint>;
  const midnight = BigInt(Math.floor(Date.now() / DAY) * DAY);
  await move(a, midnight - BigInt(45 * DAY)); // to the first millisecond of a day
  await move(b, (await at(b)) - ((await at(b)) % BigInt(DAY)) + BigInt(DAY - 1)); // the last millisecond of its day
  await move(c, BigInt(Date.now())); // active now
  await move(holder, midnight - BigInt(60 * DAY));
  await expectCountsExact();
  await sql.run(
    "UPDATE members SET last_active_at = last_active_at - ? WHERE guild_id = ?",
    BigInt(3 * DAY),
    sideGuild(),
  );
  await expectCountsExact();
});

test("Begin Guild Prune of more members than one set of statements removes (1,000): all of them, one event each", async () => {
  // 1,100 members without roles in the side guild, inactive 31 to 77 days, inserted in one statement each.
  const first = 8_000_000_000_000_000_000n;
  const count = 1_100;
  const numbers = `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${count - 1})`;
  await sql.run(
    `${numbers} INSERT INTO users (id, username, discriminator, bot, created_at)
     SELECT CAST(? AS BIGINT) + i, 'idle_' || i, '0', FALSE, 0 FROM n`,
    first,
  );
  const now = Date.now();
  await sql.run(
    `${numbers} INSERT INTO members (guild_id, user_id, username_key, joined_at, last_active_at, role_count, status)
     SELECT ?, CAST(? AS BIGINT) + i, 'idle_' || i, 0, CAST(? AS BIGINT) - CAST(i AS BIGINT) * 3600000, 0, 'offline' FROM n`,
    sideGuild(),
    first,
    BigInt(now - 31 * DAY),
  );
  await sql.run("UPDATE guilds SET member_count = member_count + ? WHERE id = ?", count, sideGuild());
  const before = await lastEventId();
  const result = (await server.rest("admin").post(Routes.guildPrune(server.world.sideGuildId), {
    body: { days: 30 },
  })) as { pruned: number };
  expect(result.pruned).toBe(count);
  const removed = (
    (await sql.all(
      "SELECT payload FROM gateway_events WHERE guild_id = ? AND id > ? AND type = 'GUILD_MEMBER_REMOVE'",
      sideGuild(),
      before,
    )) as Array<{ payload: string }>
  ).map((e) => BigInt((JSON.parse(e.payload) as { user: { id: string } }).user.id));
  expect(new Set(removed).size).toBe(count);
  expect(removed.every((id) => id >= first && id < first + BigInt(count))).toBe(true);
  expect(
    await sql.values("SELECT user_id FROM members WHERE guild_id = ? AND user_id >= ?", sideGuild(), first),
  ).toEqual([]);
  expect(await sql.value("SELECT member_count FROM guilds WHERE id = ?", sideGuild())).toBe(3n);
  await expectCountsExact();
});
