"use server";

// Server actions of the prune page: preview (Get Guild Prune Count, stored with who, when and the member count, and
// recorded in the history as a preview) and run (Begin Guild
// Prune on a fresh, matching, confirmed preview; the outcome is stored next to the preview). The run is applied once:
// the API client resends a POST only after a 429 (refused before anything was done), never after a timeout or an
// error, and a failed run uses up its preview.
import { describeApiError } from "@/lib/api-client";
import {
  claimPrunePreview,
  findPrunePreview,
  finishPruneRun,
  recordPrunePreview,
} from "@/lib/dashboard/audit/prune-previews";
import { syncGuildAuditLog } from "@/lib/dashboard/audit/guild-log/import";
import { pruneRelevantChanges, stalenessReasons } from "@/lib/dashboard/audit/prune-staleness";
import { ActionRefusal } from "./action-client";
import { guildAction } from "./guild-action";
import { firstRefusal, type ModeratorCheck } from "./moderator";
import { BeginPruneInputSchema, PrunePreviewInputSchema, pruneRunProblem } from "./schemas/prune";

/** Prune kicks: the moderator needs Manage Server and Kick Members, and may only include roles below their own. */
const mayPrune = (check: ModeratorCheck, roleIds: readonly string[]) =>
  firstRefusal(check.may("Begin Guild Prune"), ...roleIds.map((id) => check.roleBlock(id)));

const guildTarget = (input: { guildId: string }) => ({ type: "guild", id: input.guildId });
const plural = (n: number) => `${n} member${n === 1 ? "" : "s"}`;

/**
 * GET /guilds/{guild.id}/prune: Get Guild Prune Count, kept as a preview the run can rely on for ten minutes. The
 * server's member count is kept with it, so a later count that differs tells the preview that members joined or left.
 */
export const previewPruneAction = guildAction({
  action: "Preview prune",
  schema: PrunePreviewInputSchema,
  target: guildTarget,
  authorize: (check, input) => mayPrune(check, input.includeRoles),
  request: (input) => ({ days: input.days, include_roles: input.includeRoles }),
  run: async ({ api, guildId, input, actor }) => {
    const [{ pruned }, guild] = await Promise.all([
      api.guilds.getPruneCount(guildId, {
        days: input.days,
        include_roles: input.includeRoles.join(",") || undefined,
      }),
      api.guilds.get(guildId, { with_counts: true }),
    ]);
    return recordPrunePreview({
      guildId,
      days: input.days,
      roleIds: input.includeRoles,
      count: pruned,
      actor,
      memberCount: guild.approximate_member_count ?? null,
    });
  },
  after: (preview) => ({ pruned: preview.count, previewId: preview.id }),
  message: (preview) => `${plural(preview.count)} would be removed.`,
});

/** POST /guilds/{guild.id}/prune: Begin Guild Prune, only on the preview the moderator confirmed. */
export const beginPruneAction = guildAction({
  action: "Begin Guild Prune",
  schema: BeginPruneInputSchema,
  target: guildTarget,
  authorize: (check, input) => mayPrune(check, input.includeRoles),
  request: (input) => ({
    days: input.days,
    include_roles: input.includeRoles,
    compute_prune_count: input.computePruneCount,
    preview_id: input.previewId,
  }),
  run: async ({ api, guildId, input, actor, reason }) => {
    const preview = await findPrunePreview(guildId, input.previewId);
    const problem = pruneRunProblem(preview, input, Date.now());
    if (problem || !preview)
      throw new ActionRefusal(problem!.message, problem!.field ? { [problem!.field]: [problem!.message] } : {});
    // The server may have changed since the preview: the guild's log is read first (a failure to read it leaves the
    // dashboard's own history and the member count to judge by).
    await syncGuildAuditLog(api, guildId).catch(() => null);
    const [changes, guild] = await Promise.all([
      pruneRelevantChanges(guildId, new Date(preview.createdAt)),
      api.guilds.get(guildId, { with_counts: true }),
    ]);
    const stale = stalenessReasons(preview, changes, guild.approximate_member_count ?? null);
    if (stale.length) throw new ActionRefusal(`This preview is out of date: ${stale.join("; ")}. Preview again.`);
    if (!(await claimPrunePreview(preview.id, { actorName: actor.name, computeCount: input.computePruneCount }))) {
      throw new ActionRefusal("This preview was already used for a prune. Preview again to see who is inactive now.");
    }
    try {
      const result = await api.guilds.beginPrune(
        guildId,
        { days: input.days, include_roles: input.includeRoles, compute_prune_count: input.computePruneCount },
        { reason },
      );
      return await finishPruneRun(preview.id, { status: "success", pruned: result.pruned });
    } catch (error) {
      await finishPruneRun(preview.id, { status: "error", error: describeApiError(error) });
      throw error;
    }
  },
  after: (run) => ({ pruned: run.pruned, previewCount: run.count, previewId: run.id }),
  message: (run) =>
    run.pruned === null
      ? `Prune started without counting (the preview found ${plural(run.count)}).`
      : `Pruned ${plural(run.pruned)}${run.pruned === run.count ? "" : ` (the preview found ${run.count})`}.`,
});
