// Search Guild Members v2 in SQL, for guilds of a million members. A search is two statements built from the
// filters: one page (keyset on the sort's index, LIMIT in SQL, each member's stored wire JSON) and one count.
//
// What serves each part (migration 20261125141300_members):
// - sorts: members(guild_id, joined_at, user_id) for "member since", the primary key (guild_id, user_id) for "joined
//   Discord" (a snowflake orders by creation time), members(guild_id, username_key) for usernames;
// - filters that select few members are index ranges the planner can drive from: timed out (a partial index on
//   communication_disabled_until), pending (partial), bots (a partial index on users), account age (a user-id
//   range), joined within (joined_at), roles (member_roles(guild_id, role_id)), no roles (role_count);
// - a name substring of 3+ characters is a trigram full-text match (user_name_trigrams: one row per user with the
//   username, the global name and every nickname in columns of their own, kept by triggers; a nickname match is
//   checked against the nickname held in this guild); shorter text matches the start of a name through the
//   username, nickname and global-name indexes.
// Statements are built per filter shape; the driver caches them per text (store/sqlite-driver.ts bounds the cache).
//
// On PostgreSQL (where each statement is a round trip, an index probe costs about twice SQLite's, and a prepared
// statement's generic plan knows no parameter value) the same plans are written so the planner cannot choose others:
// the page reads keys and builds JSON for its own members only; where sets are checked it also counts its matches
// (one statement, not two walks); sets of users probe or hash as described below; a role is probed per row only along
// a short walk; an and_query's join-date range narrows its role sets through role_members_by_joined_at (migration
// …_role_members_by_joined_at); name substrings are pg_trgm matches in member_name_keys (migration
// …_member_name_keys), whose narrow rows also hold the sort's columns, so a search by a name substring alone reads
// members for its page only.
import type { MemberSearchCursor, MemberSearchFilter, MemberSearchSort } from "@/lib/discord/member-search";
import { MEMBER_SEARCH_V2_SUBSTRING_MIN, MemberSearchSort as Sort } from "@/lib/discord/member-search";
import { GuildMemberFlags } from "@/lib/discord/member-flags";
import { snowflakeAt } from "@/lib/discord/snowflake";
import { sql, storeOnPostgresql } from "./db";
import { dialect } from "./dialect";
import { memberWireJson, prefixUpperBound } from "./members";
import { idsInJson } from "./users";

const QUARANTINED_FLAG = GuildMemberFlags.AutomodQuarantinedUsernameOrGuildNickname;

export interface MemberSearch {
  guildId: bigint;
  and?: MemberSearchFilter;
  or?: MemberSearchFilter;
  sort: MemberSearchSort;
  limit: number;
  after?: MemberSearchCursor;
  before?: MemberSearchCursor;
  now?: number;
}

export interface MemberSearchPage {
  /** Each member's wire JSON, in sort order. */
  members: string[];
  total: number;
}

// ── Building the WHERE clause ──────────────────────────────────────────────────────────────────────────────────
//
// Most filters are plain terms the planner serves from an index range (joined within, account age, timed out, ...).
// Roles, names and id lists are sets of user ids, each written two ways: "driving" (m.user_id IN (the set): the
// search starts from the set's members, then sorts them) and "filtering" (a per-row check while another index, often
// the sort's, is walked). A set of at most DRIVE_MAX members drives; bigger sets filter, so a page of 100 stops after
// a few hundred rows of the sort index instead of sorting a hundred thousand (SQLite's own choice, by its statistics,
// was the wrong one here: 0.8 s for "joined this week, with a role of 100,000" on a million members).
//
// On PostgreSQL a set of users (names, id lists) is written so the planner cannot pick the other way round: driving,
// `= ANY (ARRAY(the set))` probes the members' primary key once per id (as an IN, its custom plan hashed the set
// against all million members: 197 ms against 49 ms to count the 22,511 members named "%zumi%"); filtering,
// `(… IN (the set)) IS TRUE` is no join condition, so it stays a hashed subplan built once and probed per row, as
// SQLite's ephemeral index for `+m.user_id IN` is (as a semi-join, the planner drove the page from the set instead).

