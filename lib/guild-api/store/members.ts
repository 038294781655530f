// The members table: the member row (read through the read cache: every guild request reads the caller's), reads for
// the hot paths, and member writes. A page of List Guild Members is ONE statement over the members primary-key range
// (keyset on (guild_id, user_id)) that concatenates each member's stored wire JSON (kept by triggers, byte-identical to
// serializeMember; building it per request cost about 3 µs a member, reading it a tenth of that). Search is two index
// ranges over the lower-cased nick and username keys (never LIKE, which SQLite cannot serve from an index here),
// reading the same stored JSON, merged in JS.
import { sql, storeOnPostgresql } from "./db";
import { dialect } from "./dialect";
import type { MaybePromise } from "../maybe-promise";
import { readCache } from "./read-cache";
import { idListJson, idsInJson, USER_COLUMNS_OF_U, type UserRow } from "./users";

export interface MemberRow {
  guild_id: bigint;
  user_id: bigint;
  nick: string | null;
  avatar: string | null;
  banner: string | null;
  joined_at: bigint;
  premium_since: bigint | null;
  deaf: bigint;
  mute: bigint;
  flags: bigint;
  pending: bigint;
  communication_disabled_until: bigint | null;
  last_active_at: bigint;
  role_count: bigint;
  status: string;
}

const MEMBER_COLUMNS =
  "m.guild_id, m.user_id, m.nick, m.avatar, m.banner, m.joined_at, m.premium_since, m.deaf, m.mute, m.flags, m.pending, m.communication_disabled_until, m.last_active_at, m.role_count, m.status";

const memberKey = (guildId: bigint, userId: bigint) => `${guildId}:${userId}`;
const splitKey = (key: string) => key.split(":").map(BigInt) as [bigint, bigint];

const cachedMember = readCache(async (key: string) => {
  const [guildId, userId] = splitKey(key);
  return (await sql.get(
    `SELECT ${MEMBER_COLUMNS} FROM members m WHERE m.guild_id = ? AND m.user_id = ?`,
    guildId,
    userId,
  )) as MemberRow | undefined;
});

/** The member row, through the read cache. */
export function findMember(guildId: bigint, userId: bigint): MaybePromise<Readonly<MemberRow> | undefined> {
  return cachedMember(memberKey(guildId, userId));
}

/** Whether `userId` is a member, read now (not through the cache: for checks inside a write). */
export async function isMember(guildId: bigint, userId: bigint): Promise<boolean> {
  return Boolean(await sql.get("SELECT 1 FROM members WHERE guild_id = ? AND user_id = ?", guildId, userId));
}

/** A member row with its user's columns (prefixed where they collide with the member's) and role ids. */
export interface MemberWithUserRow extends MemberRow {
  username: string;
  global_name: string | null;
  discriminator: string;
  user_avatar: string | null;
  user_banner: string | null;
  bot: bigint;
  system: bigint;
  user_flags: bigint;
  public_flags: bigint;
  /** comma-separated role ids, or null for none */
  role_ids: string | null;
}

/**
 * The member's role ids in id order, comma-separated (null for none), as a column of a statement over members aliased
 * `m`. SQLite's group_concat follows the primary key it walks; PostgreSQL's string_agg keeps no order unless told (on
 * main 49120ee, members.test.ts found Get Guild Member's roles out of id order on PostgreSQL).
 */
const roleIdsOfM = () =>
  dialect({
    sqlite:
      "(SELECT group_concat(r.role_id) FROM member_roles r WHERE r.guild_id = m.guild_id AND r.user_id = m.user_id) AS role_ids",
    postgresql:
      "(SELECT string_agg(CAST(r.role_id AS TEXT), ',' ORDER BY r.role_id) FROM member_roles r WHERE r.guild_id = m.guild_id AND r.user_id = m.user_id) AS role_ids",
  });

const selectMemberWithUser =
  () => `SELECT ${MEMBER_COLUMNS}, u.username, u.global_name, u.discriminator, u.avatar AS user_avatar, u.banner AS user_banner, u.bot, u.system,
  u.flags AS user_flags, u.public_flags,
  ${roleIdsOfM()}
  FROM members m JOIN users u ON u.id = m.user_id`;

