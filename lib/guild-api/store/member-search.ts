// Search Guild Members v2 in SQL, for guilds of a million members. A search is two statements built from the
// filters: one page (keyset on the sort's index, LIMIT in SQL, each member's stored wire JSON) and one count.
//
// What serves each part (migration 20261125141300_members):
// - sorts: members(guild_id, joined_at, user_id) for "member since", the primary key (guild_id, user_id) for "joined
//   Discord" (a snowflake orders by creation time), members(guild_id, username_key) for usernames;
// - filters that select few members are index ranges the planner can drive from: timed out (a partial index on
//   communication_disabled_until), pending (partial), bots (a partial index on users), account age (a user-id
//   range), joined within (joined_at), roles (member_roles(guild_id, role_id)), no roles (role_count);
// - a name substring of 3+ characters is a trigram full-text match (user_name_trigrams: one row per user holding
//   the username, global name and every nickname, kept by triggers), then checked against this guild's names;
//   shorter text matches the start of a name through the username, nickname and global-name indexes.
// Statements are built per filter shape and cached per connection, at most STATEMENT_CACHE_MAX of them.
import type { MemberSearchSort } from "@/lib/discord/member-search";
import { MEMBER_SEARCH_V2_SUBSTRING_MIN, MemberSearchSort as Sort } from "@/lib/discord/member-search";
import { snowflakeAt } from "@/lib/discord/snowflake";
import { db, type Db, type Statement } from "./db";
import { prefixUpperBound } from "./members";

export interface SearchRange {
  gte?: number;
  lte?: number;
}

/** One filter object (`and_query` or `or_query`), already validated. */
export interface SearchFilter {
  user_id?: { or_query?: string[]; range?: { gte?: string; lte?: string } };
  usernames?: { or_query: string[] };
  role_ids?: { and_query?: string[]; or_query?: string[] };
  guild_joined_at?: { range: SearchRange };
  safety_signals?: {
    communication_disabled_until?: { range: SearchRange };
    unusual_dm_activity_until?: { range: SearchRange };
    unusual_account_activity?: boolean;
    automod_quarantined_username?: boolean;
  };
  is_pending?: boolean;
  join_source_type?: { or_query: number[] };
  source_invite_code?: { or_query: string[] };
  query?: string;
  is_bot?: boolean;
  has_no_roles?: boolean;
  user_created_at?: { range: SearchRange };
}

export interface SearchCursor {
  guild_joined_at?: number;
  user_id: string;
  username?: string;
}

export interface MemberSearch {
  guildId: bigint;
  and?: SearchFilter;
  or?: SearchFilter;
  sort: MemberSearchSort;
  limit: number;
  after?: SearchCursor;
  before?: SearchCursor;
  now?: number;
}

export interface MemberSearchPage {
  /** Each member's wire JSON, in sort order. */
  members: string[];
  total: number;
}

// ── Building the WHERE clause ──────────────────────────────────────────────────────────────────────────────────

/** SQL terms with their named parameters; terms are ANDed (or ORed) by the caller. */
class Terms {
  readonly list: string[] = [];
  constructor(
    private readonly params: Record<string, unknown>,
    private readonly counter: { next: number },
  ) {}

  param(value: unknown): string {
    const name = `p${this.counter.next++}`;
    this.params[name] = value;
    return `@${name}`;
  }

  add(term: string): void {
    this.list.push(term);
  }
}

const NOTHING = "0";
const json = (values: readonly (string | number)[]) => `[${values.join(",")}]`;

function rangeTerms(terms: Terms, column: string, range: { gte?: unknown; lte?: unknown }): void {
  if (range.gte !== undefined) terms.add(`${column} >= ${terms.param(range.gte)}`);
  if (range.lte !== undefined) terms.add(`${column} <= ${terms.param(range.lte)}`);
}

/** The text's start in the username, nickname or global name: three index ranges. */
function namePrefix(terms: Terms, text: string): string {
  const lower = text.toLowerCase();
  const lo = terms.param(lower);
  const hi = terms.param(prefixUpperBound(lower));
  return `((m.username_key >= ${lo} AND m.username_key < ${hi}) OR (m.nick_key >= ${lo} AND m.nick_key < ${hi})
    OR m.user_id IN (SELECT id FROM users WHERE lower(global_name) >= ${lo} AND lower(global_name) < ${hi}))`;
}

/** FTS5 phrase syntax: the text in double quotes, its own quotes doubled. */
const ftsPhrase = (text: string) => `"${text.replaceAll('"', '""')}"`;

