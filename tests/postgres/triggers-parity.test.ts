// PostgreSQL's triggers (prisma/postgresql/migrations/…_init) keep what SQLite's keep, with the same results: the
// demo world copied into PostgreSQL, then the same statements written to both databases, step by step, and after
// each step every member's stored wire JSON (compared as JSON, and as bytes: pages concatenate the column), every
// guild's presence_count and whether the guild snapshot's stamp changed are the same on both. And PostgreSQL's own
// per-day counts of members without roles (…_roleless_members_by_day) equal SQLite's members counted by day, and its
// role assignments by join date (…_role_members_by_joined_at) equal SQLite's member_roles joined to members, and its
// members' name keys (…_member_name_keys) equal SQLite's members joined to users, and its per-day counts of members
// by join date (…_members_by_join_day) SQLite's members counted by day.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { copySqliteToPostgresql } from "@/scripts/copy-sqlite-to-postgresql";
import {
  BothDatabases,
  memberNameKeys,
  membersByJoinDay,
  newPostgresDatabase,
  rolelessByDay,
  newSqliteDatabase,
  type Value,
} from "./databases";

interface State {
  members: Array<{ key: string; wire: string }>;
  presence: Record<string, string>;
  generation: string;
}

async function stateOf(both: BothDatabases): Promise<{ sqlite: State; postgres: State }> {
  const members = "SELECT guild_id || ':' || user_id AS key, wire_json AS wire FROM members ORDER BY guild_id, user_id";
  const guilds = "SELECT id, presence_count FROM guilds ORDER BY id";
  const generation = "SELECT value FROM cache_generations WHERE name = 'guilds_roles'";
  const sqlitePresence = both.sqlite.prepare(guilds).all() as Array<{ id: bigint; presence_count: bigint }>;
  const postgresPresence = (await both.postgres.query<{ id: string; presence_count: number }>(guilds)).rows;
  return {
    sqlite: {
      members: both.sqlite.prepare(members).all() as State["members"],
      presence: Object.fromEntries(sqlitePresence.map((g) => [String(g.id), String(g.presence_count)])),
      generation: String((both.sqlite.prepare(generation).get() as { value: bigint }).value),
    },
    postgres: {
      members: (await both.postgres.query<State["members"][number]>(members)).rows,
      presence: Object.fromEntries(postgresPresence.map((g) => [g.id, String(g.presence_count)])),
      generation: (await both.postgres.query<{ value: string }>(generation)).rows[0].value,
    },
  };
}

/**
 * PostgreSQL's role_members_by_joined_at and SQLite's member_roles joined to members, as sorted
 * "guild:user:role:joined_at" rows.
 */
async function roleMembersByJoinedAt(both: BothDatabases): Promise<{ sqlite: string[]; postgres: string[] }> {
  const sqlite = both.sqlite
    .prepare(
      `SELECT r.guild_id || ':' || r.user_id || ':' || r.role_id || ':' || m.joined_at AS row
       FROM member_roles r JOIN members m ON m.guild_id = r.guild_id AND m.user_id = r.user_id`,
    )
    .all() as Array<{ row: string }>;
  const postgres = (
    await both.postgres.query<{ row: string }>(
      "SELECT guild_id || ':' || user_id || ':' || role_id || ':' || joined_at AS row FROM role_members_by_joined_at",
    )
  ).rows;
  return { sqlite: sqlite.map((r) => r.row).sort(), postgres: postgres.map((r) => r.row).sort() };
}

const parsed = (state: State) => state.members.map((m) => ({ key: m.key, member: JSON.parse(m.wire) as unknown }));

let both: BothDatabases;
let guild: bigint;
let sideGuild: bigint;
let roles: bigint[];
/** Two users who are members of the guild from the start. */
let [firstMember, secondMember] = [0n, 0n];

