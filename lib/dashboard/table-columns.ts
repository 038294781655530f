// The dashboard's tables and the columns a moderator may hide in each (the first column, what a row is, and the
// row's actions always show). Shared by the tables (components/data-table), the saved choices
// (lib/dashboard/table-preferences.ts) and the action that saves them, which accepts only these ids.
export const HIDEABLE_COLUMNS = {
  members: ["roles", "joined", "created", "status"],
  bans: ["by", "ends", "reason"],
  invites: ["inviter", "uses", "created", "expires", "details"],
  integrations: ["account", "bot", "sync", "by"],
  "audit-history": ["target", "reason", "source", "result"],
  cases: ["moderator", "length", "source"],
  "prune-history": ["who", "days", "roles", "count", "outcome"],
  "job-results": ["detail"],
  // Small tables: every column shows (no Columns menu).
  roles: [],
  "channel-access": [],
  "channel-invites": [],
  "target-user-problems": [],
} as const satisfies Record<string, readonly string[]>;

export type TableId = keyof typeof HIDEABLE_COLUMNS;
export const TABLE_IDS = Object.keys(HIDEABLE_COLUMNS) as TableId[];

export const isTableId = (value: string): value is TableId => Object.hasOwn(HIDEABLE_COLUMNS, value);

/** The ids in `hidden` that `table` lets a moderator hide, once each, in the table's order. */
export function hideableOf(table: TableId, hidden: readonly string[]): string[] {
  const wanted = new Set(hidden);
  return HIDEABLE_COLUMNS[table].filter((column) => wanted.has(column));
}