/**
 * The text anywhere in the username, nickname or global name. The trigram index answers users whose names (in any
 * guild) contain it; the check that follows keeps those whose names in this guild do.
 */
function nameSubstring(terms: Terms, text: string): string {
  if ([...text].length < MEMBER_SEARCH_V2_SUBSTRING_MIN) return namePrefix(terms, text);
  const lower = terms.param(text.toLowerCase());
  return `(m.user_id IN (SELECT rowid FROM user_name_trigrams WHERE user_name_trigrams MATCH ${terms.param(ftsPhrase(text))})
    AND (instr(m.username_key, ${lower}) > 0 OR instr(coalesce(m.nick_key, ''), ${lower}) > 0
      OR instr(lower(coalesce((SELECT global_name FROM users WHERE id = m.user_id), '')), ${lower}) > 0))`;
}

const roleMembers = (terms: Terms, guild: string, roleId: string) =>
  `m.user_id IN (SELECT user_id FROM member_roles WHERE guild_id = ${guild} AND role_id = ${terms.param(BigInt(roleId))})`;

/** The terms of one filter object; every field is one condition. */
function filterTerms(filter: SearchFilter, terms: Terms, guild: string, now: string): void {
  if (filter.user_id?.or_query)
    terms.add(
      filter.user_id.or_query.length === 0
        ? NOTHING
        : `m.user_id IN (SELECT value FROM json_each(${terms.param(json(filter.user_id.or_query))}))`,
    );
  if (filter.user_id?.range) {
    const { gte, lte } = filter.user_id.range;
    rangeTerms(terms, "m.user_id", {
      gte: gte === undefined ? undefined : BigInt(gte),
      lte: lte === undefined ? undefined : BigInt(lte),
    });
  }
  if (filter.usernames) {
    const prefixes = filter.usernames.or_query.map((text) => namePrefix(terms, text));
    terms.add(`(${prefixes.join(" OR ")})`);
  }
  if (filter.role_ids?.or_query) {
    const ids = filter.role_ids.or_query;
    terms.add(
      ids.length === 0
        ? "m.role_count = 0"
        : ids.length === 1
          ? roleMembers(terms, guild, ids[0])
          : `m.user_id IN (SELECT user_id FROM member_roles WHERE guild_id = ${guild} AND role_id IN (SELECT value FROM json_each(${terms.param(json(ids))})))`,
    );
  }
  if (filter.role_ids?.and_query) for (const id of filter.role_ids.and_query) terms.add(roleMembers(terms, guild, id));
  if (filter.guild_joined_at) rangeTerms(terms, "m.joined_at", filter.guild_joined_at.range);
  const signals = filter.safety_signals;
  if (signals?.communication_disabled_until) {
    // A timeout that has ended is no timeout.
    terms.add(`m.communication_disabled_until > ${now}`);
    rangeTerms(terms, "m.communication_disabled_until", signals.communication_disabled_until.range);
  }
  // Guildhall keeps none of these signals: nobody has them.
  if (signals?.unusual_dm_activity_until) terms.add(NOTHING);
  if (signals?.unusual_account_activity !== undefined) terms.add(signals.unusual_account_activity ? NOTHING : "1");
  if (signals?.automod_quarantined_username !== undefined)
    terms.add(signals.automod_quarantined_username ? NOTHING : "1");
  if (filter.is_pending !== undefined) terms.add(filter.is_pending ? "m.pending = 1" : "m.pending = 0");
  // How a member joined is not recorded: every member's join source is UNSPECIFIED (0), with no invite code.
  if (filter.join_source_type) terms.add(filter.join_source_type.or_query.includes(0) ? "1" : NOTHING);
  if (filter.source_invite_code) terms.add(NOTHING);
  if (filter.query !== undefined) terms.add(nameSubstring(terms, filter.query));
  if (filter.is_bot !== undefined)
    terms.add(`m.user_id ${filter.is_bot ? "IN" : "NOT IN"} (SELECT id FROM users WHERE bot = 1)`);
  if (filter.has_no_roles !== undefined) terms.add(filter.has_no_roles ? "m.role_count = 0" : "m.role_count > 0");
  if (filter.user_created_at) {
    const { gte, lte } = filter.user_created_at.range;
    rangeTerms(terms, "m.user_id", {
      gte: gte === undefined ? undefined : snowflakeAt(gte),
      lte: lte === undefined ? undefined : snowflakeAt(lte + 1) - 1n,
    });
  }
}

// ── Sort and keyset ────────────────────────────────────────────────────────────────────────────────────────────

interface SortSpec {
  /** The columns the order and the cursor compare, most significant first. */
  columns: readonly string[];
  descending: boolean;
  cursor: (c: SearchCursor) => unknown[];
}

