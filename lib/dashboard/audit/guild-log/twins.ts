// When a dashboard entry and a guild audit-log entry are the same change seen from both sides (a twin), or a guild
// entry is one of many a single dashboard change made (a part: a bulk-ban chunk's bans, a reorder's position
// changes). Either side may be written first: the import finds the dashboard's entry for a guild entry
// (import.ts), and the dashboard, recording its change, finds a guild entry already imported (recordDashboardChange
// below), so a change shows once whichever comes first and nothing waits for the other to settle. Both run under the
// guild's lock, so they never miss each other by running at the same moment.
import { prisma } from "@/lib/dashboard/db";
import { insertRows, newRowId } from "@/lib/dashboard/insert-rows";
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

/**
 * How the dashboard wrote bot-mode reasons: "name (id): reason". The first stamp is the one that counts (a moderator
 * may quote another: "B (2): per A (1)" is B's), so the name is the shortest prefix followed by an id.
 */
const stampedBy = (reason: string | null | undefined, actorId: string) =>
  /^.{0,100}? \((\d{1,20})\)(?:: |$)/.exec(reason ?? "")?.[1] === actorId;

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

/** The guild actions whose entries may be this dashboard change's twin or parts (what isTwin and isPart can accept). */
function guildActionsFor(d: DashboardSide): string[] {
  const actions = [d.action, ...Object.keys(TWIN_ACTIONS).filter((action) => TWIN_ACTIONS[action].includes(d.action))];
  if (userIdsOf(d.request)) actions.push("Create Guild Ban", "Remove Guild Ban");
  if (d.action === "Modify Guild Role Positions") actions.push("Modify Guild Role");
  if (d.action === "Modify Guild Channel Positions") actions.push("Modify Channel");
  return actions;
}

/** A dashboard change's history row as history.ts makes it (the columns every entry names). */
export interface NewDashboardChange {
  guildId: string;
  actorId: string;
  actorName: string;
  action: string;
  targetType: string | null;
  targetId: string | null;
  targetName: string | null;
  targetAliases: string | null;
  reason: string | null;
  request: string | null;
  before: string | null;
  after: string | null;
  status: string;
  httpStatus: number | null;
  error: string | null;
  /** When it was made, if before it is recorded (else: now). */
  createdAt?: Date;
}

/** Its row in audit_history_entries, every column named (insertRows). */
const entryRow = (data: NewDashboardChange, createdAt: Date, auditLogId: string | null) => ({
  ...data,
  id: newRowId(),
  createdAt,
  auditLogId,
  source: "dashboard",
  actorBot: false,
  casesDerived: false,
});

/**
 * Writes the dashboard's records of successful changes in one guild (one, or a batch the scheduler made). A guild
 * entry for one that was imported already becomes its record's (the dashboard's entry keeps its reason as typed and
 * its before/after), and guild entries that are parts of it are marked so, all in one transaction. The imported
 * entries are read once for the batch, only those of actions that can match (a window of a busy guild's history holds
 * thousands of others).
 */
export async function recordDashboardChanges(guildId: string, changes: readonly NewDashboardChange[]) {
  if (changes.length === 0) return;
  const now = new Date();
  const mine = changes.map((data): DashboardSide => ({
    action: data.action,
    actorId: data.actorId,
    targetId: data.targetId ?? null,
    createdAt: data.createdAt ?? now,
    request: data.request ?? null,
  }));
  const times = mine.map((side) => side.createdAt.getTime());
  await withGuildLogLock(guildId, async () => {
    const imported = await prisma.auditHistoryEntry.findMany({
      where: {
        guildId,
        source: "guild-log",
        auditLogId: { not: null },
        action: { in: [...new Set(mine.flatMap(guildActionsFor))] },
        createdAt: {
          gte: new Date(Math.min(...times) - TWIN_WINDOW_MS),
          lte: new Date(Math.max(...times) + TWIN_WINDOW_MS),
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
    // Each guild entry is one change's twin or part at most: the batch's changes take theirs in order.
    const taken = new Set<string>();
    const twins: string[] = [];
    // Each change's parts, which take its moderator: in bot mode the guild names the bot (import.ts does the same).
    const parts: Array<{ ids: string[]; actorId: string; actorName: string }> = [];
    const rows = changes.map((data, i) => {
      const at = times[i];
      const free = sides.filter(({ row }) => !taken.has(row.id));
      const twin = free
        .filter(({ side }) => isTwin(mine[i], side))
        .sort((a, b) => Math.abs(a.side.at - at) - Math.abs(b.side.at - at))[0];
      const itsParts = free.filter(({ side }) => side !== twin?.side && isPart(mine[i], side)).map(({ row }) => row.id);
      if (twin) twins.push(twin.row.id);
      if (itsParts.length) parts.push({ ids: itsParts, actorId: data.actorId, actorName: data.actorName });
      for (const id of [...(twin ? [twin.row.id] : []), ...itsParts]) taken.add(id);
      return entryRow(data, mine[i].createdAt, twin?.row.auditLogId ?? null);
    });
    const writes = [
      // The twin goes first: its audit-log id moves to the dashboard's record.
      ...(twins.length ? [prisma.auditHistoryEntry.deleteMany({ where: { id: { in: twins } } })] : []),
      ...insertRows(prisma, "audit_history_entries", rows),
      ...parts.map(({ ids, actorId, actorName }) =>
        prisma.auditHistoryEntry.updateMany({
          where: { id: { in: ids } },
          data: { source: "part", actorId, actorName, actorBot: false },
        }),
      ),
    ];
    await prisma.$transaction(writes);
  });
}

/** Writes the dashboard's record of one successful change (recordDashboardChanges, for one). */
export const recordDashboardChange = (data: NewDashboardChange) => recordDashboardChanges(data.guildId, [data]);