/** A set of user ids: its two SQL forms, and what it costs to know its size. */
interface SetTerm {
  driving: string;
  filtering: string;
  /** Filtering a long walk, where PostgreSQL does better by joining the whole set once (roles); else `filtering`. */
  filteringLongWalk: string;
  /** SQL counting the set's members in this guild (the count of a search by the set alone), same parameters. */
  size: string;
  /** The same, counting no further than one past DRIVE_MAX: enough to know whether the set may drive. */
  sizeUpToDriveMax: string;
  /**
   * Counting the set costs about what reading its members does (PostgreSQL's trigram matches: every match is checked
   * against the names either way), so alone it drives the page, which counts it, without a size statement first.
   */
  sizedByReading: boolean;
  /**
   * PostgreSQL: the set as rows of a narrow table of this guild's members that holds the sort's columns (user_id,
   * joined_at, username_key), and the condition on its row `m` that selects them. Alone, the page and its count walk
   * those rows instead of members.
   */
  ownRows?: { table: string; condition: string };
}

type Term = string | SetTerm;

interface SetOptions {
  inGuild: boolean;
  sizedByReading?: boolean;
  filteringLongWalk?: string;
  ownRows?: SetTerm["ownRows"];
  /** The set's `size` and `sizeUpToDriveMax`, where the engine has cheaper ways than counting `ids` (roleSetTerm). */
  sizes?: Pick<SetTerm, "size" | "sizeUpToDriveMax">;
}

/** A set this small drives the search (its members are read, then sorted). */
const DRIVE_MAX = 2000;

/** How a set of ids is checked per row: against a set built once (see above). */
const probedIds = (ids: string) =>
  dialect({ sqlite: `+m.user_id IN (${ids})`, postgresql: `(m.user_id IN (${ids})) IS TRUE` });

class Terms {
  readonly list: Term[] = [];
  constructor(
    private readonly params: Record<string, unknown>,
    private readonly counter: { next: number },
  ) {}

  param(value: unknown): string {
    const name = `p${this.counter.next++}`;
    this.params[name] = value;
    return `@${name}`;
  }

  /** Statements counting a plain term's members, where that is cheaper than walking them: used when it is alone. */
  readonly aloneCounts = new Map<string, string>();

  add(term: Term): void {
    this.list.push(term);
  }

  /**
   * A set given as SQL selecting user ids (`ids`), checked per row by `filtering`. Its size is counted among this
   * guild's members unless `inGuild` says the ids are this guild's members already (roles, name-key ranges).
   */
  addSet(
    ids: string,
    filtering: string,
    { inGuild, sizedByReading = false, filteringLongWalk = filtering, ownRows, sizes }: SetOptions,
  ): void {
    // Ids of users, not known to be members: on PostgreSQL each id probes the members' primary key (see above).
    const driving = inGuild
      ? `m.user_id IN (${ids})`
      : dialect({ sqlite: `m.user_id IN (${ids})`, postgresql: `m.user_id = ANY (ARRAY(${ids}))` });
    const members = inGuild
      ? ids
      : dialect({
          sqlite: `SELECT user_id FROM members WHERE guild_id = @guild_id AND user_id IN (${ids})`,
          postgresql: `SELECT user_id FROM members m WHERE m.guild_id = @guild_id AND ${driving}`,
        });
    this.list.push({
      driving,
      filtering,
      filteringLongWalk,
      size: sizes?.size ?? `SELECT count(*) FROM (${members}) AS set_members`,
      sizeUpToDriveMax:
        sizes?.sizeUpToDriveMax ?? `SELECT count(*) FROM (${members} LIMIT ${DRIVE_MAX + 1}) AS set_members`,
      sizedByReading,
      ownRows,
    });
  }
}

/** Conditions no member / every member meets (PostgreSQL's WHERE takes only booleans). */
const nothing = () => dialect({ sqlite: "0", postgresql: "FALSE" });
const everyone = () => dialect({ sqlite: "1", postgresql: "TRUE" });
const json = (values: readonly (string | number)[]) => `[${values.join(",")}]`;

