// Get Guild Prune Count (the preview) and Begin Guild Prune (the run), and the rule that ties a run to its preview:
// the run needs a preview younger than ten minutes, with the same days and roles, not used before, and the preview's
// count typed back. Pure, so the form shows the same verdict the server enforces.
import { z } from "zod";
import { AUDIT_LOG_REASON_MAX, PRUNE_DAYS, PRUNE_INCLUDE_ROLES_MAX } from "@/lib/discord/limits";
import { guildActionBase, snowflakeSchema } from "./common";

/** A preview older than this no longer describes the server well enough to prune on. */
export const PRUNE_PREVIEW_TTL_MS = 10 * 60_000;

/** Above this many members, counting the prune costs Discord noticeable time: compute_prune_count off is advised. */
export const LARGE_GUILD_MEMBERS = 1_000;

const days = z
  .number({ message: `Pick ${PRUNE_DAYS.min} to ${PRUNE_DAYS.max} days.` })
  .int()
  .min(PRUNE_DAYS.min, `At least ${PRUNE_DAYS.min} day.`)
  .max(PRUNE_DAYS.max, `At most ${PRUNE_DAYS.max} days.`);
const includeRoles = z.array(snowflakeSchema).max(PRUNE_INCLUDE_ROLES_MAX, `At most ${PRUNE_INCLUDE_ROLES_MAX} roles.`);

/** The form: how long inactive, and which roles a member may hold and still be pruned. */
export const PruneParametersSchema = z.object({ days, includeRoles });
export type PruneParameters = z.infer<typeof PruneParametersSchema>;

export const PrunePreviewInputSchema = PruneParametersSchema.extend(guildActionBase);

export const BeginPruneInputSchema = PruneParametersSchema.extend({
  ...guildActionBase,
  previewId: z.string().min(1, "Preview first.").max(64),
  computePruneCount: z.boolean(),
  confirmation: z.string().trim().min(1, "Type the number of members to confirm."),
  reason: z
    .string()
    .trim()
    .min(1, "Give a reason: it goes to the audit log.")
    .max(AUDIT_LOG_REASON_MAX, `At most ${AUDIT_LOG_REASON_MAX} characters.`),
});
export type BeginPruneInput = z.infer<typeof BeginPruneInputSchema>;

/** Role ids as stored with a preview and compared with a run: unique, numerically sorted, comma-separated. */
export function roleKey(roleIds: readonly string[]): string {
  return [...new Set(roleIds)].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0)).join(",");
}

/** A stored preview, as the page and the run see it. */
export interface PrunePreviewView {
  id: string;
  days: number;
  roleIds: string[];
  count: number;
  actorId: string;
  actorName: string;
  createdAt: string;
  ranAt: string | null;
  ranBy: string | null;
  /** null when the run did not count (compute_prune_count off) or has not happened. */
  pruned: number | null;
  computeCount: boolean | null;
  /** null: not used; "running", "success" or "error". */
  runStatus: string | null;
  runError: string | null;
  /** The server's approximate member count when previewed (null for previews made before it was kept). */
  memberCount: number | null;
}

export type PreviewState = { kind: "fresh"; expiresAt: number } | { kind: "expired" } | { kind: "used" };

export function previewState(preview: Pick<PrunePreviewView, "createdAt" | "runStatus">, now: number): PreviewState {
  if (preview.runStatus !== null) return { kind: "used" };
  const expiresAt = Date.parse(preview.createdAt) + PRUNE_PREVIEW_TTL_MS;
  return expiresAt > now ? { kind: "fresh", expiresAt } : { kind: "expired" };
}

export interface RunProblem {
  message: string;
  /** The form field the problem belongs to, when it is one. */
  field?: "confirmation" | "days" | "includeRoles";
}

/** Why a prune may not run on this preview with these parameters, or null when it may. */
export function pruneRunProblem(
  preview: PrunePreviewView | null,
  run: Pick<BeginPruneInput, "days" | "includeRoles" | "confirmation">,
  now: number,
): RunProblem | null {
  if (!preview) return { message: "There is no such preview for this server. Preview the prune first." };
  const state = previewState(preview, now);
  if (state.kind === "used")
    return { message: "This preview was already used for a prune. Preview again to see who is inactive now." };
  if (state.kind === "expired")
    return { message: `This preview is older than ${PRUNE_PREVIEW_TTL_MS / 60_000} minutes. Preview again.` };
  if (preview.days !== run.days)
    return { field: "days", message: `The preview was for ${preview.days} days; preview again with ${run.days}.` };
  if (roleKey(preview.roleIds) !== roleKey(run.includeRoles))
    return { field: "includeRoles", message: "The roles changed since the preview. Preview again." };
  if (preview.count === 0) return { message: "The preview found nobody to prune." };
  if (run.confirmation.trim() !== String(preview.count))
    return {
      field: "confirmation",
      message: `Type ${preview.count}, the number of members the preview found, to confirm.`,
    };
  return null;
}
