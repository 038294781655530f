// When a dashboard entry and a guild audit-log entry are the same change seen from both sides (a twin), or a guild
// entry is one of many a single dashboard change made (a part: a bulk-ban chunk's bans, a reorder's position
// changes). Either side may be written first: the import finds the dashboard's entry for a guild entry
// (import.ts), and the dashboard, recording its change, finds a guild entry already imported (recordDashboardChange
// below), so a change shows once whichever comes first and nothing waits for the other to settle. Both run under the
// guild's lock, so they never miss each other by running at the same moment.
import type { Prisma } from "@/lib/generated/prisma";
import { prisma } from "@/lib/dashboard/db";
import { withGuildLogLock } from "./lock";

/** A dashboard entry and the guild's entry for the same change are at most this far apart. */
export const TWIN_WINDOW_MS = 60_000;

/** The dashboard operations whose single guild entry is the given guild action (by the history's names). */
const TWIN_ACTIONS: Record<string, readonly string[]> = {
  "Modify Guild": [
    "Modify Guild",
    "Modify Guild Incident Actions",
    "Modify Guild Widget",
    "Modify Guild Welcome Screen",
  ],
  "Modify Guild Member Roles": ["Modify Guild Member"],
  "Modify Guild Onboarding": ["Modify Guild Onboarding"],
};

/** A dashboard entry as the matching sees it. */
export interface DashboardSide {
  action: string;
  actorId: string;
  targetId: string | null;
  createdAt: Date;
  /** The request's JSON: a bulk ban names its users (`user_ids`). */
  request: string | null;
}

/** A guild entry as the matching sees it: its operation in the history's names and the keys it changed. */
export interface GuildSide {
  action: string;
  actorId: string;
  targetId: string | null;
  reason: string | null;
  at: number;
  changedKeys: readonly string[];
}

/** How the dashboard wrote bot-mode reasons: "name (id): reason". */
const stampedBy = (reason: string | null | undefined, actorId: string) =>
  Boolean(reason && new RegExp(`^.{0,100} \\(${actorId}\\)(: |$)`).test(reason));

const byActorNear = (d: DashboardSide, g: GuildSide) =>
  (d.actorId === g.actorId || stampedBy(g.reason, d.actorId)) &&
  Math.abs(d.createdAt.getTime() - g.at) <= TWIN_WINDOW_MS;

/** The same change: same operation, actor and target (a guild entry without one, a prune, matches on the rest). */
export function isTwin(d: DashboardSide, g: GuildSide): boolean {
  if (!byActorNear(d, g)) return false;
  if (g.targetId && d.targetId !== g.targetId) return false;
  return (TWIN_ACTIONS[g.action] ?? [g.action]).includes(d.action);
}

const userIdsOf = (request: string | null): Set<string> | null => {
  const ids = request ? (JSON.parse(request) as { user_ids?: unknown }).user_ids : undefined;
  return Array.isArray(ids) ? new Set(ids.map(String)) : null;
};

const onlyKeys = (g: GuildSide, keys: readonly string[]) => g.changedKeys.every((key) => keys.includes(key));

/** One of the many guild entries one dashboard change made (kept as its part, not listed on its own). */
export function isPart(d: DashboardSide, g: GuildSide): boolean {
  if (!byActorNear(d, g)) return false;
  const users = userIdsOf(d.request);
  // A bulk-ban chunk, or the undo of one: the bans and unbans of the users it names.
  if (users) return (g.action === "Create Guild Ban" || g.action === "Remove Guild Ban") && users.has(g.targetId ?? "");
  if (d.action === "Modify Guild Role Positions") return g.action === "Modify Guild Role" && onlyKeys(g, ["position"]);
  if (d.action === "Modify Guild Channel Positions")
    return g.action === "Modify Channel" && onlyKeys(g, ["position", "parent_id", "permission_overwrites"]);
  return false;
}

const keysOf = (...snapshots: Array<string | null>) => [
  ...new Set(snapshots.flatMap((s) => (s ? Object.keys(JSON.parse(s) as Record<string, unknown>) : []))),
];

/**
 * Writes the dashboard's record of a successful change. A guild entry for it that was imported already becomes this
 * record's (the dashboard's entry keeps its reason as typed and its before/after), and guild entries that are parts
 * of it are marked so, all in one transaction.
 */
export async function recordDashboardChange(data: Prisma.AuditHistoryEntryCreateInput & { guildId: string }) {
  const createdAt = new Date();
  await withGuildLogLock(data.guildId, async () => {
    const imported = await prisma.auditHistoryEntry.findMany({
      where: {
        guildId: data.guildId,
        source: "guild-log",
        auditLogId: { not: null },
        createdAt: {
          gte: new Date(createdAt.getTime() - TWIN_WINDOW_MS),
          lte: new Date(createdAt.getTime() + TWIN_WINDOW_MS),
        },
      },
      select: {
        id: true,
        auditLogId: true,
        action: true,
        actorId: true,
        targetId: true,
        reason: true,
        createdAt: true,
        before: true,
        after: true,
      },
    });
    const mine: DashboardSide = {
      action: data.action,
      actorId: data.actorId,
      targetId: data.targetId ?? null,
      createdAt,
      request: data.request ?? null,
    };
    const sides = imported.map((row) => ({
      row,
      side: {
        action: row.action,
        actorId: row.actorId,
        targetId: row.targetId,
        reason: row.reason,
        at: row.createdAt.getTime(),
        changedKeys: keysOf(row.before, row.after),
      } satisfies GuildSide,
    }));
    const twin = sides
      .filter(({ side }) => isTwin(mine, side))
      .sort((a, b) => Math.abs(a.side.at - createdAt.getTime()) - Math.abs(b.side.at - createdAt.getTime()))[0];
    const parts = sides.filter(({ side }) => side !== twin?.side && isPart(mine, side)).map(({ row }) => row.id);
    await prisma.$transaction([
      ...(twin ? [prisma.auditHistoryEntry.delete({ where: { id: twin.row.id } })] : []),
      prisma.auditHistoryEntry.create({
        data: { ...data, createdAt, ...(twin ? { auditLogId: twin.row.auditLogId } : {}) },
      }),
      ...(parts.length
        ? [prisma.auditHistoryEntry.updateMany({ where: { id: { in: parts } }, data: { source: "part" } })]
        : []),
    ]);
  });
}