function rangeTerms(terms: Terms, column: string, range: { gte?: unknown; lte?: unknown }): void {
  if (range.gte !== undefined) terms.add(`${column} >= ${terms.param(range.gte)}`);
  if (range.lte !== undefined) terms.add(`${column} <= ${terms.param(range.lte)}`);
}

/** The lower-cased global name as the engine's index on it is built (PostgreSQL: byte order, as SQLite's BINARY). */
const globalNameKey = () => dialect({ sqlite: "lower(global_name)", postgresql: 'lower(global_name COLLATE "C")' });

/** Ids of members whose username, nickname or global name starts with the text: three index ranges. */
function namePrefixIds(terms: Terms, guild: string, text: string): string {
  const lower = text.toLowerCase();
  const lo = terms.param(lower);
  const hi = terms.param(prefixUpperBound(lower));
  return `SELECT user_id FROM members WHERE guild_id = ${guild} AND username_key >= ${lo} AND username_key < ${hi}
    UNION SELECT user_id FROM members WHERE guild_id = ${guild} AND nick_key >= ${lo} AND nick_key < ${hi}
    UNION SELECT user_id FROM members WHERE guild_id = ${guild} AND user_id IN
      (SELECT id FROM users WHERE ${globalNameKey()} >= ${lo} AND ${globalNameKey()} < ${hi})`;
}

/** FTS5 phrase syntax: the text in double quotes, its own quotes doubled. */
const ftsPhrase = (text: string) => `"${text.replaceAll('"', '""')}"`;

/** LIKE's escapes for a text matched literally: backslash, percent and underscore (the default escape is `\\`). */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Ids of users whose username, global name or nickname in this guild contains the text. SQLite's trigram table
 * answers usernames and global names exactly; a nickname match (in any guild) is checked against the nickname held
 * here. Shorter text than a trigram matches the start of a name.
 */
function nameSubstringIds(terms: Terms, guild: string, text: string): string {
  if ([...text].length < MEMBER_SEARCH_V2_SUBSTRING_MIN) return namePrefixIds(terms, guild, text);
  const phrase = ftsPhrase(text);
  return `SELECT rowid FROM user_name_trigrams WHERE user_name_trigrams MATCH ${terms.param(`{username global_name} : ${phrase}`)}
    UNION SELECT user_id FROM members WHERE guild_id = ${guild} AND user_id IN
      (SELECT rowid FROM user_name_trigrams WHERE user_name_trigrams MATCH ${terms.param(`nicks : ${phrase}`)})
      AND instr(nick_key, ${terms.param(text.toLowerCase())}) > 0`;
}

/** A name set, checked per row through an index of its ids built once. */
const nameSet = (terms: Terms, ids: string, inGuild: boolean) => terms.addSet(ids, probedIds(ids), { inGuild });

/**
 * PostgreSQL: the members whose username, global name or nickname here contains the text, as rows of
 * member_name_keys (migration …_member_name_keys: this guild's members, each with the sort's columns and the three
 * names lower-cased, which the text is as well, in the database). A condition on those rows is one bitmap scan of
 * their trigram index per name; alone, the search walks those rows and reads members for its page only. The ids go
 * through the members' primary key like a list of users' (`inGuild` false): driving, ANY(ARRAY(…)) keeps the planner
 * from hashing a whole guild's members against them.
 */
function nameKeysSet(terms: Terms, guild: string, text: string): void {
  const pattern = `lower(${terms.param(`%${likeLiteral(text)}%`)})`;
  const contain = (row: string) =>
    `(${["username_lower", "global_name_lower", "nick_lower"].map((name) => `${row}.${name} LIKE ${pattern}`).join(" OR ")})`;
  const ids = `SELECT user_id FROM member_name_keys n WHERE n.guild_id = ${guild} AND ${contain("n")}`;
  terms.addSet(ids, probedIds(ids), {
    inGuild: false,
    sizedByReading: true,
    ownRows: { table: "member_name_keys", condition: contain("m") },
  });
}

