// /guilds/{id}: the overview. How the guild is doing (members, online, boosts, joins and removals per day), what
// needs attention (each item links to where it is fixed), the last moderation actions in plain words, and a link to
// every section. Every read starts at once, and the page waits a bounded time for them: a card whose reads are done
// renders in the first response (`use` of a settled read does not suspend, so no skeleton is flashed for reads that
// take milliseconds), and a card still waiting after that streams on its own behind its skeleton, so a slow read (the
// audit log's pages, a large guild's counts on Discord) never holds up the rest.
import type { Metadata } from "next";
import Link from "next/link";
import { Suspense, use } from "react";
import { Card, CardHeader, EmptyState, PageHeader, Skeleton } from "@/components/ui/card";
import { Icons } from "@/components/ui/icons";
import { Badge } from "@/components/ui/badge";
import { RelativeTime } from "@/components/ui/relative-time";
import { DASHBOARD_SECTIONS, sectionDisabledReason } from "@/lib/dashboard/sections";
import { getRequestLocale } from "@/lib/dashboard/locale";
import { getGuildViewer, type GuildViewer } from "@/lib/dashboard/data/viewer";
import { JOIN_SCAN_MAX_MEMBERS, removalsOf } from "@/lib/dashboard/data/overview";
import { startOverviewReads, type OverviewReads } from "@/lib/dashboard/data/overview-reads";
import { settleWithin } from "@/lib/dashboard/streaming";
import { growthByDay, GROWTH_DAYS } from "@/lib/dashboard/overview/growth";
import { attentionItems } from "@/lib/dashboard/overview/attention";
import { MODERATION_EVENTS, describeAuditLogEntry, namesFrom } from "@/lib/dashboard/overview/audit-log-words";
import { snowflakeTimestamp } from "@/lib/discord/snowflake";
import { GrowthChart } from "./_components/growth-chart";

type Params = Promise<{ guildId: string }>;

/**
 * How long the page waits for its reads before sending skeletons for the rest. Below React's 300 ms throttle on
 * revealing a boundary after its fallback: content that arrives later would not show sooner for having streamed.
 */
const READS_WAIT_MS = 200;

// The layout's title template applies to the sections below it, not to this page of its own segment.
export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { guild } = await getGuildViewer((await params).guildId);
  return { title: { absolute: `Overview · ${guild.name} · Guildhall` } };
}

export default async function OverviewPage({ params }: { params: Params }) {
  const { guildId } = await params;
  const [viewer, locale] = await Promise.all([getGuildViewer(guildId), getRequestLocale()]);
  const now = viewer.readAt;
  const reads = startOverviewReads(viewer, now);
  await settleWithin(READS_WAIT_MS, Object.values(reads));
  return (
    <>
      <PageHeader title="Overview" description={`How ${viewer.guild.name} is doing and what needs your attention.`} />
      <div className="flex flex-col gap-6">
        <Suspense fallback={<StatsSkeleton />}>
          <Stats reads={reads} locale={locale} />
        </Suspense>
        <div className="grid grid-cols-1 gap-6 lg:grid-cols-5">
          <div className="flex min-w-0 flex-col gap-6 lg:col-span-3">
            <Suspense fallback={<CardSkeleton title="Members over the last 30 days" />}>
              <Growth reads={reads} locale={locale} now={now} />
            </Suspense>
            <Suspense fallback={<CardSkeleton title="Recent moderation" />}>
              <RecentModeration viewer={viewer} reads={reads} locale={locale} now={now} />
            </Suspense>
          </div>
          <div className="flex min-w-0 flex-col gap-6 lg:col-span-2">
            <Suspense fallback={<CardSkeleton title="Needs attention" />}>
              <NeedsAttention viewer={viewer} reads={reads} locale={locale} now={now} />
            </Suspense>
            <QuickLinks viewer={viewer} />
          </div>
        </div>
      </div>
    </>
  );
}

