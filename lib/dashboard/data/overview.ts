// The overview page's reads: the guild's counts (Get Guild with_counts), joins per day from members' join dates (List
// Guild Members, only for guilds small enough to list whole), the audit log's last month (Get Guild Audit Log:
// removals per day and recent moderation), and the facts of the "needs attention" list. Each is its own read so the
// page streams them independently; the audit log is read once per request (React cache) for both of its uses.
import "server-only";
import { cache } from "react";
import { PermissionFlagsBits as P, type APIAuditLogEntry, type APIUser } from "discord-api-types/v10";
import { AUDIT_LOG_LIMIT, MEMBER_LIST_LIMIT } from "@/lib/discord/limits";
import { snowflakeTimestamp } from "@/lib/discord/snowflake";
import { checkOnboardingRules } from "@/lib/discord/onboarding-rules";
import { listJobs } from "@/lib/dashboard/jobs/bulk-ban/jobs";
import { listPrunePreviews } from "@/lib/dashboard/audit/prune-previews";
import { previewState } from "@/lib/dashboard/actions/schemas/prune";
import type { AttentionFacts } from "@/lib/dashboard/overview/attention";
import { membersRemoved } from "@/lib/dashboard/overview/audit-log-words";
import { windowStart } from "@/lib/dashboard/overview/growth";
import { managementApi } from "./api";
import { getGuildChannels } from "./channels";
import { getOnboarding } from "./community";
import { readOrThrow } from "./read";
import { can, missing, type GuildViewer } from "./viewer";

/** Guilds up to this many members are listed whole for their join dates (10 requests of 1,000). */
export const JOIN_SCAN_MAX_MEMBERS = 10_000;
/** At most this many audit log pages (of 100) for the month's removals. */
const AUDIT_PAGES_MAX = 10;

export interface OverviewCounts {
  members: number | null;
  online: number | null;
  boosts: number;
  tier: number;
}

/** Get Guild with_counts, once per request: the stats, the growth card and the attention list all read it. */
export const getOverviewCounts = cache(async (viewer: GuildViewer): Promise<OverviewCounts> => {
  const guild = await readOrThrow(async () =>
    (await managementApi(viewer.session)).guilds.get(viewer.guild.id, { with_counts: true }),
  );
  return {
    members: guild.approximate_member_count ?? null,
    online: guild.approximate_presence_count ?? null,
    boosts: guild.premium_subscription_count ?? 0,
    tier: guild.premium_tier,
  };
});

export interface MemberScan {
  /** Join times (ms) of every member, or null when the guild is too large to list. */
  joinedAt: number[] | null;
  /** Members who have not passed membership screening (of those listed), or null. */
  pending: number | null;
}

/** Every member's join date, for guilds of at most JOIN_SCAN_MAX_MEMBERS (a page of 1,000 per request). */
export const getMemberScan = cache(async (viewer: GuildViewer, memberCount: number | null): Promise<MemberScan> => {
  if (memberCount === null || memberCount > JOIN_SCAN_MAX_MEMBERS || missing(viewer, P.ManageGuild))
    return { joinedAt: null, pending: null };
  return readOrThrow(async () => {
    const api = await managementApi(viewer.session);
    const joinedAt: number[] = [];
    let pending = 0;
    for (let after = "0"; ;) {
      const page = await api.members.list(viewer.guild.id, { limit: MEMBER_LIST_LIMIT.max, after });
      for (const member of page) {
        if (member.joined_at) joinedAt.push(Date.parse(member.joined_at));
        if (member.pending) pending++;
      }
      if (page.length < MEMBER_LIST_LIMIT.max || joinedAt.length > JOIN_SCAN_MAX_MEMBERS) break;
      after = page[page.length - 1].user!.id;
    }
    return { joinedAt, pending };
  });
});

