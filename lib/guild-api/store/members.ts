// Member reads for the hot paths and member writes. A page of List Guild Members is ONE statement over the members
// primary-key range (keyset on (guild_id, user_id)) that concatenates each member's stored wire JSON (kept by
// triggers, byte-identical to serializeMember; building it per request cost about 3 µs a member, reading it
// a tenth of that). Search is two index ranges over the lower-cased nick and username keys (never LIKE, which
// SQLite cannot serve from an index here), reading the same stored JSON, merged in JS.
import { sql } from "./db";
import { MEMBER_COLUMNS, type MemberRow } from "./guild-context";

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

const SELECT_MEMBER_WITH_USER = `SELECT ${MEMBER_COLUMNS}, u.username, u.global_name, u.discriminator, u.avatar AS user_avatar, u.banner AS user_banner, u.bot, u.system,
  u.flags AS user_flags, u.public_flags,
  (SELECT group_concat(r.role_id) FROM member_roles r WHERE r.guild_id = m.guild_id AND r.user_id = m.user_id) AS role_ids
  FROM members m JOIN users u ON u.id = m.user_id`;

export function findMemberWithUser(guildId: bigint, userId: bigint): MemberWithUserRow | undefined {
  return sql(`${SELECT_MEMBER_WITH_USER} WHERE m.guild_id = ? AND m.user_id = ?`).get(guildId, userId) as
    MemberWithUserRow | undefined;
}

// ── List Guild Members: the page as JSON, read from members.wire_json ───────────────────────────────────────────
// Triggers keep each member's wire JSON in members.wire_json (migration 20261123120000_member_wire_json), with
// the timeout left null; a timeout that still lasts is set here, as toISOString() formats it.
const WIRE_JSON = `CASE WHEN m.communication_disabled_until > @now
  THEN json_set(m.wire_json, '$.communication_disabled_until', strftime('%Y-%m-%dT%H:%M:%fZ', m.communication_disabled_until / 1000.0, 'unixepoch'))
  ELSE m.wire_json END`;
// The LIMIT must sit in the subquery: on the outer aggregate it would limit the single result row, not the scan.
const LIST_PAGE_JSON = `SELECT '[' || coalesce(group_concat(${WIRE_JSON}, ','), '') || ']' FROM
  (SELECT wire_json, communication_disabled_until FROM members WHERE guild_id = @guild_id AND user_id > @after ORDER BY user_id LIMIT @limit) m`;

/** One page of members after `after`, ascending by user id, as the JSON array the API answers. */
export function listMembersPageJson(guildId: bigint, after: bigint, limit: number, now = Date.now()): string {
  return sql(LIST_PAGE_JSON)
    .pluck()
    .get({ guild_id: guildId, after, limit, now: BigInt(now) }) as string;
}

// ── Search Guild Members ───────────────────────────────────────────────────────────────────────────────────────

/** The smallest string greater than every string starting with `prefix`. */
export function prefixUpperBound(prefix: string): string {
  const last = prefix.codePointAt(prefix.length - 1)!;
  return prefix.slice(0, prefix.length - (last > 0xffff ? 2 : 1)) + String.fromCodePoint(last + 1);
}

const searchRange = (key: "nick_key" | "username_key") =>
  `SELECT m.user_id, ${WIRE_JSON} FROM members m
   WHERE m.guild_id = @guild_id AND m.${key} >= @lower AND m.${key} < @upper ORDER BY m.${key} LIMIT @limit`;
const SEARCH_BY_NICK = searchRange("nick_key");
const SEARCH_BY_USERNAME = searchRange("username_key");

/**
 * Members whose lower-cased nick or username starts with `query`, as the JSON array the API answers: two index
 * range scans over members(guild_id, nick_key) and members(guild_id, username_key), each stopping at `limit`
 * (the second skipped when the first fills the page); nick matches first, then username matches, each in key
 * order, without duplicates.
 */
export function searchMembersJson(guildId: bigint, query: string, limit: number, now = Date.now()): string {
  const lower = query.toLowerCase();
  const params = { guild_id: guildId, lower, upper: prefixUpperBound(lower), limit, now: BigInt(now) };
  const byNick = sql(SEARCH_BY_NICK).raw(true).all(params) as Array<[bigint, string]>;
  const byName =
    byNick.length >= limit ? [] : (sql(SEARCH_BY_USERNAME).raw(true).all(params) as Array<[bigint, string]>);
  const seen = new Set<bigint>();
  const page: string[] = [];
  for (const [userId, json] of [...byNick, ...byName]) {
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
export function updateMemberFields(guildId: bigint, userId: bigint, fields: MemberFields): void {
  sql(
    `UPDATE members SET nick = @nick, nick_key = @nick_key, mute = @mute, deaf = @deaf, flags = @flags,
     communication_disabled_until = @cdu, avatar = @avatar, banner = @banner WHERE guild_id = @guild_id AND user_id = @user_id`,
  ).run({
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
  });
}

export interface VoiceStateRow {
  guild_id: bigint;
  user_id: bigint;
  channel_id: bigint;
  session_id: string;
  self_mute: bigint;
  self_deaf: bigint;
  self_video: bigint;
  self_stream: bigint;
  suppress: bigint;
}

export function findVoiceState(guildId: bigint, userId: bigint): VoiceStateRow | undefined {
  return sql("SELECT * FROM voice_states WHERE guild_id = ? AND user_id = ?").get(guildId, userId) as
    VoiceStateRow | undefined;
}

export function moveVoiceState(guildId: bigint, userId: bigint, channelId: bigint): void {
  sql("UPDATE voice_states SET channel_id = ? WHERE guild_id = ? AND user_id = ?").run(channelId, guildId, userId);
}

export function deleteVoiceState(guildId: bigint, userId: bigint): void {
  sql("DELETE FROM voice_states WHERE guild_id = ? AND user_id = ?").run(guildId, userId);
}

export function isBanned(guildId: bigint, userId: bigint): boolean {
  return Boolean(sql("SELECT 1 FROM bans WHERE guild_id = ? AND user_id = ?").get(guildId, userId));
}

export function userExists(userId: bigint): boolean {
  return Boolean(sql("SELECT 1 FROM users WHERE id = ?").get(userId));
}