export async function findMemberWithUser(guildId: bigint, userId: bigint): Promise<MemberWithUserRow | undefined> {
  return (await sql.get(`${selectMemberWithUser()} WHERE m.guild_id = ? AND m.user_id = ?`, guildId, userId)) as
    MemberWithUserRow | undefined;
}

/**
 * The member row with its stored wire JSON (members.wire_json, below): one primary-key read where findMemberWithUser
 * also joins users and member_roles (measured on the 1M-member guild: about 35 µs against 145 µs).
 */
export async function findMemberWire(
  guildId: bigint,
  userId: bigint,
): Promise<(MemberRow & { wire_json: string }) | undefined> {
  return (await sql.get(
    `SELECT ${MEMBER_COLUMNS}, m.wire_json FROM members m WHERE m.guild_id = ? AND m.user_id = ?`,
    guildId,
    userId,
  )) as (MemberRow & { wire_json: string }) | undefined;
}

/** Starts or ends a timeout: the one column, which neither the wire-JSON nor the name triggers watch. */
export async function updateMemberTimeout(guildId: bigint, userId: bigint, until: number | null): Promise<void> {
  await sql.run(
    "UPDATE members SET communication_disabled_until = ? WHERE guild_id = ? AND user_id = ?",
    until === null ? null : BigInt(until),
    guildId,
    userId,
  );
}

// ── List Guild Members: the page as JSON, read from members.wire_json ───────────────────────────────────────────
// Triggers keep each member's wire JSON in members.wire_json (migration 20261123120000_member_wire_json), with
// the timeout left null; a timeout that still lasts is set here, as toISOString() formats it. On PostgreSQL the stored
// text's one `"communication_disabled_until":null` is replaced (jsonb would reorder and respace the object).
const WIRE_JSON_SQLITE = `CASE WHEN m.communication_disabled_until > @now
  THEN json_set(m.wire_json, '$.communication_disabled_until', strftime('%Y-%m-%dT%H:%M:%fZ', m.communication_disabled_until / 1000.0, 'unixepoch'))
  ELSE m.wire_json END`;
const WIRE_JSON_POSTGRESQL = `CASE WHEN m.communication_disabled_until > @now
  THEN replace(m.wire_json, '"communication_disabled_until":null',
    '"communication_disabled_until":"' || guildhall_iso_time(m.communication_disabled_until) || '"')
  ELSE m.wire_json END`;
/** A member's wire JSON with a lasting timeout set, from members aliased `m` (parameter @now: ms). */
export const memberWireJson = () => dialect({ sqlite: WIRE_JSON_SQLITE, postgresql: WIRE_JSON_POSTGRESQL });
// The LIMIT must sit in the subquery: on the outer aggregate it would limit the single result row, not the scan.
// The page comes back as a BLOB: its UTF-8 bytes go to the socket as they are (a page of 100 is about 50 KB; as a
// string it was decoded into V8 and encoded again on write, measured at about a fifth of the request's CPU).
// With the page, the earliest end of a timeout it shows: the page is valid until then.
const LIST_PAGE_JSON_SQLITE = `SELECT CAST('[' || coalesce(group_concat(${WIRE_JSON_SQLITE}, ','), '') || ']' AS BLOB),
  min(CASE WHEN m.communication_disabled_until > @now THEN m.communication_disabled_until END) FROM
  (SELECT wire_json, communication_disabled_until FROM members WHERE guild_id = @guild_id AND user_id > @after ORDER BY user_id LIMIT @limit) m`;
// PostgreSQL's string_agg keeps no order of its input unless told; bytea reads back as a Buffer.
const LIST_PAGE_JSON_POSTGRESQL = `SELECT convert_to('[' || coalesce(string_agg(${WIRE_JSON_POSTGRESQL}, ',' ORDER BY m.user_id), '') || ']', 'UTF8'),
  min(CASE WHEN m.communication_disabled_until > @now THEN m.communication_disabled_until END) FROM
  (SELECT user_id, wire_json, communication_disabled_until FROM members WHERE guild_id = @guild_id AND user_id > @after ORDER BY user_id LIMIT @limit) m`;

interface MembersPage {
  json: Buffer;
  /** When the first timeout shown ends (ms), after which the page reads differently without any write. */
  validUntil: number;
}

