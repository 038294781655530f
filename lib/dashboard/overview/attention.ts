// The overview's "needs attention" list: what a moderator should look at, each with where to fix it. Pure: the
// overview's reads gather the facts, this decides what is worth saying. Order: what blocks members first.
import type { OnboardingRuleReport } from "@/lib/discord/onboarding-rules";
import { plural } from "@/lib/dashboard/plural";

export interface AttentionItem {
  id: string;
  tone: "danger" | "warning";
  text: string;
  /** The section that fixes it, relative to /guilds/{id}. */
  section: string;
  action: string;
}

export interface AttentionFacts {
  now: number;
  features: readonly string[];
  rulesChannelId: string | null;
  invitesDisabledUntil: string | null;
  dmsDisabledUntil: string | null;
  /** Members who have not passed membership screening, or null when not counted. */
  pendingMembers: number | null;
  /** Bulk-ban jobs not finished: running, paused (a chunk failed or was interrupted), undoing. */
  jobs: ReadonlyArray<{ id: string; status: string; total: number }>;
  /** The newest prune preview: stale when nobody ran it and it can no longer be used. */
  latestPrunePreview: {
    count: number;
    days: number;
    state: "fresh" | "expired" | "used";
    runStatus: string | null;
  } | null;
  /** The saved onboarding's rules, or null when the moderator may not read onboarding. */
  onboarding: { enabled: boolean; report: OnboardingRuleReport } | null;
  formatNumber: (n: number) => string;
}

const later = (iso: string | null, now: number) => iso !== null && Date.parse(iso) > now;

export function attentionItems(facts: AttentionFacts): AttentionItem[] {
  const items: AttentionItem[] = [];
  const n = facts.formatNumber;
  const community = facts.features.includes("COMMUNITY");
  if (community && !facts.rulesChannelId)
    items.push({
      id: "rules-channel",
      tone: "danger",
      text: "This is a Community server without a rules channel. Discord requires one.",
      section: "settings",
      action: "Pick a rules channel",
    });
  if (facts.features.includes("INVITES_DISABLED") || later(facts.invitesDisabledUntil, facts.now))
    items.push({
      id: "invites-paused",
      tone: "warning",
      text: "Invites are paused: nobody new can join.",
      section: "safety",
      action: "Review the pause",
    });
  if (later(facts.dmsDisabledUntil, facts.now))
    items.push({
      id: "dms-paused",
      tone: "warning",
      text: "Direct messages between members are paused.",
      section: "safety",
      action: "Review the pause",
    });
  if (facts.onboarding?.enabled && !facts.onboarding.report.met) {
    const failing = facts.onboarding.report.rules.filter((rule) => !rule.met);
    items.push({
      id: "onboarding-rules",
      tone: "danger",
      text: `Onboarding is on but fails ${failing.length === 1 ? "a rule" : "its rules"}: ${failing
        .map((rule) => `${rule.label.toLowerCase()} (${rule.have} of ${rule.need})`)
        .join("; ")}.`,
      section: "onboarding",
      action: "Fix onboarding",
    });
  }
  if (facts.pendingMembers)
    items.push({
      id: "pending-members",
      tone: "warning",
      text: `${n(facts.pendingMembers)} ${facts.pendingMembers === 1 ? "member has" : "members have"} not passed membership screening yet.`,
      section: "members",
      action: "See members",
    });
  for (const job of facts.jobs)
    items.push({
      id: `job-${job.id}`,
      tone: job.status === "paused" ? "danger" : "warning",
      text:
        job.status === "paused"
          ? `A bulk ban of ${plural(job.total, "user", { format: n })} stopped part-way and needs a decision.`
          : job.status === "undoing"
            ? `A bulk ban of ${plural(job.total, "user", { format: n })} is being undone.`
            : `A bulk ban of ${plural(job.total, "user", { format: n })} is running.`,
      section: `bans/bulk/${job.id}`,
      action: "Open the job",
    });
  const preview = facts.latestPrunePreview;
  if (preview && preview.runStatus === "error")
    items.push({
      id: "prune-failed",
      tone: "danger",
      text: `The last prune (${preview.days} days of inactivity) failed.`,
      section: "prune",
      action: "See what happened",
    });
  else if (preview && preview.state === "expired" && preview.count > 0)
    items.push({
      id: "prune-stale",
      tone: "warning",
      text: `A prune estimate of ${n(preview.count)} ${preview.count === 1 ? "member" : "members"} (${preview.days} days) was never run and is out of date.`,
      section: "prune",
      action: "Estimate again",
    });
  return items;
}
