// Server-paged lists keep their state in the URL (shareable, survives reloads, works with Back). Pages read it from
// Next's searchParams with these helpers and build their paging links with listHref; the client side changes it with
// components/data-table/url-state.ts.

export type SearchParams = Record<string, string | string[] | undefined>;

/** A query parameter's first value (Next gives an array when a key repeats). */
export const firstParam = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value[0] : value;

/** A list by time: newest first (the default, kept out of the URL) or oldest first (?sort=oldest). */
export type TimeOrder = "newest" | "oldest";
export const DEFAULT_TIME_ORDER: TimeOrder = "newest";

/** The URL's sort values of a list's When header (a DataTable ColumnSort): newest first on the first press. */
export const TIME_SORTS = { ascending: "oldest", descending: "newest", descendingFirst: true } as const;

/** A "Sort by" select's words for the two orders (components/data-table/sort-select.tsx). */
export const TIME_SORT_OPTIONS = [
  { key: "newest", label: "Newest first" },
  { key: "oldest", label: "Oldest first" },
] as const satisfies ReadonlyArray<{ key: TimeOrder; label: string }>;

/** The order a URL's ?sort= asks a list by time for; anything else is newest first. */
export const timeOrderOf = (value: string | string[] | null | undefined): TimeOrder =>
  firstParam(value ?? undefined) === "oldest" ? "oldest" : DEFAULT_TIME_ORDER;

/** The 1-based page number shown beside the paging links; anything else is page 1. */
export function pageNumber(value: string | string[] | undefined): number {
  const page = Number(firstParam(value));
  return Number.isInteger(page) && page > 0 ? page : 1;
}

/** `path` with the parameters that have a value, in the order given. */
export function listHref(path: string, params: Record<string, string | number | null | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== null && value !== undefined && value !== "") query.set(key, String(value));
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** Stands in a trail for the first page, which has no cursor. */
const FIRST_PAGE = "0";

/**
 * A "trail" of earlier cursors (lists that only move forward): the entries of a comma list that look like cursors
 * (snowflakes by default), so a hand-edited URL cannot smuggle anything else into a request.
 */
export const cursorTrail = (value: string | undefined, cursorPattern: RegExp = /^\d+$/): string[] =>
  value ? value.split(",").filter((cursor) => cursor === FIRST_PAGE || cursorPattern.test(cursor)) : [];

export interface TrailLink {
  cursor: string | null;
  trail: string | null;
}

/**
 * The previous and next links of a forward-only list: the page shown was reached with `cursor` (none on the first
 * page) after the pages in `trail`; the next one starts at `nextCursor`. Going back pops the trail.
 */
export function trailPager(
  cursor: string | undefined,
  trail: string[],
  nextCursor: string | null | undefined,
): { previous: TrailLink | null; next: TrailLink | null } {
  const last = trail.at(-1);
  return {
    previous: cursor
      ? { cursor: last && last !== FIRST_PAGE ? last : null, trail: trail.slice(0, -1).join(",") || null }
      : null,
    next: nextCursor ? { cursor: nextCursor, trail: [...trail, cursor ?? FIRST_PAGE].join(",") } : null,
  };
}