beforeAll(async () => {
  const sqliteFile = newSqliteDatabase();
  const postgresUrl = await newPostgresDatabase();
  await copySqliteToPostgresql({ from: sqliteFile, to: postgresUrl });
  both = await BothDatabases.open(sqliteFile, postgresUrl);
  const guilds = both.sqlite.prepare("SELECT id FROM guilds ORDER BY member_count DESC").all() as Array<{ id: bigint }>;
  [guild, sideGuild] = [guilds[0].id, guilds[1].id];
  roles = (
    both.sqlite.prepare("SELECT id FROM roles WHERE guild_id = ? ORDER BY id").all(guild) as Array<{ id: bigint }>
  ).map((r) => r.id);
  [firstMember, secondMember] = (
    both.sqlite.prepare("SELECT user_id FROM members WHERE guild_id = ? ORDER BY user_id LIMIT 2").all(guild) as Array<{
      user_id: bigint;
    }>
  ).map((m) => m.user_id);
});
afterAll(() => both?.close());

test("PostgreSQL's triggers compute every demo member's wire JSON exactly as SQLite's stored it", async () => {
  // The copy brings SQLite's stored JSON over as it is; rewriting a shown column makes PostgreSQL compute it afresh.
  await both.postgres.query("UPDATE members SET nick = nick");
  const { sqlite, postgres } = await stateOf(both);
  expect(sqlite.members.length).toBeGreaterThan(5);
  expect(parsed(postgres)).toEqual(parsed(sqlite));
  expect(postgres.members).toEqual(sqlite.members);
});