export interface AuditWindow {
  /** Null when the moderator lacks View Audit Log. */
  entries: APIAuditLogEntry[] | null;
  users: APIUser[];
  /** The month was longer than the pages read: removals before the oldest entry read are not counted. */
  truncated: boolean;
}

/** The audit log back to the start of the growth window, newest first. */
export const getAuditWindow = cache(async (viewer: GuildViewer, now: number): Promise<AuditWindow> => {
  if (!can(viewer, P.ViewAuditLog)) return { entries: null, users: [], truncated: false };
  return readOrThrow(async () => {
    const api = await managementApi(viewer.session);
    const start = windowStart(now);
    const entries: APIAuditLogEntry[] = [];
    const users = new Map<string, APIUser>();
    let before: string | undefined;
    for (let pages = 0; pages < AUDIT_PAGES_MAX; pages++) {
      const page = await api.guilds.getAuditLogs(viewer.guild.id, { limit: AUDIT_LOG_LIMIT.max, before });
      for (const user of page.users) users.set(user.id, user);
      const inWindow = page.audit_log_entries.filter((entry) => snowflakeTimestamp(entry.id) >= start);
      entries.push(...inWindow);
      const done =
        page.audit_log_entries.length < AUDIT_LOG_LIMIT.max || inWindow.length < page.audit_log_entries.length;
      if (done) return { entries, users: [...users.values()], truncated: false };
      before = page.audit_log_entries.at(-1)!.id;
    }
    return { entries, users: [...users.values()], truncated: true };
  });
});

/** Removals per entry (kicks, bans, prunes), for the chart. */
export function removalsOf(entries: readonly APIAuditLogEntry[]): Array<{ at: number; members: number }> {
  return entries
    .map((entry) => ({ at: snowflakeTimestamp(entry.id), members: membersRemoved(entry) }))
    .filter((removal) => removal.members > 0);
}

/** The facts of the "needs attention" list that come from the dashboard's own records and the saved onboarding. */
export type AttentionReads = Pick<AttentionFacts, "jobs" | "latestPrunePreview" | "onboarding">;

/** The dashboard's own records (bulk-ban jobs, prune previews) and the saved onboarding, read in parallel. */
export async function getAttentionReads(viewer: GuildViewer, now: number): Promise<AttentionReads> {
  const guildId = viewer.guild.id;
  const mayOnboard = !missing(viewer, P.ManageGuild, P.ManageRoles);
  const [jobs, previews, onboarding, channels] = await Promise.all([
    can(viewer, P.BanMembers) ? listJobs(guildId, 20) : Promise.resolve([]),
    !missing(viewer, P.ManageGuild, P.KickMembers) ? listPrunePreviews(guildId, 1) : Promise.resolve([]),
    mayOnboard ? getOnboarding(viewer) : Promise.resolve(null),
    mayOnboard ? getGuildChannels(viewer) : Promise.resolve([]),
  ]);
  const latest = previews[0];
  return {
    jobs: jobs
      .filter((job) => job.status === "running" || job.status === "paused" || job.status === "undoing")
      .map((job) => ({ id: job.id, status: job.status, total: job.counts.total })),
    latestPrunePreview: latest
      ? {
          count: latest.count,
          days: latest.days,
          state: previewState(latest, now).kind,
          runStatus: latest.runStatus,
        }
      : null,
    onboarding: onboarding
      ? {
          enabled: onboarding.enabled,
          report: checkOnboardingRules(
            {
              enabled: onboarding.enabled,
              mode: onboarding.mode,
              default_channel_ids: onboarding.default_channel_ids,
              prompts: onboarding.prompts,
            },
            {
              context: viewer.context,
              channels: channels.map((c) => ({
                id: c.id,
                name: c.name,
                type: c.type,
                overwrites: c.overwrites.map((o) => ({
                  id: o.id,
                  type: o.type,
                  allow: BigInt(o.allow),
                  deny: BigInt(o.deny),
                })),
              })),
            },
          ),
        }
      : null,
  };
}
