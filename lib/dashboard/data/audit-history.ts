// The audit history as its page and CSV show it: the guild's own audit log imported first, then one page of entries,
// each with its sentence and the people in it looked up (avatar, name), in one batched lookup.
//
// Who sees what (the policy table): the section is open with View Audit Log or Manage Server
// (SECTION_POLICIES["audit-history"]), but the guild's own audit log in it, the changes made outside the dashboard
// with their reasons, only with View Audit Log ("audit-history/guild-log"), as on Discord. A Manage Server viewer
// without it gets what the section promised them: the dashboard's own history, every change moderators made through
// the dashboard, in full (who, what, why, before and after; failures too). The dashboard keeps that record itself,
// for its own moderators, so it is not limited further. The rule holds in the rows, the filter menus, a filter
// naming the guild's log, and the CSV alike; and nothing is imported on such a viewer's behalf (audit-log.ts).
import "server-only";
import {
  ALL_AUDIT_SOURCES,
  DASHBOARD_SOURCES,
  auditFacets,
  exportAuditEntries,
  listAuditEntries,
  type AuditEntryView,
  type AuditFilter,
  type AuditSource,
} from "@/lib/dashboard/audit/history";
import type { AuditNames } from "@/lib/dashboard/audit/fields";
import { describeEntry, targetPhrase, type AuditSentence } from "@/lib/dashboard/audit/sentences";
import type { UserRef, UserRefs } from "@/lib/dashboard/users/user-ref";
import { userRefOf } from "@/lib/dashboard/users/user-ref";
import { sectionDisabledReason } from "@/lib/dashboard/sections";
import { SECTION_POLICIES } from "@/lib/discord/policies";
import { managementApi } from "./api";
import { syncAuditLog, type AuditLogSync } from "./audit-log";
import { getGuildChannels } from "./channels";
import { lookupUsers } from "./users";
import type { GuildViewer } from "./viewer";
import { getRequestLocale } from "@/lib/dashboard/locale";
import type { TimeOrder } from "@/lib/dashboard/list-params";

/** Why the viewer may not see the guild's own audit log in the history ("needs View Audit Log"), or null. */
export function guildLogHidden(viewer: Pick<GuildViewer, "permissions">): string | null {
  return sectionDisabledReason(SECTION_POLICIES["audit-history/guild-log"], viewer.permissions);
}

/** The history's sources the viewer may see. */
export function auditSourcesFor(viewer: Pick<GuildViewer, "permissions">): readonly AuditSource[] {
  return guildLogHidden(viewer) ? DASHBOARD_SOURCES : ALL_AUDIT_SOURCES;
}

export interface AuditRow {
  entry: AuditEntryView;
  sentence: AuditSentence;
  actor: UserRef;
  /** The person the entry is about, when it is about one. */
  target: UserRef | null;
  /** What the entry is about in words ("#general", "Moderator", "the server"), when it is about something. */
  targetLabel: string | null;
}

const USER_TARGETS = new Set(["user", "member"]);

/** Names the sentences use: people as looked up (else as recorded), the guild's current roles and channels. */
export async function auditNames(viewer: GuildViewer, users: UserRefs): Promise<AuditNames> {
  const channels = await getGuildChannels(viewer).catch(() => []);
  const roles = new Map(viewer.roles.map((r) => [r.id, r.name]));
  const channelNames = new Map(channels.map((c) => [c.id, c.name]));
  return {
    user: (id) => (users[id]?.status === "found" ? users[id].displayName : undefined),
    role: (id) => roles.get(id),
    channel: (id) => channelNames.get(id),
  };
}

export async function describeAuditEntries(viewer: GuildViewer, entries: AuditEntryView[]): Promise<AuditRow[]> {
  const ids = new Set<string>();
  for (const e of entries) {
    if (e.actorId !== "0") ids.add(e.actorId);
    if (e.targetId && USER_TARGETS.has(e.targetType ?? "")) ids.add(e.targetId);
  }
  const api = await managementApi(viewer.session);
  const users = await lookupUsers(api, ids);
  const [names, locale] = await Promise.all([auditNames(viewer, users), getRequestLocale()]);
  return entries.map((entry) => {
    // Recorded names stand in for people the API no longer knows (deleted accounts) or could not be asked about.
    const recorded = (id: string, name: string | null): UserRef => {
      const ref = userRefOf(users, id);
      return ref.status === "found" || !name ? ref : { ...ref, displayName: name };
    };
    return {
      entry,
      sentence: describeEntry(entry, names, locale),
      actor:
        entry.actorId === "0"
          ? { ...userRefOf(users, "0"), displayName: entry.actorName }
          : recorded(entry.actorId, entry.actorName),
      target:
        entry.targetId && USER_TARGETS.has(entry.targetType ?? "") ? recorded(entry.targetId, entry.targetName) : null,
      targetLabel:
        entry.targetId || entry.targetName || entry.targetType === "guild" ? targetPhrase(entry, names) : null,
    };
  });
}

export async function getAuditHistoryPage(
  viewer: GuildViewer,
  filter: AuditFilter,
  page: { limit: number; cursor?: string; order?: TimeOrder },
): Promise<{ rows: AuditRow[]; nextCursor: string | null; sync: AuditLogSync }> {
  const sync = await syncAuditLog(viewer);
  const { entries, nextCursor } = await listAuditEntries(viewer.guild.id, filter, page, auditSourcesFor(viewer));
  return { rows: await describeAuditEntries(viewer, entries), nextCursor, sync };
}

/** The filter menus' moderators and actions, from the entries the viewer may see. */
export function getAuditFacets(viewer: GuildViewer): ReturnType<typeof auditFacets> {
  return auditFacets(viewer.guild.id, auditSourcesFor(viewer));
}

/** The CSV's entries: the filtered history the viewer may see, after waiting up to `waitMs` for the import. */
export async function exportAuditHistory(
  viewer: GuildViewer,
  filter: AuditFilter,
  waitMs?: number,
): Promise<AuditEntryView[]> {
  await syncAuditLog(viewer, waitMs);
  return exportAuditEntries(viewer.guild.id, filter, undefined, auditSourcesFor(viewer));
}
