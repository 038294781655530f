// The guild's own audit log imported into the audit history, so a ban by a bot or a change made in Discord's client
// appears beside the dashboard's own entries, and stays after Discord drops entries older than 45 days.
//
// Get Guild Audit Log is read in pages of 100 through the api-client: newer entries forward with `after` from the
// newest imported, and (until the start is reached) older ones backward with `before` from the oldest imported, a
// bounded number of pages per sync. An entry is imported once (its id is unique in the history). An entry the
// dashboard itself caused (same operation, target and actor within a minute) is not added again: its id is put on the
// dashboard's entry, which keeps the richer record; the guild entries of one dashboard change that made many (the
// bans of a bulk-ban chunk, the position changes of a reorder) are kept as its parts (source "part", not listed on
// their own, still counted where each one matters: who banned whom, what changed since a prune preview). Entries younger than a few seconds wait for the next sync, so a
// dashboard action that is still recording its own entry is matched rather than duplicated.
import type { APIAuditLogEntry, APIUser, RESTGetAPIAuditLogResult } from "discord-api-types/v10";
import type { GuildApiClient } from "@/lib/api-client";
import { prisma } from "@/lib/dashboard/db";
import { snowflakeTimestamp } from "@/lib/discord/snowflake";
import { changesToSnapshots, eventInfo, nameFromChanges } from "./events";

export const AUDIT_LOG_PAGE = 100;
/** Entries this young are left for the next sync (the dashboard records its own entry right after its API call). */
export const SETTLE_MS = 3_000;
/** A dashboard entry and the guild's entry for the same change are at most this far apart. */
const TWIN_WINDOW_MS = 60_000;

export interface SyncOptions {
  /** Pages read per sync in each direction (the rest comes with the next sync). */
  maxPages?: number;
  now?: () => number;
  /** Users the pages named (actors and targets), for the name cache. */
  remember?: (users: APIUser[]) => void;
}

export interface SyncResult {
  imported: number;
  matched: number;
  /** Whether everything the API still has, back to its oldest entry, has been imported. */
  backfilled: boolean;
}

const compareIds = (a: string, b: string) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0);
const maxId = (ids: string[]) => ids.reduce((m, id) => (compareIds(id, m) > 0 ? id : m));
const minId = (ids: string[]) => ids.reduce((m, id) => (compareIds(id, m) < 0 ? id : m));

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

/** How the dashboard wrote bot-mode reasons: "name (id): reason". */
const stampedBy = (reason: string | null | undefined, actorId: string) =>
  Boolean(reason && new RegExp(`^.{0,100} \\(${actorId}\\)(: |$)`).test(reason));

/** Imports one page's entries (any order) in one transaction; answers how many were added and matched. */
export async function importAuditLogPage(
  guildId: string,
  page: Pick<RESTGetAPIAuditLogResult, "audit_log_entries" | "users">,
): Promise<{ imported: number; matched: number }> {
  const entries = page.audit_log_entries;
  if (entries.length === 0) return { imported: 0, matched: 0 };
  const users = new Map(page.users.map((u) => [u.id, u]));
  const known = new Set(
    (
      await prisma.auditHistoryEntry.findMany({
        where: { auditLogId: { in: entries.map((e) => e.id) } },
        select: { auditLogId: true },
      })
    ).map((row) => row.auditLogId),
  );
  const fresh = entries.filter((e) => !known.has(e.id));
  if (fresh.length === 0) return { imported: 0, matched: 0 };

  // The dashboard's own entries around these times that no guild entry has claimed yet: the candidates for twins.
  const times = fresh.map((e) => snowflakeTimestamp(e.id));
  const candidates = await prisma.auditHistoryEntry.findMany({
    where: {
      guildId,
      source: "dashboard",
      status: "success",
      auditLogId: null,
      createdAt: {
        gte: new Date(Math.min(...times) - TWIN_WINDOW_MS),
        lte: new Date(Math.max(...times) + TWIN_WINDOW_MS),
      },
    },
    select: { id: true, action: true, actorId: true, targetId: true, createdAt: true, request: true },
  });
  const byActor = (c: (typeof candidates)[number], entry: APIAuditLogEntry) =>
    c.actorId === entry.user_id || stampedBy(entry.reason, c.actorId);
  const near = (c: (typeof candidates)[number], at: number) => Math.abs(c.createdAt.getTime() - at) <= TWIN_WINDOW_MS;

  // One dashboard entry that stands for many guild entries (a bulk-ban chunk: one ban per user; a reorder: one
  // position change per role or channel): those guild entries are kept as its parts, not listed on their own.
  const userIdsOf = new Map<string, Set<string>>();
  for (const c of candidates) {
    const ids = c.request ? (JSON.parse(c.request) as { user_ids?: unknown }).user_ids : undefined;
    if (Array.isArray(ids)) userIdsOf.set(c.id, new Set(ids.map(String)));
  }
  const onlyKeys = (entry: APIAuditLogEntry, keys: readonly string[]) =>
    (entry.changes ?? []).every((change) => keys.includes(change.key));
  const partOfDashboardChange = (entry: APIAuditLogEntry, action: string, at: number) =>
    candidates.some((c) => {
      if (!byActor(c, entry) || !near(c, at)) return false;
      // A bulk-ban chunk, or the undo of one: the bans and unbans of the users it names.
      const users = userIdsOf.get(c.id);
      if (users)
        return (action === "Create Guild Ban" || action === "Remove Guild Ban") && users.has(entry.target_id ?? "");
      if (c.action === "Modify Guild Role Positions")
        return action === "Modify Guild Role" && onlyKeys(entry, ["position"]);
      if (c.action === "Modify Guild Channel Positions")
        return action === "Modify Channel" && onlyKeys(entry, ["position", "parent_id", "permission_overwrites"]);
      return false;
    });

  // One dashboard entry for one guild entry: the same change seen from both sides. A guild entry without a target
  // (a prune, an invite created) matches on the operation and the actor alone.
  const claimed = new Set<string>();
  const twinOf = (entry: APIAuditLogEntry, action: string, at: number) => {
    let best: (typeof candidates)[number] | null = null;
    for (const c of candidates) {
      if (claimed.has(c.id) || !byActor(c, entry) || !near(c, at)) continue;
      if (entry.target_id && c.targetId !== entry.target_id) continue;
      if (!(TWIN_ACTIONS[action] ?? [action]).includes(c.action)) continue;
      if (!best || Math.abs(c.createdAt.getTime() - at) < Math.abs(best.createdAt.getTime() - at)) best = c;
    }
    return best;
  };

  let imported = 0;
  let matched = 0;
  const writes = fresh.map((entry) => {
    const info = eventInfo(entry.action_type);
    const at = snowflakeTimestamp(entry.id);
    const twin = twinOf(entry, info.action, at);
    if (twin) {
      claimed.add(twin.id);
      matched++;
      return prisma.auditHistoryEntry.update({ where: { id: twin.id }, data: { auditLogId: entry.id } });
    }
    imported++;
    const actor = entry.user_id ? users.get(entry.user_id) : undefined;
    const target = entry.target_id ? users.get(entry.target_id) : undefined;
    const { before, after } = changesToSnapshots(entry.changes);
    return prisma.auditHistoryEntry.create({
      data: {
        guildId,
        source: partOfDashboardChange(entry, info.action, at) ? "part" : "guild-log",
        auditLogId: entry.id,
        actorId: entry.user_id ?? "0",
        actorName: actor ? actor.global_name || actor.username : entry.user_id ? entry.user_id : "Discord",
        actorBot: Boolean(actor?.bot),
        action: info.action,
        targetType: info.target,
        targetId: entry.target_id ?? null,
        targetName: target ? target.global_name || target.username : nameFromChanges(entry),
        reason: entry.reason || null,
        request: entry.options ? JSON.stringify(entry.options) : null,
        before: before ? JSON.stringify(before) : null,
        after: after ? JSON.stringify(after) : null,
        status: "success",
        createdAt: new Date(at),
      },
    });
  });
  await prisma.$transaction(writes);
  return { imported, matched };
}