/**
 * Members holding a role that meets `condition` (on member_roles r), filtering: a probe of member_roles' primary key
 * per row (SQLite's EXISTS). On PostgreSQL an EXISTS becomes a semi-join, and the prepared statement's generic plan
 * (used from its sixth run) expects any role to hold an average share of the members, so it hashed all of a big role's
 * members to check a few hundred candidates ("joined in 7 days with a role": 9,377 hashed for 941, 2.8 ms against
 * 1.4 ms on the 100,000-member bench copy); a scalar subquery is checked row by row whatever the estimates. A probe
 * costs PostgreSQL about 1.5 µs, so a long walk keeps the EXISTS, which the planner joins against the role's members
 * ("joined in a year with a role" on a million members: 1.8 s row by row, 0.2 s joined).
 *
 * `rows` (roleRows) are the role assignments giving the set; `several`: they may name a member more than once (any of
 * several roles). PostgreSQL counts such a set with count(DISTINCT), which sorts the ids inside the aggregate: a
 * DISTINCT subquery hashed them, 130 ms against 35 ms for "Regular or Supporter" (149,042 members of a million); and
 * whether it may drive from its rows counted up to DRIVE_MAX without DISTINCT (an upper bound), since a hashed DISTINCT
 * reads every row before its first.
 */
function roleSetTerm(terms: Terms, rows: string, several: boolean, condition: string): void {
  const exists = `EXISTS (SELECT 1 FROM member_roles r WHERE r.guild_id = m.guild_id AND r.user_id = m.user_id AND ${condition})`;
  const ids = `SELECT ${several ? "DISTINCT " : ""}user_id ${rows}`;
  terms.addSet(
    ids,
    dialect({
      sqlite: exists,
      postgresql: `(SELECT TRUE FROM member_roles r WHERE r.guild_id = m.guild_id AND r.user_id = m.user_id AND ${condition} LIMIT 1)`,
    }),
    {
      inGuild: true,
      filteringLongWalk: exists,
      sizes:
        several && storeOnPostgresql()
          ? {
              size: `SELECT count(DISTINCT user_id) ${rows}`,
              sizeUpToDriveMax: `SELECT count(*) FROM (SELECT 1 ${rows} LIMIT ${DRIVE_MAX + 1}) AS set_rows`,
            }
          : undefined,
    },
  );
}

/** A join-date range (ms) that every member of the search must be in: and_query's guild_joined_at. */
type JoinedRange = { gte?: number; lte?: number } | undefined;

/**
 * The role assignments (FROM … WHERE …, giving user_id) of this guild's roles that meet `condition` (on role_id). On
 * PostgreSQL, when the search also asks for a join-date range, only those of members who joined in it: one range of
 * role_members_by_joined_at (migration …_role_members_by_joined_at), so "joined in 7 days, with a role of 9,377" is a
 * set of 75 members, which drives the search, where the role's members probed one by one along the join-date index
 * cost twice SQLite's request.
 */
function roleRows(terms: Terms, guild: string, condition: string, joined: JoinedRange): string {
  if (!joined || !storeOnPostgresql()) return `FROM member_roles WHERE guild_id = ${guild} AND ${condition}`;
  const range = [
    ...(joined.gte === undefined ? [] : [`joined_at >= ${terms.param(joined.gte)}`]),
    ...(joined.lte === undefined ? [] : [`joined_at <= ${terms.param(joined.lte)}`]),
  ];
  return `FROM role_members_by_joined_at WHERE ${[`guild_id = ${guild}`, condition, ...range].join(" AND ")}`;
}

/** Members holding role `roleId`: the role index drives, a primary-key probe filters. */
function roleSet(terms: Terms, guild: string, roleId: string, joined: JoinedRange): void {
  const role = terms.param(BigInt(roleId));
  roleSetTerm(terms, roleRows(terms, guild, `role_id = ${role}`, joined), false, `r.role_id = ${role}`);
}

/**
 * Members with some role, or with none. On PostgreSQL such a search alone is counted from the per-day counts of members
 * without roles (migration …_roleless_members_by_day: a few hundred rows) and the guild's member count, instead of an
 * index range of up to every member (795,000 entries without roles on the million-member bench copy: 89 ms).
 */
