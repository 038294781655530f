"use server";

// Column visibility, remembered per moderator (lib/dashboard/table-preferences.ts). No guild and no API operation
// judges it: it changes only the signed-in moderator's own row, keyed by their session's user id, never by an id from
// the browser. So it is not a guildAction but a door of its own, DASHBOARD_SESSION_ACTION_POLICIES in the policy table.
import { getDashboardSession } from "@/lib/dashboard/auth/session";
import type { TableId } from "@/lib/dashboard/table-columns";
import { saveHiddenColumns } from "@/lib/dashboard/table-preferences";
import { invalidInputResult, signedOutResult, type ActionResult } from "./action-client";
import { SaveTableColumnsInputSchema, type SaveTableColumnsInput } from "./schemas/table-preferences";

/** Stores the columns the signed-in moderator hides in `table` (replacing the last choice); answers what was stored. */
export async function saveTableColumnsAction(
  raw: SaveTableColumnsInput,
): Promise<ActionResult<{ table: TableId; hidden: string[] }>> {
  const session = await getDashboardSession();
  if (!session) return signedOutResult();
  const parsed = SaveTableColumnsInputSchema.safeParse(raw);
  if (!parsed.success) return invalidInputResult(parsed.error);
  const { table, hidden } = parsed.data;
  return { ok: true, data: { table, hidden: await saveHiddenColumns(session.actor.id, table, hidden) } };
}
