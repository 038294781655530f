// Column visibility, remembered per moderator: the columns a moderator has hidden in each of the dashboard's tables,
// in the dashboard's own table_preferences (Prisma, like the audit history), keyed by their user id on the guild API
// (the session's actor, never an id from the browser) and the table. The tables' pages read it to start with those
// columns hidden; saveTableColumnsAction (actions/table-preferences.ts) writes the signed-in moderator's own row.
import "server-only";
import { prisma } from "@/lib/dashboard/db";
import { hideableOf, type TableId } from "@/lib/dashboard/table-columns";

/**
 * The columns `userId` has hidden in `table`, in the table's order: only those the table lets hide today
 * (HIDEABLE_COLUMNS), so a column since removed or made always-visible shows again; none when nothing is stored.
 */
export async function getHiddenColumns(userId: string, table: TableId): Promise<string[]> {
  const row = await prisma.tablePreference.findUnique({
    where: { userId_tableId: { userId, tableId: table } },
    select: { hiddenColumns: true },
  });
  return row ? hideableOf(table, parseColumnIds(row.hiddenColumns)) : [];
}

/**
 * Replaces the columns `userId` has hidden in `table` with `hidden` (an empty list shows them all), keeping only ids
 * the table lets hide, and answers what was stored. The action validates first; this filter keeps the table clean
 * whoever calls it.
 */
export async function saveHiddenColumns(userId: string, table: TableId, hidden: readonly string[]): Promise<string[]> {
  const kept = hideableOf(table, hidden);
  // A JSON array rather than a comma list: the schema's convention for small lists read and written whole, and no
  // separator to keep out of the ids.
  const hiddenColumns = JSON.stringify(kept);
  await prisma.tablePreference.upsert({
    where: { userId_tableId: { userId, tableId: table } },
    create: { userId, tableId: table, hiddenColumns },
    update: { hiddenColumns },
  });
  return kept;
}

/** The stored text's string entries; anything else (not JSON, not an array) reads as nothing hidden. */
function parseColumnIds(text: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // A preference is not worth an error page: the table shows every column, and the next save rewrites the row.
    return [];
  }
  return Array.isArray(value) ? value.filter((id): id is string => typeof id === "string") : [];
}