function roleCountTerm(terms: Terms, some: boolean): void {
  const term = some ? "m.role_count > 0" : "m.role_count = 0";
  terms.add(term);
  if (!storeOnPostgresql()) return;
  const roleless = "SELECT coalesce(sum(member_count), 0) FROM roleless_members_by_day WHERE guild_id = @guild_id";
  terms.aloneCounts.set(
    term,
    some ? `SELECT (SELECT member_count FROM guilds WHERE id = @guild_id) - (${roleless})` : roleless,
  );
}

/**
 * Members who joined in a range (ms), as one term. On PostgreSQL such a search alone is counted from the per-day
 * counts of members by join date (migration …_members_by_join_day): the days wholly inside the range, plus the index
 * ranges within its first and last days, instead of an index range of every member who joined in it ("the last year"
 * on the million-member bench copy: 517,703 entries, 42 ms).
 */
function joinedTerm(terms: Terms, range: { gte?: number; lte?: number }): void {
  const lo = range.gte === undefined ? null : terms.param(range.gte);
  const hi = range.lte === undefined ? null : terms.param(range.lte);
  const bounds = [...(lo ? [`m.joined_at >= ${lo}`] : []), ...(hi ? [`m.joined_at <= ${hi}`] : [])];
  if (bounds.length === 0) return;
  const term = bounds.join(" AND ");
  terms.add(term);
  if (!storeOnPostgresql()) return;
  const day = (ms: string) => `guildhall_utc_day(${ms})`;
  const dayStart = (dayOf: string) => `CAST(${dayOf} AS BIGINT) * 86400000`;
  const innerDays = [...(lo ? [`day > ${day(lo)}`] : []), ...(hi ? [`day < ${day(hi)}`] : [])];
  const edges = [
    // Within the first day: from the range's start to that day's end (or the range's end).
    ...(lo
      ? [`m.joined_at >= ${lo} AND m.joined_at < ${dayStart(`${day(lo)} + 1`)}${hi ? ` AND m.joined_at <= ${hi}` : ""}`]
      : []),
    // Within the last day, when it is another: from that day's start to the range's end.
    ...(hi
      ? [`m.joined_at >= ${dayStart(day(hi))} AND m.joined_at <= ${hi}${lo ? ` AND ${day(hi)} > ${day(lo)}` : ""}`]
      : []),
  ];
  terms.aloneCounts.set(
    term,
    `SELECT (SELECT coalesce(sum(member_count), 0) FROM members_by_join_day WHERE guild_id = @guild_id AND ${innerDays.join(" AND ")})
      ${edges.map((edge) => `+ (SELECT count(*) FROM members m WHERE m.guild_id = @guild_id AND ${edge})`).join("\n      ")}`,
  );
}

/**
 * The terms of one filter object; every field is one condition. `anded`: the terms are ANDed (and_query), so the
 * join-date range holds for every member the role sets give.
 */
