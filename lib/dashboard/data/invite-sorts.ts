// The invites list's orders as they live in the URL (sort=…). Get Guild Invites answers every invite at once, so the
// page sorts them on the server before cutting out a page: by creation (newest first, the default), by uses, by
// expiry. Pure: the page (server), the column headers and the Sort by select (client) agree on the keys.
export const INVITE_SORTS = [
  { key: "newest", label: "Created: newest first" },
  { key: "oldest", label: "Created: oldest first" },
  { key: "uses-desc", label: "Uses: most used first" },
  { key: "uses-asc", label: "Uses: least used first" },
  { key: "expires-asc", label: "Expires: soonest first" },
  { key: "expires-desc", label: "Expires: never, then latest first" },
] as const;

export type InviteSortKey = (typeof INVITE_SORTS)[number]["key"];

export const DEFAULT_INVITE_SORT: InviteSortKey = "newest";

/** The URL keys of the list's position; a new order clears them (page 1). */
export const INVITE_PAGING_KEYS = ["page"] as const;

/** Uses are known only to moderators with Manage Server (Get Guild Invites leaves the metadata out otherwise). */
export const isUsesSort = (sort: InviteSortKey) => sort === "uses-desc" || sort === "uses-asc";

/** The orders a moderator can use: by uses only when the list carries them. */
export const inviteSortsFor = (usesKnown: boolean) => INVITE_SORTS.filter((s) => usesKnown || !isUsesSort(s.key));

/** The sort a URL value names, when the moderator can use it; anything else is the default. */
export function parseInviteSort(value: string | undefined, usesKnown: boolean): InviteSortKey {
  return inviteSortsFor(usesKnown).find((sort) => sort.key === value)?.key ?? DEFAULT_INVITE_SORT;
}