function Stats({ reads, locale }: { reads: OverviewReads; locale: string }) {
  const counts = use(reads.counts);
  const n = new Intl.NumberFormat(locale);
  const stats = [
    { label: "Members", value: counts.members === null ? "—" : n.format(counts.members), note: null },
    {
      label: "Online now",
      value: counts.online === null ? "—" : n.format(counts.online),
      note:
        counts.members && counts.online !== null
          ? `${new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 }).format(counts.online / counts.members)} of members`
          : null,
    },
    {
      label: "Boosts",
      value: n.format(counts.boosts),
      note: counts.tier > 0 ? `Level ${counts.tier}` : "No boost level yet",
    },
  ];
  return (
    <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3" data-testid="overview-stats">
      {stats.map((stat) => (
        <div key={stat.label} className="rounded-lg bg-surface-raised p-4 ring-1 ring-line">
          <dt className="text-sm text-ink-muted">{stat.label}</dt>
          <dd className="mt-1 text-2xl font-bold tabular-nums">{stat.value}</dd>
          {stat.note && <dd className="text-xs text-ink-muted">{stat.note}</dd>}
        </div>
      ))}
    </dl>
  );
}

function Growth({ reads, locale, now }: { reads: OverviewReads; locale: string; now: number }) {
  const [counts, scan, audit] = [use(reads.counts), use(reads.scan), use(reads.audit)];
  const days = growthByDay({ now, joinedAt: scan.joinedAt, removals: removalsOf(audit.entries ?? []) });
  const n = new Intl.NumberFormat(locale);
  const joins = scan.joinedAt ? days.reduce((sum, d) => sum + (d.joins ?? 0), 0) : null;
  const removed = days.reduce((sum, d) => sum + d.leaves, 0);
  const notes: string[] = [];
  if (!scan.joinedAt)
    notes.push(
      counts.members !== null && counts.members > JOIN_SCAN_MAX_MEMBERS
        ? `Joins are counted for servers of up to ${n.format(JOIN_SCAN_MAX_MEMBERS)} members: Discord's API lists members 1,000 at a time, and this server has ${n.format(counts.members)}.`
        : "Joins are not shown: listing members needs Manage Server.",
    );
  if (audit.entries === null) notes.push("Removals need View Audit Log.");
  else if (audit.truncated) notes.push("Removals are counted from the newest 1,000 audit log entries.");
  notes.push("Members who leave on their own are not in the audit log, so they are not counted.");
  return (
    <Card>
      <CardHeader
        title="Members over the last 30 days"
        description={[
          joins !== null ? `${n.format(joins)} joined` : null,
          audit.entries !== null ? `${n.format(removed)} removed by moderators` : null,
        ]
          .filter(Boolean)
          .join(" · ")}
      />
      <GrowthChart
        days={days}
        locale={locale}
        label={`Members who joined and members removed by moderators, per day, over the last ${GROWTH_DAYS} days`}
      />
      <ul className="mt-3 list-disc space-y-1 pl-5 text-xs text-ink-muted">
        {notes.map((note) => (
          <li key={note}>{note}</li>
        ))}
      </ul>
    </Card>
  );
}