function filterTerms(filter: MemberSearchFilter, terms: Terms, guild: string, now: string, anded: boolean): void {
  const joined = anded ? filter.guild_joined_at?.range : undefined;
  if (filter.user_id?.or_query) {
    if (filter.user_id.or_query.length === 0) terms.add(nothing());
    else {
      const ids = idsInJson(terms.param(json(filter.user_id.or_query)));
      terms.addSet(ids, probedIds(ids), { inGuild: false });
    }
  }
  if (filter.user_id?.range) {
    const { gte, lte } = filter.user_id.range;
    rangeTerms(terms, "m.user_id", {
      gte: gte === undefined ? undefined : BigInt(gte),
      lte: lte === undefined ? undefined : BigInt(lte),
    });
  }
  if (filter.usernames)
    nameSet(
      terms,
      filter.usernames.or_query.map((text) => namePrefixIds(terms, guild, text)).join("\n    UNION "),
      true,
    );
  if (filter.role_ids?.or_query) {
    const ids = filter.role_ids.or_query;
    if (ids.length === 0) roleCountTerm(terms, false);
    else if (ids.length === 1) roleSet(terms, guild, ids[0], joined);
    else {
      const list = idsInJson(terms.param(json(ids)));
      roleSetTerm(terms, roleRows(terms, guild, `role_id IN (${list})`, joined), true, `r.role_id IN (${list})`);
    }
  }
  if (filter.role_ids?.and_query) for (const id of filter.role_ids.and_query) roleSet(terms, guild, id, joined);
  if (filter.guild_joined_at) joinedTerm(terms, filter.guild_joined_at.range);
  const signals = filter.safety_signals;
  if (signals?.communication_disabled_until) {
    // A timeout that has ended is no timeout.
    terms.add(`m.communication_disabled_until > ${now}`);
    rangeTerms(terms, "m.communication_disabled_until", signals.communication_disabled_until.range);
  }
  // Guildhall keeps none of these signals: nobody has them.
  if (signals?.unusual_dm_activity_until) terms.add(nothing());
  if (signals?.unusual_account_activity !== undefined)
    terms.add(signals.unusual_account_activity ? nothing() : everyone());
  // Members blocked by a member-profile rule (services/member-profile-rules.ts) carry the flag.
  if (signals?.automod_quarantined_username !== undefined)
    terms.add(`(m.flags & ${QUARANTINED_FLAG}) ${signals.automod_quarantined_username ? "<>" : "="} 0`);
  if (filter.is_pending !== undefined)
    terms.add(
      dialect(
        filter.is_pending
          ? { sqlite: "m.pending = 1", postgresql: "m.pending" }
          : { sqlite: "m.pending = 0", postgresql: "NOT m.pending" },
      ),
    );
  // How a member joined is not recorded: every member's join source is UNSPECIFIED (0), with no invite code.
  if (filter.join_source_type) terms.add(filter.join_source_type.or_query.includes(0) ? everyone() : nothing());
  if (filter.source_invite_code) terms.add(nothing());
  if (filter.query !== undefined) {
    const substring = [...filter.query].length >= MEMBER_SEARCH_V2_SUBSTRING_MIN;
    if (substring && storeOnPostgresql()) nameKeysSet(terms, guild, filter.query);
    else nameSet(terms, nameSubstringIds(terms, guild, filter.query), !substring);
  }
  if (filter.is_bot !== undefined)
    terms.add(
      `m.user_id ${filter.is_bot ? "IN" : "NOT IN"} (SELECT id FROM users WHERE ${dialect({ sqlite: "bot = 1", postgresql: "bot" })})`,
    );
  if (filter.has_no_roles !== undefined) roleCountTerm(terms, !filter.has_no_roles);
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
  cursor: (c: MemberSearchCursor) => unknown[];
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

interface Plan {
  /** The table the search walks as `m`: members, or the only set's own rows (SetTerm.ownRows). */
  table: string;
  /** The WHERE clause of the page (without the cursor) and of the count. */
  page: string;
  count: string;
  /**
   * The statement counting the matches (by default a count of `count`'s rows; unfiltered, the guild's member count).
   * On PostgreSQL the page's statement carries it as a column, one round trip for both.
   */
  countStatement: string;
  params: Record<string, unknown>;
  /** The count, known already: the size of the only filter, a set of this guild's members. */
  knownTotal: number | null;
  /**
   * The page's statement counts every match as it reads them (PostgreSQL, where a statement is a round trip): where
   * sets are checked, the count's work is the walk and the checks, and numbering the matches on the way costs little.
   */
  countedByPage: boolean;
}

const sizeOf = async (text: string, params: Record<string, unknown>) =>
  Number((await sql.value<bigint | null>(text, params)) ?? 0);

/** Counts, one statement each on SQLite; on PostgreSQL in one statement (one round trip). */
async function countsOf(texts: string[], params: Record<string, unknown>): Promise<number[]> {
  if (storeOnPostgresql() && texts.length > 1)
    return (await sql.row<bigint[]>(`SELECT ${texts.map((text) => `(${text})`).join(", ")}`, params))!.map(Number);
  const counts: number[] = [];
  for (const text of texts) counts.push(await sizeOf(text, params));
  return counts;
}

/**
 * A walk of at most this many members probes a role per row (about 1.5 µs each on PostgreSQL); a longer one joins the
 * role's members, which costs about a third of that per member of the role.
 */
const SHORT_WALK_MAX = 20_000;

/**
 * The sets' sizes (`sizeTexts`) and, when none may drive, how many members the plain terms match, no further than one
 * past SHORT_WALK_MAX (else null): one PostgreSQL statement, whose walk count runs only if its CASE reads it (an
 * uncorrelated subquery runs when first read).
 */
async function sizesAndWalk(
  sizeTexts: string[],
  plain: string[],
  params: Record<string, unknown>,
): Promise<{ counts: number[]; walk: number | null }> {
  const sizes = sizeTexts.map((text, i) => `(${text}) AS s${i}`).join(", ");
  const smallest = `least(${sizeTexts.map((_, i) => `s${i}`).join(", ")})`;
  const walk = `SELECT count(*) FROM (SELECT 1 FROM members m WHERE ${["m.guild_id = @guild_id", ...plain].join(" AND ")} LIMIT ${SHORT_WALK_MAX + 1}) AS walk`;
  const row = (await sql.row<Array<bigint | null>>(
    `SELECT sizes.*, CASE WHEN ${smallest} > ${DRIVE_MAX} THEN (${walk}) END FROM (SELECT ${sizes} OFFSET 0) AS sizes`,
    params,
  ))!;
  const counted = row.at(-1);
  return {
    counts: row.slice(0, -1).map(Number),
    walk: counted === null || counted === undefined ? null : Number(counted),
  };
}

/**
 * The filters as WHERE clauses: and_query's terms ANDed, or_query's ORed (each of its sets driving, so the planner
 * can read the union of small sets). Among and_query's sets the smallest drives when it is small; otherwise every
 * set filters the page's walk of an index, and the count starts from the smallest set unless a range term can.
 */
export async function planSearch(search: MemberSearch): Promise<Plan> {
  const params: Record<string, unknown> = { guild_id: search.guildId, now: BigInt(search.now ?? Date.now()) };
  const counter = { next: 0 };
  const and = new Terms(params, counter);
  if (search.and) filterTerms(search.and, and, "@guild_id", "@now", true);
  const orTerms = new Terms(params, counter);
  if (search.or) filterTerms(search.or, orTerms, "@guild_id", "@now", false);

  const sets = and.list.filter((t): t is SetTerm => typeof t !== "string");
  const plain = and.list.filter((t): t is string => typeof t === "string");
  // Alone, a set's size is the count, so it is counted in full; among other terms, only as far as DRIVE_MAX. Alone,
  // a set sized by reading it is not counted first: it drives, and the page counts it.
  const onlySet = sets.length === 1 && plain.length === 0 && orTerms.list.length === 0 ? sets[0] : null;
  const readAlone = onlySet?.sizedByReading ? onlySet : null;
  const sized = sets.filter((set) => set !== readAlone);
  const sizeTexts = sized.map((set) => (set === onlySet ? set.size : set.sizeUpToDriveMax));
  // On PostgreSQL, whether the count's walk of the plain terms' matches is short enough to probe a role per row.
  const walkCounted =
    storeOnPostgresql() && plain.length > 0 && sets.some((set) => set.filteringLongWalk !== set.filtering);
  const { counts, walk } = walkCounted
    ? await sizesAndWalk(sizeTexts, plain, params)
    : { counts: await countsOf(sizeTexts, params), walk: null };
  const sizes = new Map(sized.map((set, i) => [set, counts[i]]));
  const smallest = sets.reduce<SetTerm | null>(
    (best, set) => (!best || sizes.get(set)! < sizes.get(best)! ? set : best),
    null,
  );
  const pageDriver = readAlone ?? (smallest && sizes.get(smallest)! <= DRIVE_MAX ? smallest : null);
  // The count: a small set drives; else an index range can; else the smallest set.
  const countDriver = pageDriver ?? (plain.length > 0 ? null : smallest);
  const knownTotal = onlySet && !readAlone ? sizes.get(onlySet)! : null;
  // The page stops at its LIMIT, and a driving set is small: the count walks far only otherwise.
  const countWalksShort = pageDriver !== null || (walk !== null && walk <= SHORT_WALK_MAX);

  const orClause =
    orTerms.list.length > 0
      ? [`(${orTerms.list.map((t) => `(${typeof t === "string" ? t : t.driving})`).join(" OR ")})`]
      : [];
  const clause = (driver: SetTerm | null, longWalk: boolean) =>
    [
      "m.guild_id = @guild_id",
      ...plain,
      ...sets.map((set) => (set === driver ? set.driving : longWalk ? set.filteringLongWalk : set.filtering)),
      ...orClause,
    ].join("\n  AND ");
  const unfiltered = and.list.length === 0 && orClause.length === 0;
  const ownRows = readAlone?.ownRows;
  const ownClause = ownRows && `m.guild_id = @guild_id\n  AND ${ownRows.condition}`;
  const table = ownRows?.table ?? "members";
  const count = ownClause ?? clause(countDriver, !countWalksShort);
  const aloneCount =
    plain.length === 1 && sets.length === 0 && orClause.length === 0 ? and.aloneCounts.get(plain[0]) : undefined;
  return {
    table,
    page: ownClause ?? clause(pageDriver, false),
    count,
    countStatement: unfiltered
      ? "SELECT member_count FROM guilds WHERE id = @guild_id"
      : (aloneCount ?? `SELECT count(*) FROM ${table} m WHERE ${count}`),
    params,
    knownTotal,
    countedByPage: storeOnPostgresql() && sets.length > 0 && knownTotal === null,
  };
}

/**
 * The page's statement on PostgreSQL: the search walks the matches' keys (user id and sort columns, which the sort's
 * index holds: an index-only scan where the filters allow), and only the page's members are read for their JSON. A
 * plain SELECT of the JSON read the row of every candidate the walk looked at (941 rows for 75 members, "joined in 7
 * days with a role"), since PostgreSQL checks a filter only after reading the row unless the scan is index-only.
 * Counted by the page, the count's walk reads every match's keys, count(*) OVER () numbers them, and the cursor and
 * the LIMIT apply after: one statement instead of two that would each walk and check the same members. Otherwise,
 * unless the total is known, the count statement is a column of its own (run once, as an InitPlan): one round trip.
 */
function postgresqlPageText(plan: Plan, spec: SortSpec, descending: boolean, keyset: string): string {
  const keys = [...new Set(["m.user_id", ...spec.columns])].join(", ");
  const order = spec.columns.map((column) => `${column}${descending ? " DESC" : ""}`).join(", ");
  const outerOrder = spec.columns.map((column) => `k.${column.slice(2)}${descending ? " DESC" : ""}`).join(", ");
  const matches = plan.countedByPage
    ? `SELECT * FROM (SELECT ${keys}, count(*) OVER () AS total FROM ${plan.table} m WHERE ${plan.count}) m WHERE TRUE${keyset}`
    : `SELECT ${keys} FROM ${plan.table} m WHERE ${plan.page}${keyset}`;
  const total = plan.countedByPage ? ", k.total" : plan.knownTotal === null ? `, (${plan.countStatement})` : "";
  return `SELECT ${memberWireJson()}${total} FROM (${matches}
ORDER BY ${order} LIMIT @limit) k JOIN members m ON m.guild_id = @guild_id AND m.user_id = k.user_id
ORDER BY ${outerOrder}`;
}

/** One page of members matching the search, in its sort order, and how many match in all. */
export async function searchMembersPage(search: MemberSearch): Promise<MemberSearchPage> {
  const plan = await planSearch(search);
  const params = plan.params;
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
  let page: string[];
  let countedTotal: number | null = null;
  if (storeOnPostgresql()) {
    const rows = await sql.rows<[string, (bigint | null)?]>(postgresqlPageText(plan, spec, descending, keyset), {
      ...params,
      limit: search.limit,
    });
    page = rows.map((row) => row[0]);
    // An empty page carries no count: without a cursor nothing matches; past the last match, the count statement says.
    if (plan.knownTotal === null) countedTotal = rows.length > 0 ? Number(rows[0][1] ?? 0) : cursor ? null : 0;
  } else {
    page = await sql.values<string>(
      `SELECT ${memberWireJson()} FROM members m WHERE ${plan.page}${keyset}\nORDER BY ${order} LIMIT @limit`,
      { ...params, limit: search.limit },
    );
  }
  if (backwards) page.reverse();
  const total = plan.knownTotal ?? countedTotal ?? (await sizeOf(plan.countStatement, params));
  return { members: page, total };
}
