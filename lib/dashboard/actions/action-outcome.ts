// How a dashboard server action ended, for guildhall_dashboard_actions_total (lib/server/metrics.ts): read from the
// result every action answers (action-client.ts), so no return path of an action can forget to count itself.
import type { ActionResult } from "@/lib/action-result";
import { recordDashboardAction, type ActionOutcome } from "@/lib/server/metrics";

/**
 * ok; invalid: the dashboard refused the input itself (zod, or its own 400 refusal), which no API error code marks;
 * refused: any other 4xx (the API's refusals, a signed-out session, the dashboard's permission check); failed: 5xx,
 * an API that could not be reached (no status), or a throw.
 */
export function actionOutcome(result: ActionResult<unknown>): ActionOutcome {
  if (result.ok) return "ok";
  const { status, code } = result;
  if (status === 400 && code === undefined) return "invalid";
  if (status !== undefined && status >= 400 && status < 500) return "refused";
  return "failed";
}

/** Counts the action's outcome once it settles, and answers what it answered (or throws what it threw). */
export async function countedOutcome<R>(action: string, running: Promise<ActionResult<R>>): Promise<ActionResult<R>> {
  try {
    const result = await running;
    recordDashboardAction(action, actionOutcome(result));
    return result;
  } catch (error) {
    recordDashboardAction(action, "failed");
    throw error;
  }
}
