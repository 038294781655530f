// The guild's own audit log imported into the audit history, so a ban by a bot or a change made in Discord's client
// appears beside the dashboard's own entries, and stays after Discord drops entries older than 45 days.
//
// Get Guild Audit Log is read in pages of 100 through the api-client, newest first: from the top of the log down to
// the newest entry already imported (every page is written as it is read, so a page that waits for a sync while a
// big job's thousands of entries come in shows the newest at once), then (until the log's start is reached) older
// ones backward from the oldest imported, a bounded number of pages per sync. An entry is imported once (its id is
// unique in the history), as soon as it is read: an entry the dashboard itself caused is matched to the dashboard's
// own record whichever is written first (twins.ts), so nothing waits for the dashboard to finish recording. The guild
// entries of one dashboard change that made many (the bans of a bulk-ban chunk, the position changes of a reorder)
// are kept as its parts (source "part", not listed on their own, still counted where each one matters: who banned
// whom, what changed since a prune preview).
import type { APIAuditLogEntry, APIUser, RESTGetAPIAuditLogResult } from "discord-api-types/v10";
import type { GuildApiClient } from "@/lib/api-client";
import { prisma } from "@/lib/dashboard/db";
import { snowflakeTimestamp } from "@/lib/discord/snowflake";
import { aliasesText } from "../history";
import { changesToSnapshots, eventInfo, nameFromChanges, nicknamesIn } from "./events";
import { withGuildLogLock } from "./lock";
import { TWIN_WINDOW_MS, isPart, isTwin, type GuildSide } from "./twins";

/** The entry written nearest to `at`, or null. */
function nearest<T extends { createdAt: Date }>(entries: readonly T[], at: number): T | null {
  let best: T | null = null;
  for (const entry of entries)
    if (!best || Math.abs(entry.createdAt.getTime() - at) < Math.abs(best.createdAt.getTime() - at)) best = entry;
  return best;
}

export const AUDIT_LOG_PAGE = 100;