// New rows with ids far above the seed's.
const A = 9_000_000_000_000_000_001n;
const B = 9_000_000_000_000_000_002n;
const C = 9_000_000_000_000_000_003n;
const D = 9_000_000_000_000_000_004n;
const E = 9_000_000_000_000_000_005n;
const F = 9_000_000_000_000_000_006n;
const NEW_ROLE = 9_000_000_000_000_000_100n;
const MEMBER = `INSERT INTO members (guild_id, user_id, nick, nick_key, username_key, avatar, joined_at, premium_since,
  deaf, mute, pending, last_active_at, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const member = (
  guildId: bigint,
  userId: bigint,
  nick: string | null,
  status: string,
  extra: { premium?: bigint | null; deaf?: boolean; pending?: boolean; avatar?: string | null } = {},
): Value[] => [
  guildId,
  userId,
  nick,
  nick?.toLowerCase() ?? null,
  `user-${userId}`,
  extra.avatar ?? null,
  1_700_000_000_123n,
  extra.premium ?? null,
  extra.deaf ?? false,
  false,
  extra.pending ?? false,
  1_700_000_000_000n,
  status,
];

const steps: Array<[string, () => [string, Value[]]]> = [
  [
    "users with quotes, a backslash, a newline, control characters, accents and an emoji in their names",
    () => [
      `INSERT INTO users (id, username, global_name, avatar, banner, public_flags, flags, bot, system, created_at) VALUES
        (?, ?, ?, ?, NULL, 64, 64, ?, ?, 1), (?, ?, NULL, NULL, ?, 0, 0, ?, ?, 1), (?, ?, ?, NULL, NULL, 0, 0, ?, ?, 1),
        (?, ?, ?, NULL, NULL, 0, 0, ?, ?, 1), (?, ?, NULL, NULL, NULL, 0, 0, ?, ?, 1)`,
      [
        A,
        'Zoë "quoted" \\ back',
        "line\nbreak\ttab \u0001 🎉",
        "a1b2",
        false,
        false,
        B,
        "robot",
        "b4nn3r",
        true,
        false,
        C,
        "system",
        "System",
        false,
        true,
        D,
        "dee",
        "Dee / slash",
        false,
        false,
        E,
        "eve",
        false,
        false,
      ],
    ],
  ],
  [
    "an online member with every shown field set",
    () => [
      MEMBER,
      member(guild, A, "Nïck «1»", "online", { premium: 1_710_000_000_999n, deaf: true, pending: true, avatar: "m4v" }),
    ],
  ],
  ["an offline member", () => [MEMBER, member(guild, B, null, "offline")]],
  ["a busy member of the side guild", () => [MEMBER, member(sideGuild, C, null, "dnd")]],
  [
    "two members in one statement, one idle and one offline",
    () => [
      `${MEMBER}, (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [...member(guild, D, "d", "idle"), ...member(guild, E, null, "offline")],
    ],
  ],
  ["the same user in a second guild", () => [MEMBER, member(sideGuild, A, null, "online")]],
  [
    "roles given, several in one statement",
    () => [
      "INSERT INTO member_roles (guild_id, user_id, role_id) VALUES (?, ?, ?), (?, ?, ?), (?, ?, ?)",
      [guild, A, roles[2], guild, A, roles[1], guild, B, roles[1]],
    ],
  ],
  [
    "a role taken",
    () => ["DELETE FROM member_roles WHERE guild_id = ? AND user_id = ? AND role_id = ?", [guild, A, roles[1]]],
  ],
  [
    "a member's join date changed (its role assignments move along)",
    () => ["UPDATE members SET joined_at = joined_at - 86400000 WHERE guild_id = ? AND user_id = ?", [guild, A]],
  ],
  [
    "a role assignment rewritten in place",
    () => [
      "UPDATE member_roles SET role_id = ? WHERE guild_id = ? AND user_id = ? AND role_id = ?",
      [roles[1], guild, A, roles[2]],
    ],
  ],
  [
    "a role given to a user who is not a member of that guild (yet)",
    () => ["INSERT INTO member_roles (guild_id, user_id, role_id) VALUES (?, ?, ?)", [sideGuild, B, roles[1]]],
  ],
  ["that user joins the guild", () => [MEMBER, member(sideGuild, B, null, "offline")]],
  [
    "a nickname removed and the member muted",
    () => [
      "UPDATE members SET nick = NULL, nick_key = NULL, mute = ? WHERE guild_id = ? AND user_id = ?",
      [true, guild, A],
    ],
  ],
  ["online to offline", () => ["UPDATE members SET status = 'offline' WHERE guild_id = ? AND user_id = ?", [guild, A]]],
  ["offline to idle", () => ["UPDATE members SET status = 'idle' WHERE guild_id = ? AND user_id = ?", [guild, B]]],
  [
    "idle to busy (still counted)",
    () => ["UPDATE members SET status = 'dnd' WHERE guild_id = ? AND user_id = ?", [guild, B]],
  ],
  [
    "activity only (nothing shown changes)",
    () => ["UPDATE members SET last_active_at = 1800000000000 WHERE guild_id = ?", [guild]],
  ],
  [
    "every member's status in one statement",
    () => ["UPDATE members SET status = 'online' WHERE guild_id = ? AND status = 'offline'", [guild]],
  ],
  [
    "a user's profile, shown in both guilds",
    () => ["UPDATE users SET username = ?, global_name = NULL, public_flags = 128 WHERE id = ?", ["zoe", A]],
  ],
  ["a system user no longer system", () => ["UPDATE users SET system = ? WHERE id = ?", [false, C]]],
  ["a user's locale (not shown)", () => ["UPDATE users SET locale = 'fr' WHERE id = ?", [D]]],
  [
    "a role counted (no longer without roles)",
    () => ["UPDATE members SET role_count = 1 WHERE guild_id = ? AND user_id = ?", [guild, E]],
  ],
  [
    "a second role (no count changes)",
    () => ["UPDATE members SET role_count = 2 WHERE guild_id = ? AND user_id = ?", [guild, E]],
  ],
  ["back to no roles", () => ["UPDATE members SET role_count = 0 WHERE guild_id = ? AND user_id = ?", [guild, E]]],
  [
    "activity a day later for one member, the same day for another",
    () => [
      "UPDATE members SET last_active_at = last_active_at + CASE WHEN user_id = ? THEN 86400000 ELSE 1 END WHERE guild_id = ? AND user_id IN (?, ?)",
      [E, guild, E, D],
    ],
  ],
  [
    "roles and activity of many members in one statement",
    () => [
      "UPDATE members SET role_count = CASE WHEN role_count = 0 THEN 1 ELSE 0 END, last_active_at = last_active_at - 86400000 * (user_id % 3) WHERE guild_id = ?",
      [guild],
    ],
  ],
  [
    "a member moved to the other guild",
    () => ["UPDATE members SET guild_id = ? WHERE guild_id = ? AND user_id = ?", [sideGuild, guild, D]],
  ],
  [
    "every role of several members taken in one statement",
    () => ["DELETE FROM member_roles WHERE guild_id = ? AND user_id IN (?, ?)", [guild, A, B]],
  ],
  ["a counted member leaves", () => ["DELETE FROM members WHERE guild_id = ? AND user_id = ?", [guild, B]]],
  ["several members leave in one statement", () => ["DELETE FROM members WHERE user_id IN (?, ?, ?)", [A, C, E]]],
  ["a user deleted while still a member", () => ["DELETE FROM users WHERE id = ?", [D]]],
  [
    "that user created again, with other names",
    () => ["INSERT INTO users (id, username, global_name, created_at) VALUES (?, 'dee_again', 'DEE Again', 1)", [D]],
  ],
  ["that user's id changed (its membership keeps the old id)", () => ["UPDATE users SET id = ? WHERE id = ?", [F, D]]],
  [
    "two users' global names swapped in one statement",
    () => [
      "UPDATE users SET global_name = CASE id WHEN ? THEN 'Second' ELSE 'First' END WHERE id IN (?, ?)",
      [firstMember, firstMember, secondMember],
    ],
  ],
  ["a guild renamed", () => ["UPDATE guilds SET name = 'Renamed' WHERE id = ?", [sideGuild]]],
  ["an update matching no guild", () => ["UPDATE guilds SET name = 'Nobody' WHERE id = -1", []]],
  [
    "a role created",
    () => [
      "INSERT INTO roles (id, guild_id, name, permissions, position) VALUES (?, ?, 'new', 0, 99)",
      [NEW_ROLE, guild],
    ],
  ],
  ["a role edited", () => ["UPDATE roles SET color = 255 WHERE id = ?", [NEW_ROLE]]],
  ["a role deleted", () => ["DELETE FROM roles WHERE id = ?", [NEW_ROLE]]],
  [
    "a ban (no guild or role row)",
    () => ["INSERT INTO bans (guild_id, user_id, created_at) VALUES (?, ?, 1)", [guild, E]],
  ],
];

