// The ban list's orders as they live in the URL (sort=…). Get Guild Bans lists by user id, and a user id holds the
// moment the account was made, so the list reads by account age: oldest accounts first (the API's own order, the
// default) or newest accounts first (paged from the end with `before`). Pure: the page (server), the column header
// and the Sort by select (client) agree on the keys.
export const BAN_SORTS = [
  { key: "oldest", label: "Account age: oldest accounts first", order: "ascending" },
  { key: "newest", label: "Account age: newest accounts first", order: "descending" },
] as const;

export type BanSortKey = (typeof BAN_SORTS)[number]["key"];
export type BanOrder = (typeof BAN_SORTS)[number]["order"];

export const DEFAULT_BAN_SORT: BanSortKey = "oldest";

/** The URL keys of the list's position; a new search or order clears them (page 1). */
export const BAN_PAGING_KEYS = ["after", "before", "trail", "page"] as const;

/** The sort a URL value names; anything else is the default. */
export function parseBanSort(value: string | undefined): BanSortKey {
  return BAN_SORTS.find((sort) => sort.key === value)?.key ?? DEFAULT_BAN_SORT;
}

export const banOrderOf = (sort: BanSortKey): BanOrder => BAN_SORTS.find((s) => s.key === sort)!.order;