export interface SyncOptions {
  /** Pages read backward per sync, into the log from before the first sync (the rest comes with the next sync). */
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

/** Imports one page's entries (any order) in one transaction; answers how many were added and matched. */
export function importAuditLogPage(
  guildId: string,
  page: Pick<RESTGetAPIAuditLogResult, "audit_log_entries" | "users">,
): Promise<{ imported: number; matched: number }> {
  if (page.audit_log_entries.length === 0) return Promise.resolve({ imported: 0, matched: 0 });
  return withGuildLogLock(guildId, () => importUnderLock(guildId, page));
}

const guildSide = (entry: APIAuditLogEntry): GuildSide => ({
  action: eventInfo(entry.action_type).action,
  actorId: entry.user_id ?? "0",
  targetId: entry.target_id ?? null,
  reason: entry.reason ?? null,
  at: snowflakeTimestamp(entry.id),
  changedKeys: (entry.changes ?? []).map((change) => change.key),
});

async function importUnderLock(
  guildId: string,
  page: Pick<RESTGetAPIAuditLogResult, "audit_log_entries" | "users">,
): Promise<{ imported: number; matched: number }> {
  const entries = page.audit_log_entries;
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
    select: {
      id: true,
      action: true,
      actorId: true,
      actorName: true,
      actorBot: true,
      targetId: true,
      createdAt: true,
      request: true,
    },
  });

  // One dashboard entry for one guild entry: the nearest in time of those that are the same change.
  const claimed = new Set<string>();
  const twinOf = (side: GuildSide) =>
    nearest(
      candidates.filter((c) => !claimed.has(c.id) && isTwin(c, side)),
      side.at,
    );

  let imported = 0;
  let matched = 0;
  const writes = fresh.map((entry) => {
    const info = eventInfo(entry.action_type);
    const side = guildSide(entry);
    const twin = twinOf(side);
    if (twin) {
      claimed.add(twin.id);
      matched++;
      return [
        prisma.auditHistoryEntry.update({ where: { id: twin.id }, data: { auditLogId: entry.id } }),
        // Its cases, made when the dashboard recorded it, link to the guild's entry from now on.
        prisma.moderationCase.updateMany({
          where: { historyId: twin.id, auditLogId: null },
          data: { auditLogId: entry.id },
        }),
      ];
    }
    imported++;
    const actor = entry.user_id ? users.get(entry.user_id) : undefined;
    const target = entry.target_id ? users.get(entry.target_id) : undefined;
    const { before, after } = changesToSnapshots(entry.changes);
    // A part is the dashboard change's, and so is who made it: in bot mode the guild names the bot, the dashboard
    // the moderator who asked (who banned each user of a bulk ban, on Bans and in its CSV).
    const whole = nearest(
      candidates.filter((c) => isPart(c, side)),
      side.at,
    );
    return [
      prisma.auditHistoryEntry.create({
        data: {
          guildId,
          source: whole ? "part" : "guild-log",
          auditLogId: entry.id,
          actorId: whole?.actorId ?? entry.user_id ?? "0",
          actorName:
            whole?.actorName ??
            (actor ? actor.global_name || actor.username : entry.user_id ? entry.user_id : "Discord"),
          actorBot: whole ? whole.actorBot : Boolean(actor?.bot),
          action: info.action,
          targetType: info.target,
          targetId: entry.target_id ?? null,
          targetName: target ? target.global_name || target.username : nameFromChanges(entry),
          targetAliases: aliasesText([target?.username, target?.global_name, ...nicknamesIn(entry)]),
          reason: entry.reason || null,
          request: entry.options ? JSON.stringify(entry.options) : null,
          before: before ? JSON.stringify(before) : null,
          after: after ? JSON.stringify(after) : null,
          status: "success",
          createdAt: new Date(side.at),
        },
      }),
    ];
  });
  await prisma.$transaction(writes.flat());
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
    const result = await importAuditLogPage(guildId, page);
    imported += result.imported;
    matched += result.matched;
    return page.audit_log_entries.map((e) => e.id);
  };
  const save = () =>
    prisma.guildAuditLogSync.upsert({
      where: { guildId },
      create: { guildId, newestId: newest, oldestId: oldest, backfilled, syncedAt: new Date(now()) },
      update: { newestId: newest, oldestId: oldest, backfilled, syncedAt: new Date(now()) },
    });

  // Down from the top of the log to the newest entry imported before (on the first sync: one page). Until it is
  // reached, `newest` stays where it was: a sync cut short by a failure starts again from the top next time, and the
  // pages already imported cost a read each, no write.
  let top: string | null = null;
  for (let before: string | undefined; ;) {
    const page = await api.guilds.getAuditLogs(guildId, { limit: AUDIT_LOG_PAGE, before });
    const ids = await take(page);
    if (ids.length === 0) break;
    top ??= maxId(ids);
    const bottom = minId(ids);
    if (newest === null) {
      oldest = bottom;
      backfilled = ids.length < AUDIT_LOG_PAGE;
      break;
    }
    if (ids.length < AUDIT_LOG_PAGE || compareIds(bottom, newest) <= 0) break;
    before = bottom;
  }
  if (top !== null && (newest === null || compareIds(top, newest) > 0)) newest = top;
  await save();

  // Backward, until the log's start: what was there before the first sync.
  for (let pages = 0; !backfilled && oldest !== null && pages < maxPages; pages++) {
    const page = await api.guilds.getAuditLogs(guildId, { before: oldest, limit: AUDIT_LOG_PAGE });
    const ids = await take(page);
    if (ids.length) oldest = minId([oldest, ...ids]);
    if (page.audit_log_entries.length < AUDIT_LOG_PAGE) backfilled = true;
    await save();
  }
  return { imported, matched, backfilled };
}
