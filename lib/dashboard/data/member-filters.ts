// The members table's state, as it lives in the URL, and its translation into a Search Guild Members v2 body: sort,
// search (an exact id or a name substring), roles (any of / all of), joined within, account created within, no roles,
// timed out, pending, bots, blocked by AutoMod, page size and a keyset cursor. Pure, so the filters (client) and the
// page (server) agree.
import type { APIGuildMember } from "discord-api-types/v10";
import {
  MemberSearchSort,
  type MemberSearchCursor,
  type MemberSearchFilter,
  type RESTPostAPIGuildMembersSearchJSONBody,
} from "@/lib/discord/member-search";
import { isSnowflake } from "@/lib/discord/snowflake";
import { firstParam, pageNumber, type SearchParams } from "@/lib/dashboard/list-params";

const DAY = 86_400_000;

export const MEMBER_SORTS = [
  { key: "joined-desc", label: "Joined the server: newest first", sort: MemberSearchSort.MemberSinceNewest },
  { key: "joined-asc", label: "Joined the server: oldest first", sort: MemberSearchSort.MemberSinceOldest },
  { key: "created-desc", label: "Account age: newest accounts first", sort: MemberSearchSort.JoinedDiscordNewest },
  { key: "created-asc", label: "Account age: oldest accounts first", sort: MemberSearchSort.JoinedDiscordOldest },
  { key: "name-asc", label: "Username: A → Z", sort: MemberSearchSort.UsernameAsc },
  { key: "name-desc", label: "Username: Z → A", sort: MemberSearchSort.UsernameDesc },
] as const;
export type MemberSortKey = (typeof MEMBER_SORTS)[number]["key"];
export const DEFAULT_MEMBER_SORT: MemberSortKey = "joined-desc";

export const WITHIN_OPTIONS = [
  { key: "1d", label: "the last 24 hours", ms: DAY },
  { key: "7d", label: "the last 7 days", ms: 7 * DAY },
  { key: "30d", label: "the last 30 days", ms: 30 * DAY },
  { key: "90d", label: "the last 90 days", ms: 90 * DAY },
  { key: "1y", label: "the last year", ms: 365 * DAY },
] as const;
export type WithinKey = (typeof WITHIN_OPTIONS)[number]["key"];

export const MEMBER_PAGE_SIZES = [25, 50, 100] as const;
export const DEFAULT_MEMBER_PAGE_SIZE = 50;

/** The yes/no filters, by URL key. */
export const MEMBER_FLAG_FILTERS = [
  { key: "noroles", label: "No roles" },
  { key: "timedout", label: "Timed out" },
  { key: "pending", label: "Pending screening" },
  { key: "bots", label: "Bots" },
  // Members whose name a member-profile rule matched (the member flag AutoMod sets; Search Guild Members v2's
  // safety signal for it).
  { key: "automod", label: "Blocked by AutoMod" },
] as const;
export type MemberFlagFilter = (typeof MEMBER_FLAG_FILTERS)[number]["key"];

export interface MemberListFilters {
  q?: string;
  sort: MemberSortKey;
  roles: string[];
  roleMode: "any" | "all";
  joined?: WithinKey;
  created?: WithinKey;
  flags: MemberFlagFilter[];
}

export interface MemberListState extends MemberListFilters {
  limit: number;
  after?: MemberSearchCursor;
  before?: MemberSearchCursor;
  page: number;
}

/** The URL keys that describe the filter (a change to any of them starts again at page 1). */
export const FILTER_KEYS = [
  "q",
  "sort",
  "roles",
  "rolemode",
  "joined",
  "created",
  ...MEMBER_FLAG_FILTERS.map((f) => f.key),
];
/** The URL keys of the page's position. */
export const PAGING_KEYS = ["after", "before", "page"] as const;

// ── Cursors in the URL: "<joined ms>.<user id>.<username>" (usernames may hold dots; the first two fields cannot) ──

export function encodeCursor(member: Pick<APIGuildMember, "joined_at"> & { user: { id: string; username: string } }) {
  const joined = member.joined_at ? Date.parse(member.joined_at) : 0;
  return `${joined}.${member.user.id}.${member.user.username}`;
}

export function decodeCursor(text: string | undefined): MemberSearchCursor | undefined {
  if (!text) return undefined;
  const [joined, id, ...name] = text.split(".");
  if (!/^\d{1,16}$/.test(joined ?? "") || !isSnowflake(id) || name.length === 0) return undefined;
  return { guild_joined_at: Number(joined), user_id: id, username: name.join(".") };
}

