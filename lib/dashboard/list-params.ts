// Server-paged lists keep their state in the URL (shareable, survives reloads, works with Back). Pages read it from
// Next's searchParams with these helpers and build their paging links with listHref; the client side changes it with
// components/data-table/url-state.ts.

export type SearchParams = Record<string, string | string[] | undefined>;

/** A query parameter's first value (Next gives an array when a key repeats). */
export const firstParam = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value[0] : value;

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

/** A "trail" of earlier cursors (lists that only move forward): the digits-only entries of a comma list. */
export const cursorTrail = (value: string | undefined): string[] =>
  value ? value.split(",").filter((cursor) => /^\d+$/.test(cursor)) : [];