function RecentModeration({
  viewer,
  reads,
  locale,
  now,
}: {
  viewer: GuildViewer;
  reads: OverviewReads;
  locale: string;
  now: number;
}) {
  const [audit, channels] = [use(reads.audit), use(reads.channels)];
  if (audit.entries === null)
    return (
      <Card>
        <CardHeader title="Recent moderation" />
        <EmptyState title="Needs View Audit Log">Moderation actions come from the server&apos;s audit log.</EmptyState>
      </Card>
    );
  const names = namesFrom(audit.users, viewer.roles, channels);
  const recent = audit.entries.filter((entry) => MODERATION_EVENTS.has(entry.action_type)).slice(0, 8);
  return (
    <Card>
      <CardHeader
        title="Recent moderation"
        description="From the server's audit log: kicks, bans, prunes, timeouts and role changes, by anyone."
      />
      {recent.length === 0 ? (
        <EmptyState title="Nothing in the last 30 days">No member was kicked, banned, pruned or timed out.</EmptyState>
      ) : (
        <ol className="flex flex-col divide-y divide-line" aria-label="Recent moderation actions">
          {recent.map((entry) => (
            <li key={entry.id} className="flex flex-wrap items-baseline justify-between gap-x-3 py-2 text-sm">
              <span className="min-w-0">
                {describeAuditLogEntry(entry, names, locale)}
                {entry.reason && <span className="block text-xs text-ink-muted">Reason: {entry.reason}</span>}
              </span>
              <RelativeTime
                iso={new Date(snowflakeTimestamp(entry.id)).toISOString()}
                now={now}
                className="shrink-0 text-xs text-ink-muted"
              />
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}

function NeedsAttention({
  viewer,
  reads: overview,
  locale,
  now,
}: {
  viewer: GuildViewer;
  reads: OverviewReads;
  locale: string;
  now: number;
}) {
  const [scan, reads] = [use(overview.scan), use(overview.attention)];
  const g = viewer.guild;
  const n = new Intl.NumberFormat(locale);
  const items = attentionItems({
    now,
    features: g.features,
    rulesChannelId: g.rules_channel_id ?? null,
    invitesDisabledUntil: g.incidents_data?.invites_disabled_until ?? null,
    dmsDisabledUntil: g.incidents_data?.dms_disabled_until ?? null,
    pendingMembers: scan.pending,
    jobs: reads.jobs,
    latestPrunePreview: reads.latestPrunePreview,
    onboarding: reads.onboarding,
    formatNumber: (value) => n.format(value),
  });
  return (
    <Card>
      <CardHeader title="Needs attention" />
      {items.length === 0 ? (
        <p className="flex items-center gap-2 text-sm text-ink-muted" data-testid="attention-clear">
          <Icons.check className="size-4 text-success-ink" /> Nothing needs your attention right now.
        </p>
      ) : (
        <ul className="flex flex-col gap-2" aria-label="Needs attention" data-testid="attention">
          {items.map((item) => (
            <li key={item.id} data-item={item.id} className="rounded-md bg-surface-sunken/60 p-3 text-sm">
              <Badge tone={item.tone} className="mb-1">
                {item.tone === "danger" ? "Action needed" : "Heads-up"}
              </Badge>
              <p>{item.text}</p>
              <Link
                href={`/guilds/${g.id}/${item.section}`}
                prefetch={false}
                className="mt-1 inline-block font-medium text-blurple-ink hover:underline"
              >
                {item.action}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function QuickLinks({ viewer }: { viewer: GuildViewer }) {
  return (
    <Card>
      <CardHeader title="Sections" />
      <ul className="grid grid-cols-1 gap-1 sm:grid-cols-2 lg:grid-cols-1" aria-label="Sections">
        {DASHBOARD_SECTIONS.map((section) => {
          const blocked = sectionDisabledReason(section, viewer.permissions);
          return (
            <li key={section.slug}>
              {blocked ? (
                <span className="block rounded-md px-2 py-1.5 text-sm text-ink-muted" title={blocked}>
                  {section.label} <span className="text-xs">({blocked})</span>
                </span>
              ) : (
                <Link
                  href={`/guilds/${viewer.guild.id}/${section.slug}`}
                  prefetch={false}
                  className="block rounded-md px-2 py-1.5 text-sm hover:bg-surface-sunken"
                >
                  <span className="font-medium">{section.label}</span>
                  <span className="block text-xs text-ink-muted">{section.description}</span>
                </Link>
              )}
            </li>
          );
        })}
      </ul>
    </Card>
  );
}

function StatsSkeleton() {
  return (
    <div aria-busy="true" aria-label="Loading counts" className="grid grid-cols-1 gap-3 sm:grid-cols-3">
      {[0, 1, 2].map((i) => (
        <Skeleton key={i} className="h-24" />
      ))}
    </div>
  );
}

function CardSkeleton({ title }: { title: string }) {
  return (
    <Card>
      <CardHeader title={title} />
      <div aria-busy="true" aria-label={`Loading ${title.toLowerCase()}`} className="flex flex-col gap-2">
        <Skeleton className="h-40" />
      </div>
    </Card>
  );
}