/**
 * Pages recently asked for (a dashboard's, a bot's polling), kept in the read cache: any write from any connection
 * empties it, and a page is read again once a timeout it shows has ended. At most 64 pages (about 3 MB for pages of
 * 100): a client walking the whole member list only cycles them.
 */
const cachedMembersPage = readCache(
  async (key: string): Promise<MembersPage> => {
    const [guildId, after, limit] = key.split(":").map(BigInt);
    const now = Date.now();
    const [json, firstTimeoutEnd] = (await sql.row(
      dialect({ sqlite: LIST_PAGE_JSON_SQLITE, postgresql: LIST_PAGE_JSON_POSTGRESQL }),
      {
        guild_id: guildId,
        after,
        limit,
        now: BigInt(now),
      },
    )) as [Buffer, bigint | null];
    return { json, validUntil: firstTimeoutEnd === null ? Infinity : Number(firstTimeoutEnd) };
  },
  { maxEntries: 64, validUntil: (page) => page.validUntil },
);

/** One page of members after `after`, ascending by user id, as the UTF-8 bytes of the JSON array the API answers. */
export async function listMembersPageJson(guildId: bigint, after: bigint, limit: number): Promise<Buffer> {
  return (await cachedMembersPage(`${guildId}:${after}:${limit}`)).json;
}

// ── Search Guild Members ───────────────────────────────────────────────────────────────────────────────────────

/** The smallest string greater than every string starting with `prefix`. */
export function prefixUpperBound(prefix: string): string {
  const last = prefix.codePointAt(prefix.length - 1)!;
  return prefix.slice(0, prefix.length - (last > 0xffff ? 2 : 1)) + String.fromCodePoint(last + 1);
}

/**
 * One name range of Search Guild Members: `part` 0 for nicknames, 1 for usernames (nicknames come first); at most
 * `limit` members, the SQL given.
 */
const searchRange = (key: "nick_key" | "username_key", part: number, limit = "@limit") =>
  `SELECT ${part} AS part, m.${key} AS name_key, m.user_id, ${memberWireJson()} AS json FROM members m
   WHERE m.guild_id = @guild_id AND m.${key} >= @lower AND m.${key} < @upper ORDER BY m.${key}, m.user_id LIMIT ${limit}`;

/**
 * PostgreSQL: both ranges in one statement (one round trip), in the order SQLite's two statements give them. As
 * there, usernames are read only when the nicknames do not fill the page: counting those is an index-only range.
 */
const searchBothRanges = () => {
  const nicknamesFill = `(SELECT count(*) FROM (SELECT 1 FROM members WHERE guild_id = @guild_id AND nick_key >= @lower
     AND nick_key < @upper LIMIT @limit) AS nicknames) >= @limit`;
  return `SELECT * FROM ((${searchRange("nick_key", 0)})
   UNION ALL (${searchRange("username_key", 1, `CASE WHEN ${nicknamesFill} THEN 0 ELSE @limit END`)})) AS found
   ORDER BY part, name_key, user_id`;
};

type Found = [part: bigint, nameKey: string, userId: bigint, json: string];

/**
 * Members whose lower-cased nick or username starts with `query`, as the JSON array the API answers: two index
 * range scans over members(guild_id, nick_key) and members(guild_id, username_key), each stopping at `limit`
 * (on SQLite the second is skipped when the first fills the page; on PostgreSQL both are one statement); nick matches
 * first, then username matches, each in key order, without duplicates.
 */
export async function searchMembersJson(
  guildId: bigint,
  query: string,
  limit: number,
  now = Date.now(),
): Promise<string> {
  const lower = query.toLowerCase();
  const params = { guild_id: guildId, lower, upper: prefixUpperBound(lower), limit, now: BigInt(now) };
  let found: Found[];
  if (storeOnPostgresql()) found = (await sql.rows(searchBothRanges(), params)) as Found[];
  else {
    found = (await sql.rows(searchRange("nick_key", 0), params)) as Found[];
    if (found.length < limit) found = found.concat((await sql.rows(searchRange("username_key", 1), params)) as Found[]);
  }
  const seen = new Set<bigint>();
  const page: string[] = [];
  for (const [, , userId, json] of found) {
    if (seen.has(userId)) continue;
    seen.add(userId);
    page.push(json);
    if (page.length === limit) break;
  }
  return `[${page.join(",")}]`;
}