/** Brings the history up to date with the guild's audit log (see the file's header). */
export async function syncGuildAuditLog(
  api: GuildApiClient,
  guildId: string,
  options: SyncOptions = {},
): Promise<SyncResult> {
  const maxPages = options.maxPages ?? 10;
  const now = options.now ?? Date.now;
  const state = await prisma.guildAuditLogSync.findUnique({ where: { guildId } });
  let newest = state?.newestId ?? null;
  let oldest = state?.oldestId ?? null;
  let backfilled = state?.backfilled ?? false;
  let imported = 0;
  let matched = 0;

  const take = async (page: RESTGetAPIAuditLogResult) => {
    options.remember?.(page.users);
    const settled = page.audit_log_entries.filter((e) => snowflakeTimestamp(e.id) <= now() - SETTLE_MS);
    const result = await importAuditLogPage(guildId, { audit_log_entries: settled, users: page.users });
    imported += result.imported;
    matched += result.matched;
    return settled.map((e) => e.id);
  };

  if (newest === null) {
    // First sync: from the newest entry backward.
    const page = await api.guilds.getAuditLogs(guildId, { limit: AUDIT_LOG_PAGE });
    const ids = await take(page);
    if (ids.length) {
      newest = maxId(ids);
      oldest = minId(ids);
    }
    // A page cut short by entries still settling is not the end of the log.
    backfilled = page.audit_log_entries.length < AUDIT_LOG_PAGE && ids.length === page.audit_log_entries.length;
  } else {
    // Forward: the entries just after the newest imported, oldest first within each page's range.
    for (let pages = 0; pages < maxPages; pages++) {
      const page = await api.guilds.getAuditLogs(guildId, { after: newest, limit: AUDIT_LOG_PAGE });
      const ids = await take(page);
      if (ids.length) newest = maxId([newest, ...ids]);
      if (page.audit_log_entries.length < AUDIT_LOG_PAGE || ids.length < page.audit_log_entries.length) break;
    }
  }
  // Backward, until the log's start: what was there before the first sync.
  for (let pages = 0; !backfilled && oldest !== null && pages < maxPages; pages++) {
    const page = await api.guilds.getAuditLogs(guildId, { before: oldest, limit: AUDIT_LOG_PAGE });
    const ids = await take(page);
    if (ids.length) oldest = minId([oldest, ...ids]);
    if (page.audit_log_entries.length < AUDIT_LOG_PAGE) backfilled = true;
  }

  await prisma.guildAuditLogSync.upsert({
    where: { guildId },
    create: { guildId, newestId: newest, oldestId: oldest, backfilled, syncedAt: new Date(now()) },
    update: { newestId: newest, oldestId: oldest, backfilled, syncedAt: new Date(now()) },
  });
  return { imported, matched, backfilled };
}
