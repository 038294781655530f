// The overview's pure parts: joins and removals per day, the "needs attention" list, the audit log in words, and
// the reader's locale from Accept-Language.
import { describe, expect, it } from "vitest";
import { AuditLogEvent, type APIAuditLogEntry } from "discord-api-types/v10";
import { growthByDay } from "@/lib/dashboard/overview/growth";
import { attentionItems, type AttentionFacts } from "@/lib/dashboard/overview/attention";
import { describeAuditLogEntry, membersRemoved, namesFrom } from "@/lib/dashboard/overview/audit-log-words";
import { pickLocale } from "@/lib/dashboard/locale-pick";

const NOW = Date.parse("2026-11-25T12:00:00Z");
const DAY = 86_400_000;

describe("growthByDay", () => {
  it("counts joins and removals per UTC day over the window, ignoring what is outside it", () => {
    const days = growthByDay({
      now: NOW,
      days: 3,
      joinedAt: [NOW, NOW - 60_000, NOW - DAY, NOW - 5 * DAY],
      removals: [{ at: NOW - 2 * DAY, members: 4 }],
    });
    expect(days).toEqual([
      { day: "2026-11-23", joins: 0, leaves: 4 },
      { day: "2026-11-24", joins: 1, leaves: 0 },
      { day: "2026-11-25", joins: 2, leaves: 0 },
    ]);
  });

  it("says joins were not counted (null) when the members were not listed", () => {
    expect(growthByDay({ now: NOW, days: 1, joinedAt: null, removals: [] })).toEqual([
      { day: "2026-11-25", joins: null, leaves: 0 },
    ]);
  });
});

describe("attentionItems", () => {
  const calm: AttentionFacts = {
    now: NOW,
    features: [],
    rulesChannelId: null,
    invitesDisabledUntil: null,
    dmsDisabledUntil: null,
    pendingMembers: 0,
    jobs: [],
    latestPrunePreview: null,
    onboarding: null,
    formatNumber: (n) => n.toLocaleString("en-US"),
  };

  it("is empty for a calm guild", () => {
    expect(attentionItems(calm)).toEqual([]);
  });

  it("names each problem with where to fix it", () => {
    const items = attentionItems({
      ...calm,
      features: ["COMMUNITY"],
      invitesDisabledUntil: new Date(NOW + DAY).toISOString(),
      dmsDisabledUntil: new Date(NOW - DAY).toISOString(),
      pendingMembers: 1200,
      jobs: [{ id: "j1", status: "paused", total: 430 }],
      latestPrunePreview: { count: 3, days: 30, state: "expired", runStatus: null },
    });
    expect(items.map((i) => [i.id, i.section])).toEqual([
      ["rules-channel", "settings"],
      ["invites-paused", "safety"],
      ["pending-members", "members"],
      ["job-j1", "bans/bulk/j1"],
      ["prune-stale", "prune"],
    ]);
    expect(items.find((i) => i.id === "pending-members")!.text).toContain("1,200 members have");
  });
});

describe("describeAuditLogEntry", () => {
  const names = namesFrom(
    [
      { id: "1", username: "mod", global_name: "Mod Max" },
      { id: "2", username: "ada_fox", global_name: null },
    ],
    [{ id: "9", name: "Helper" }],
    [],
  );
  const entry = (e: Partial<APIAuditLogEntry>) =>
    ({ id: "100", user_id: "1", target_id: "2", changes: [], ...e }) as APIAuditLogEntry;

  it("writes moderation in plain words", () => {
    expect(describeAuditLogEntry(entry({ action_type: AuditLogEvent.MemberBanAdd }), names, "en-US")).toBe(
      "Mod Max banned ada_fox",
    );
    const prune = entry({
      action_type: AuditLogEvent.MemberPrune,
      target_id: null,
      options: { members_removed: "1234", delete_member_days: "7" },
    });
    expect(describeAuditLogEntry(prune, names, "de-DE")).toBe("Mod Max pruned 1.234 members inactive for 7 days");
    expect(membersRemoved(prune)).toBe(1234);
    expect(
      describeAuditLogEntry(
        entry({
          action_type: AuditLogEvent.MemberUpdate,
          changes: [{ key: "communication_disabled_until", new_value: "2026-11-26T00:00:00Z" }],
        }),
        names,
        "en-US",
      ),
    ).toBe("Mod Max timed out ada_fox");
    expect(
      describeAuditLogEntry(
        entry({
          action_type: AuditLogEvent.MemberRoleUpdate,
          changes: [{ key: "$add", new_value: [{ id: "9", name: "Helper" }] }],
        }),
        names,
        "en-US",
      ),
    ).toBe("Mod Max gave ada_fox Helper");
  });
});

describe("pickLocale", () => {
  it("takes the preferred language Intl knows, by weight, else en-US", () => {
    expect(pickLocale("fr-CH, fr;q=0.9, en;q=0.8")).toBe("fr-CH");
    expect(pickLocale("en;q=0.5, de-DE;q=0.9")).toBe("de-DE");
    expect(pickLocale("*")).toBe("en-US");
    expect(pickLocale("not a tag!!, es")).toBe("es");
    expect(pickLocale(null)).toBe("en-US");
  });
});