export function splitRoleIds(roleIds: string | null): bigint[] {
  return roleIds ? roleIds.split(",").map(BigInt) : [];
}

// ── Writes ─────────────────────────────────────────────────────────────────────────────────────────────────────

export interface MemberFields {
  nick: string | null;
  mute: boolean;
  deaf: boolean;
  flags: number;
  communicationDisabledUntil: number | null;
  avatar: string | null;
  banner: string | null;
}

/** Writes a member's editable fields; nick_key follows nick so search stays in step. */
export async function updateMemberFields(guildId: bigint, userId: bigint, fields: MemberFields): Promise<void> {
  await sql.run(
    `UPDATE members SET nick = @nick, nick_key = @nick_key, mute = @mute, deaf = @deaf, flags = @flags,
     communication_disabled_until = @cdu, avatar = @avatar, banner = @banner WHERE guild_id = @guild_id AND user_id = @user_id`,
    {
      guild_id: guildId,
      user_id: userId,
      nick: fields.nick,
      nick_key: fields.nick?.toLowerCase() ?? null,
      mute: fields.mute ? 1 : 0,
      deaf: fields.deaf ? 1 : 0,
      flags: fields.flags,
      cdu: fields.communicationDisabledUntil === null ? null : BigInt(fields.communicationDisabledUntil),
      avatar: fields.avatar,
      banner: fields.banner,
    },
  );
}

export interface NewMemberRow {
  guildId: bigint;
  userId: bigint;
  username: string;
  nick: string | null;
  roleCount: number;
  mute: boolean;
  deaf: boolean;
  pending: boolean;
  flags: number;
  now: bigint;
}

export async function insertMemberRow(member: NewMemberRow): Promise<void> {
  await sql.run(
    `INSERT INTO members (guild_id, user_id, nick, nick_key, username_key, joined_at, last_active_at, role_count, mute, deaf, pending, flags, status)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'offline')`,
    member.guildId,
    member.userId,
    member.nick,
    member.nick?.toLowerCase() ?? null,
    member.username.toLowerCase(),
    member.now,
    member.now,
    member.roleCount,
    member.mute ? 1 : 0,
    member.deaf ? 1 : 0,
    member.pending ? 1 : 0,
    member.flags,
  );
}

/** Sets a member's flags (the wire JSON's trigger follows). */
export async function setMemberFlags(guildId: bigint, userId: bigint, flags: number): Promise<void> {
  await sql.run("UPDATE members SET flags = ? WHERE guild_id = ? AND user_id = ?", flags, guildId, userId);
}

/** The guild's members holding the member flag `flag`. */
export async function listMemberIdsWithFlag(guildId: bigint, flag: number): Promise<bigint[]> {
  const rows = (await sql.all(
    "SELECT user_id FROM members WHERE guild_id = ? AND (flags & ?) <> 0 ORDER BY user_id",
    guildId,
    flag,
  )) as Array<{ user_id: bigint }>;
  return rows.map((row) => row.user_id);
}

/** False when they were not a member. */
export async function deleteMemberRow(guildId: bigint, userId: bigint): Promise<boolean> {
  return (await sql.run("DELETE FROM members WHERE guild_id = ? AND user_id = ?", guildId, userId)).changes > 0;
}

/** Deletes the listed users' member rows in one statement; answers the ids that were members. */
export async function deleteMemberRows(guildId: bigint, userIds: readonly bigint[]): Promise<bigint[]> {
  return (await sql.values(
    `DELETE FROM members WHERE guild_id = ? AND user_id IN (${idsInJson()}) RETURNING user_id`,
    guildId,
    idListJson(userIds),
  )) as bigint[];
}

/** role_count mirrors the member's member_roles rows (the prune index reads it). */
export async function setMemberRoleCount(guildId: bigint, userId: bigint, roleCount: number): Promise<void> {
  await sql.run("UPDATE members SET role_count = ? WHERE guild_id = ? AND user_id = ?", roleCount, guildId, userId);
}

/** Moves role_count by `delta` (one role given or taken). */
export async function addToMemberRoleCount(guildId: bigint, userId: bigint, delta: 1 | -1): Promise<void> {
  await sql.run(
    "UPDATE members SET role_count = role_count + ? WHERE guild_id = ? AND user_id = ?",
    delta,
    guildId,
    userId,
  );
}