const byJoin = (descending: boolean): SortSpec => ({
  columns: ["m.joined_at", "m.user_id"],
  descending,
  cursor: (c) => [c.guild_joined_at ?? 0, BigInt(c.user_id)],
});
const byId = (descending: boolean): SortSpec => ({
  columns: ["m.user_id"],
  descending,
  cursor: (c) => [BigInt(c.user_id)],
});
const byName = (descending: boolean): SortSpec => ({
  columns: ["m.username_key", "m.user_id"],
  descending,
  cursor: (c) => [(c.username ?? "").toLowerCase(), BigInt(c.user_id)],
});

const SORTS: Record<MemberSearchSort, SortSpec> = {
  [Sort.MemberSinceNewest]: byJoin(true),
  [Sort.MemberSinceOldest]: byJoin(false),
  [Sort.JoinedDiscordNewest]: byId(true),
  [Sort.JoinedDiscordOldest]: byId(false),
  [Sort.UsernameAsc]: byName(false),
  [Sort.UsernameDesc]: byName(true),
};

// ── Statements ─────────────────────────────────────────────────────────────────────────────────────────────────

const STATEMENT_CACHE_MAX = 256;
const caches = new WeakMap<Db, Map<string, Statement>>();

/** A prepared statement per SQL text on the current connection; the least recently used is dropped past the cap. */
function statement(text: string): Statement {
  const connection = db();
  let cache = caches.get(connection);
  if (!cache) caches.set(connection, (cache = new Map()));
  let found = cache.get(text);
  if (found) {
    cache.delete(text);
  } else {
    found = connection.prepare(text);
    if (cache.size >= STATEMENT_CACHE_MAX) cache.delete(cache.keys().next().value!);
  }
  cache.set(text, found);
  return found;
}

// The stored member JSON with a lasting timeout set (as members.ts reads it for List Guild Members).
const WIRE_JSON = `CASE WHEN m.communication_disabled_until > @now
  THEN json_set(m.wire_json, '$.communication_disabled_until', strftime('%Y-%m-%dT%H:%M:%fZ', m.communication_disabled_until / 1000.0, 'unixepoch'))
  ELSE m.wire_json END`;

/** The filters as one WHERE clause (without the cursor), and its parameters. */
export function searchWhere(search: MemberSearch): { where: string; params: Record<string, unknown> } {
  const params: Record<string, unknown> = { guild_id: search.guildId, now: BigInt(search.now ?? Date.now()) };
  const counter = { next: 0 };
  const and = new Terms(params, counter);
  if (search.and) filterTerms(search.and, and, "@guild_id", "@now");
  if (search.or) {
    const or = new Terms(params, counter);
    filterTerms(search.or, or, "@guild_id", "@now");
    if (or.list.length > 0) and.add(`(${or.list.map((t) => `(${t})`).join(" OR ")})`);
  }
  return { where: ["m.guild_id = @guild_id", ...and.list].join("\n  AND "), params };
}

/** The filters' own terms: a search without any counts the guild's members from its member count. */
const unfiltered = (where: string) => where === "m.guild_id = @guild_id";

/** One page of members matching the search, in its sort order, and how many match in all. */
export function searchMembersPage(search: MemberSearch): MemberSearchPage {
  const { where, params } = searchWhere(search);
  const spec = SORTS[search.sort];
  const cursor = search.after ?? search.before;
  // `before` reads backwards from the cursor (the other direction), then turns the page around.
  const backwards = search.before !== undefined;
  const descending = spec.descending !== backwards;
  let keyset = "";
  if (cursor) {
    const values = spec.cursor(cursor);
    const names = values.map((value, i) => {
      params[`c${i}`] = value;
      return `@c${i}`;
    });
    keyset = `\n  AND (${spec.columns.join(", ")}) ${descending ? "<" : ">"} (${names.join(", ")})`;
  }
  const order = spec.columns.map((column) => `${column}${descending ? " DESC" : ""}`).join(", ");
  const page = statement(`SELECT ${WIRE_JSON} FROM members m WHERE ${where}${keyset}\nORDER BY ${order} LIMIT @limit`)
    .pluck()
    .all({ ...params, limit: search.limit }) as string[];
  if (backwards) page.reverse();
  const total = unfiltered(where)
    ? Number((statement("SELECT member_count FROM guilds WHERE id = @guild_id").pluck().get(params) as bigint) ?? 0)
    : Number(statement(`SELECT count(*) FROM members m WHERE ${where}`).pluck().get(params) as bigint);
  return { members: page, total };
}
