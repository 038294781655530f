// Prune previews in the dashboard's own table: each Get Guild Prune Count a moderator asked for (days, roles, count,
// who, when), and, once a prune ran on it, the outcome next to it. A preview is used at most once: the run claims it
// before calling the API, so a double submit or a second tab cannot prune twice on one confirmation.
import { prisma } from "@/lib/dashboard/db";
import type { Prisma } from "@/lib/generated/prisma";
import { roleKey, type PrunePreviewView } from "@/lib/dashboard/actions/schemas/prune";
import type { TimeOrder } from "@/lib/dashboard/list-params";

type Row = Prisma.PrunePreviewGetPayload<object>;

function toView(row: Row): PrunePreviewView {
  return {
    id: row.id,
    days: row.days,
    roleIds: row.includeRoles ? row.includeRoles.split(",") : [],
    count: row.count,
    actorId: row.actorId,
    actorName: row.actorName,
    createdAt: row.createdAt.toISOString(),
    ranAt: row.ranAt?.toISOString() ?? null,
    ranBy: row.ranBy,
    pruned: row.pruned,
    computeCount: row.computeCount,
    runStatus: row.runStatus,
    runError: row.runError,
    memberCount: row.memberCount,
  };
}

export async function recordPrunePreview(preview: {
  guildId: string;
  days: number;
  roleIds: readonly string[];
  count: number;
  actor: { id: string; name: string };
  /** The server's approximate member count when previewed. */
  memberCount?: number | null;
}): Promise<PrunePreviewView> {
  const row = await prisma.prunePreview.create({
    data: {
      guildId: preview.guildId,
      days: preview.days,
      includeRoles: roleKey(preview.roleIds),
      count: preview.count,
      actorId: preview.actor.id,
      actorName: preview.actor.name,
      memberCount: preview.memberCount ?? null,
    },
  });
  return toView(row);
}

/**
 * One page of a guild's previews in `page.order`; `cursor` is the id of the last preview of the page before in that
 * order (time, then id, so previews of the same millisecond are neither skipped nor repeated).
 */
export async function listPrunePreviewPage(
  guildId: string,
  page: { limit: number; cursor?: string; order: TimeOrder },
): Promise<{ previews: PrunePreviewView[]; nextCursor: string | null }> {
  const direction = page.order === "oldest" ? "asc" : "desc";
  const rows = await prisma.prunePreview.findMany({
    where: { guildId },
    orderBy: [{ createdAt: direction }, { id: direction }],
    take: page.limit + 1,
    ...(page.cursor ? { cursor: { id: page.cursor }, skip: 1 } : {}),
  });
  const previews = rows.slice(0, page.limit).map(toView);
  return { previews, nextCursor: rows.length > page.limit ? previews[previews.length - 1].id : null };
}

/** The latest previews, newest first. */
export async function listPrunePreviews(guildId: string, limit = 20): Promise<PrunePreviewView[]> {
  const rows = await prisma.prunePreview.findMany({
    where: { guildId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
  });
  return rows.map(toView);
}

export async function findPrunePreview(guildId: string, id: string): Promise<PrunePreviewView | null> {
  const row = await prisma.prunePreview.findFirst({ where: { id, guildId } });
  return row ? toView(row) : null;
}

/** Marks an unused preview as running; false when someone (or something) used it first. */
export async function claimPrunePreview(
  id: string,
  run: { actorName: string; computeCount: boolean },
): Promise<boolean> {
  const { count } = await prisma.prunePreview.updateMany({
    where: { id, runStatus: null },
    data: { runStatus: "running", ranBy: run.actorName, computeCount: run.computeCount },
  });
  return count === 1;
}

/** The run's outcome, next to its preview. A failed run keeps the preview used: the next prune needs a new count. */
export async function finishPruneRun(
  id: string,
  outcome: { status: "success"; pruned: number | null } | { status: "error"; error: string },
): Promise<PrunePreviewView> {
  const row = await prisma.prunePreview.update({
    where: { id },
    data: {
      ranAt: new Date(),
      runStatus: outcome.status,
      pruned: outcome.status === "success" ? outcome.pruned : null,
      runError: outcome.status === "error" ? outcome.error : null,
    },
  });
  return toView(row);
}