/** Takes one off role_count of every member holding `roleId` (before its member_roles rows are deleted). */
export async function decrementRoleCountOfHolders(guildId: bigint, roleId: bigint): Promise<void> {
  await sql.run(
    "UPDATE members SET role_count = role_count - 1 WHERE guild_id = ? AND user_id IN (SELECT user_id FROM member_roles WHERE guild_id = ? AND role_id = ?)",
    guildId,
    guildId,
    roleId,
  );
}

/** Ends membership screening; false when the member was not pending. */
export async function clearMemberPending(guildId: bigint, userId: bigint): Promise<boolean> {
  return (
    (
      await sql.run(
        "UPDATE members SET pending = FALSE WHERE guild_id = ? AND user_id = ? AND pending = TRUE",
        guildId,
        userId,
      )
    ).changes > 0
  );
}

// ── Counts ─────────────────────────────────────────────────────────────────────────────────────────────────────

/** How many guilds `userId` is a member of. */
export async function countGuildsOfUser(userId: bigint): Promise<number> {
  return Number((await sql.value("SELECT COUNT(*) FROM members WHERE user_id = ?", userId)) as bigint);
}

// ── Role hierarchy targets (bans) ──────────────────────────────────────────────────────────────────────────────

/** A member's user id with their role ids (comma-separated, null for none): all the hierarchy needs. */
export interface MemberRoleIdsRow {
  user_id: bigint;
  role_ids: string | null;
}
const memberWithRoleIds = () => `SELECT m.user_id, ${roleIdsOfM()} FROM members m`;

export async function findMemberRoleIds(guildId: bigint, userId: bigint): Promise<MemberRoleIdsRow | undefined> {
  return (await sql.get(`${memberWithRoleIds()} WHERE m.guild_id = ? AND m.user_id = ?`, guildId, userId)) as
    MemberRoleIdsRow | undefined;
}

/** The members among `userIds`, each with role ids, in one statement. */
export async function listMembersRoleIds(
  guildId: bigint,
  userIds: readonly (bigint | string)[],
): Promise<MemberRoleIdsRow[]> {
  return (await sql.all(
    `${memberWithRoleIds()} WHERE m.guild_id = ? AND m.user_id IN (${idsInJson()})`,
    guildId,
    idListJson(userIds),
  )) as MemberRoleIdsRow[];
}

// ── Prune ──────────────────────────────────────────────────────────────────────────────────────────────────────
// Driven by the index members(guild_id, role_count, last_active_at): role_count = 0 is one covering range count; with
// k listed roles, the range role_count IN (1..k) AND last_active_at < cutoff gives the candidates, and a candidate is
// kept when the number of its roles found among the listed ones (member_roles primary key lookups) equals its
// role_count.

// Role counts 1..k as literals: the index then walks k ranges (role_count = i AND last_active_at < cutoff).
const roleCountList = (k: number) => Array.from({ length: k }, (_, i) => i + 1).join(", ");
const placeholders = (k: number) => Array.from({ length: k }, () => "?").join(", ");
// On PostgreSQL the same rule as "no role outside the listed ones" (role_count > 0 and role_count mirroring member_roles
// make it equivalent): an anti join, which PostgreSQL can run as one hash join over the guild's other role
// assignments, where the count per candidate ran a subquery per candidate row (1M members, two listed roles, 52,000
// candidates: 180–260 ms against SQLite's 75 ms; this 58–70 ms). Same parameters in the same order.
const subsetCondition = (k: number) =>
  dialect({
    sqlite: `m.guild_id = ? AND m.role_count IN (${roleCountList(k)}) AND m.last_active_at < ?
   AND m.role_count = (SELECT COUNT(*) FROM member_roles r WHERE r.guild_id = m.guild_id AND r.user_id = m.user_id AND r.role_id IN (${placeholders(k)}))`,
    postgresql: `m.guild_id = ? AND m.role_count IN (${roleCountList(k)}) AND m.last_active_at < ?
   AND NOT EXISTS (SELECT 1 FROM member_roles r WHERE r.guild_id = m.guild_id AND r.user_id = m.user_id AND r.role_id NOT IN (${placeholders(k)}))`,
  });

