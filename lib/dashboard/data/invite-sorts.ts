// The invites list's orders as they live in the URL (sort=…), and the sorting itself. Get Guild Invites answers every
// invite at once, so the page sorts them on the server before cutting out a page: by creation (newest first, the
// default), by uses, by expiry. Pure: the page (server), the column headers and the Sort by select (client) agree on
// the keys.
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

/** What sorting reads of an invite (Get Guild Invites' fields). */
export interface SortableInvite {
  code: string;
  created_at?: string | null;
  expires_at?: string | null;
  uses?: number | null;
}

type Compare = (a: SortableInvite, b: SortableInvite) => number;

const byNumber = (x: number, y: number) => (x < y ? -1 : x > y ? 1 : 0);
const createdAt = (invite: SortableInvite) => (invite.created_at ? Date.parse(invite.created_at) : 0);
/** An invite that never expires comes after every one that does. */
const expiresAt = (invite: SortableInvite) => (invite.expires_at ? Date.parse(invite.expires_at) : Infinity);
/** Unknown uses (no Manage Server) count as fewer than none. */
const usesOf = (invite: SortableInvite) => invite.uses ?? -1;

const newestFirst: Compare = (a, b) => byNumber(createdAt(b), createdAt(a)) || a.code.localeCompare(b.code);

/** Each order; ties newest first, then by code, so a page never changes while the invites do not. */
const ORDERS: Record<InviteSortKey, Compare> = {
  newest: newestFirst,
  oldest: (a, b) => byNumber(createdAt(a), createdAt(b)) || a.code.localeCompare(b.code),
  "uses-desc": (a, b) => byNumber(usesOf(b), usesOf(a)) || newestFirst(a, b),
  "uses-asc": (a, b) => byNumber(usesOf(a), usesOf(b)) || newestFirst(a, b),
  "expires-asc": (a, b) => byNumber(expiresAt(a), expiresAt(b)) || newestFirst(a, b),
  "expires-desc": (a, b) => byNumber(expiresAt(b), expiresAt(a)) || newestFirst(a, b),
};

/** A sorted copy of `invites` in `sort`'s order. */
export const sortInvites = <T extends SortableInvite>(invites: readonly T[], sort: InviteSortKey): T[] =>
  invites.toSorted(ORDERS[sort]);