const isWithin = (value: string | undefined): value is WithinKey => WITHIN_OPTIONS.some((o) => o.key === value);

export function parseMemberListState(params: SearchParams): MemberListState {
  const sort = firstParam(params.sort);
  const limit = Number(firstParam(params.limit));
  const joined = firstParam(params.joined);
  const created = firstParam(params.created);
  const before = decodeCursor(firstParam(params.before));
  return {
    q: firstParam(params.q)?.trim().slice(0, 100) || undefined,
    sort: MEMBER_SORTS.some((s) => s.key === sort) ? (sort as MemberSortKey) : DEFAULT_MEMBER_SORT,
    roles: (firstParam(params.roles) ?? "")
      .split(",")
      .filter((id) => isSnowflake(id) && id !== "0")
      .slice(0, 25),
    roleMode: firstParam(params.rolemode) === "all" ? "all" : "any",
    joined: isWithin(joined) ? joined : undefined,
    created: isWithin(created) ? created : undefined,
    flags: MEMBER_FLAG_FILTERS.filter((f) => firstParam(params[f.key]) === "1").map((f) => f.key),
    limit: (MEMBER_PAGE_SIZES as readonly number[]).includes(limit) ? limit : DEFAULT_MEMBER_PAGE_SIZE,
    before,
    after: before ? undefined : decodeCursor(firstParam(params.after)),
    page: pageNumber(params.page),
  };
}

/** The filter's URL parameters (defaults left out), for links that keep it. */
export function filterParams(state: MemberListFilters & { limit?: number }): Record<string, string | undefined> {
  return {
    q: state.q,
    sort: state.sort === DEFAULT_MEMBER_SORT ? undefined : state.sort,
    roles: state.roles.length ? state.roles.join(",") : undefined,
    rolemode: state.roles.length > 1 && state.roleMode === "all" ? "all" : undefined,
    joined: state.joined,
    created: state.created,
    ...Object.fromEntries(state.flags.map((flag) => [flag, "1"])),
    limit: state.limit && state.limit !== DEFAULT_MEMBER_PAGE_SIZE ? String(state.limit) : undefined,
  };
}

export const isFiltered = (state: MemberListFilters) =>
  Boolean(state.q || state.roles.length || state.joined || state.created || state.flags.length);

const withinMs = (key: WithinKey) => WITHIN_OPTIONS.find((o) => o.key === key)!.ms;

/** The filter as Search Guild Members v2's and_query / or_query (the search box: an exact id or a name). */
export function searchQueries(
  state: MemberListFilters,
  now: number,
): Pick<RESTPostAPIGuildMembersSearchJSONBody, "and_query" | "or_query"> {
  const and: MemberSearchFilter = {};
  let or: MemberSearchFilter | undefined;
  if (state.q) {
    if (isSnowflake(state.q) && state.q !== "0") or = { user_id: { or_query: [state.q] }, query: state.q };
    else and.query = state.q;
  }
  if (state.roles.length)
    and.role_ids = state.roleMode === "all" ? { and_query: state.roles } : { or_query: state.roles };
  if (state.joined) and.guild_joined_at = { range: { gte: now - withinMs(state.joined) } };
  if (state.created) and.user_created_at = { range: { gte: now - withinMs(state.created) } };
  if (state.flags.includes("noroles")) and.has_no_roles = true;
  if (state.flags.includes("timedout"))
    and.safety_signals = { ...and.safety_signals, communication_disabled_until: { range: { gte: now } } };
  if (state.flags.includes("automod"))
    and.safety_signals = { ...and.safety_signals, automod_quarantined_username: true };
  if (state.flags.includes("pending")) and.is_pending = true;
  if (state.flags.includes("bots")) and.is_bot = true;
  return { ...(Object.keys(and).length ? { and_query: and } : {}), ...(or ? { or_query: or } : {}) };
}

export const sortOf = (key: MemberSortKey) => MEMBER_SORTS.find((s) => s.key === key)!.sort;

/** The body for one page of the table. */
export function searchBody(
  state: MemberListState,
  now: number,
  limit = state.limit,
): RESTPostAPIGuildMembersSearchJSONBody {
  return {
    ...searchQueries(state, now),
    sort: sortOf(state.sort),
    limit,
    ...(state.before ? { before: state.before } : state.after ? { after: state.after } : {}),
  };
}