// On PostgreSQL the members without roles are also counted per guild and UTC day of last activity, by triggers
// (roleless_members_by_day, migration 20261126013000_roleless_members_by_day): the count for a cutoff is the sum of
// the days wholly before the cutoff's day, a few hundred rows, plus the index range within that day. Counting the
// range entry by entry is O(members) on both engines, and PostgreSQL's executor spends about three times SQLite's
// time per entry (100,000 members, ~20,000 entries: 3.9 ms against SQLite's ~1 ms; this statement 0.3 ms).
const ROLELESS_INACTIVE_SQLITE =
  "SELECT COUNT(*) FROM members WHERE guild_id = ? AND role_count = 0 AND last_active_at < ?";
const ROLELESS_INACTIVE_POSTGRESQL = `SELECT
  (SELECT coalesce(sum(member_count), 0) FROM roleless_members_by_day
   WHERE guild_id = @guild_id AND day < guildhall_utc_day(@cutoff))
  + (SELECT COUNT(*) FROM members WHERE guild_id = @guild_id AND role_count = 0
     AND last_active_at >= guildhall_utc_day(@cutoff) * CAST(86400000 AS BIGINT) AND last_active_at < @cutoff)`;

/** Members without roles inactive since before `cutoff`. */
async function countRolelessInactiveMembers(guildId: bigint, cutoff: bigint): Promise<number> {
  // The PostgreSQL text names its parameters (each is used twice); SQLite's statement is kept as it was.
  const count = storeOnPostgresql()
    ? await sql.value(ROLELESS_INACTIVE_POSTGRESQL, { guild_id: guildId, cutoff })
    : await sql.value(ROLELESS_INACTIVE_SQLITE, guildId, cutoff);
  return Number(count as bigint);
}

/** Members inactive since before `cutoff` with no roles, or (with `roleIds`) only roles among them. */
export async function countInactiveMembers(
  guildId: bigint,
  cutoff: bigint,
  roleIds: readonly bigint[],
): Promise<number> {
  let count = await countRolelessInactiveMembers(guildId, cutoff);
  const k = roleIds.length;
  if (k > 0)
    count += Number(
      (await sql.value(
        `SELECT COUNT(*) FROM members m WHERE ${subsetCondition(k)}`,
        guildId,
        cutoff,
        ...roleIds,
      )) as bigint,
    );
  return count;
}

/** The users countInactiveMembers counts. */
export async function listInactiveMembersUsers(
  guildId: bigint,
  cutoff: bigint,
  roleIds: readonly bigint[],
): Promise<UserRow[]> {
  const users = (await sql.all(
    `SELECT ${USER_COLUMNS_OF_U} FROM members m JOIN users u ON u.id = m.user_id WHERE m.guild_id = ? AND m.role_count = 0 AND m.last_active_at < ?`,
    guildId,
    cutoff,
  )) as UserRow[];
  const k = roleIds.length;
  if (k > 0)
    users.push(
      ...((await sql.all(
        `SELECT ${USER_COLUMNS_OF_U} FROM members m JOIN users u ON u.id = m.user_id WHERE ${subsetCondition(k)}`,
        guildId,
        cutoff,
        ...roleIds,
      )) as UserRow[]),
    );
  return users;
}

// ── Widget ─────────────────────────────────────────────────────────────────────────────────────────────────────

export interface WidgetMemberRow {
  username: string;
  status: string;
  channel_id: bigint | null;
  self_mute: bigint | null;
  self_deaf: bigint | null;
  suppress: bigint | null;
  mute: bigint;
  deaf: bigint;
}

/** Up to `limit` members who are not offline, by username, with their voice state if any. */
export async function listWidgetMembers(guildId: bigint, limit: number): Promise<WidgetMemberRow[]> {
  return (await sql.all(
    `SELECT u.username, m.status, v.channel_id, v.self_mute, v.self_deaf, v.suppress, m.mute, m.deaf
     FROM members m JOIN users u ON u.id = m.user_id LEFT JOIN voice_states v ON v.guild_id = m.guild_id AND v.user_id = m.user_id
     WHERE m.guild_id = ? AND m.status IN ('online', 'idle', 'dnd') ORDER BY m.username_key, m.user_id LIMIT ?`,
    guildId,
    limit,
  )) as WidgetMemberRow[];
}