describe("the same statements on both databases keep the same stored state", () => {
  test.each(steps)("%s", async (_name, statement) => {
    const [sql, params] = statement();
    const before = await stateOf(both);
    await both.run(sql, params);
    const { sqlite, postgres } = await stateOf(both);
    expect(parsed(postgres)).toEqual(parsed(sqlite));
    expect(postgres.members).toEqual(sqlite.members);
    expect(postgres.presence).toEqual(sqlite.presence);
    const roleless = await rolelessByDay(both);
    expect(roleless.postgres).toEqual(roleless.sqlite);
    const roleMembers = await roleMembersByJoinedAt(both);
    expect(roleMembers.postgres).toEqual(roleMembers.sqlite);
    const nameKeys = await memberNameKeys(both);
    expect(nameKeys.postgres).toEqual(nameKeys.sqlite);
    const joinDays = await membersByJoinDay(both);
    expect(joinDays.postgres).toEqual(joinDays.sqlite);
    expect({ stampChanged: postgres.generation !== before.postgres.generation }).toEqual({
      stampChanged: sqlite.generation !== before.sqlite.generation,
    });
  });
});

test("a member whose user does not exist is refused by both", async () => {
  await expect(both.run(MEMBER, member(guild, 9_000_000_000_000_000_999n, null, "online"))).rejects.toMatchObject({
    bothRefused: true,
  });
});

test("TRUNCATE members empties PostgreSQL's tables derived from members", async () => {
  const count = async (table: string) =>
    Number((await both.postgres.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
  expect(await count("roleless_members_by_day")).toBeGreaterThan(0);
  expect(await count("member_name_keys")).toBeGreaterThan(0);
  expect(await count("members_by_join_day")).toBeGreaterThan(0);
  await both.postgres.query("TRUNCATE members");
  expect(await count("roleless_members_by_day")).toBe(0);
  expect(await count("member_name_keys")).toBe(0);
  expect(await count("members_by_join_day")).toBe(0);
});

test("TRUNCATE member_roles empties PostgreSQL's role assignments by join date", async () => {
  await both.postgres.query(
    "INSERT INTO role_members_by_joined_at (guild_id, user_id, role_id, joined_at) VALUES (1, 2, 3, 4)",
  );
  await both.postgres.query("TRUNCATE member_roles");
  expect((await both.postgres.query("SELECT * FROM role_members_by_joined_at")).rows).toEqual([]);
});
