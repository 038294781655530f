// The audit history's sentences: who did what to what, the changed fields by their UI names with before → after in
// words (permission names, not bitfields), the reason, failures, previews, and entries imported from the guild's log.
import { describe, expect, test } from "vitest";
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { auditEntriesToCsv, type AuditEntryView } from "@/lib/dashboard/audit/format";
import type { AuditNames } from "@/lib/dashboard/audit/fields";
import { describeChanges, formatSeconds, permissionDelta } from "@/lib/dashboard/audit/fields";
import { ACTIONS, actionLabel, describeEntry, sourceLabel } from "@/lib/dashboard/audit/sentences";
import { MEMBER_JOB_AUDIT_ACTIONS } from "@/lib/dashboard/jobs/member-actions/types";
import { DASHBOARD_ACTION_POLICIES } from "@/lib/discord/policies";
import { code, filesUnder } from "./source-text";
import { changesToSnapshots, eventInfo } from "@/lib/dashboard/audit/guild-log/events";

const names: AuditNames = {
  user: (id) => ({ "1": "mod", "2": "bob", "3": "admin", "9": "Guildhall Demo" })[id],
  role: (id) => ({ "50": "Helper", "51": "Member" })[id],
  channel: (id) => ({ "70": "general", "71": "voice-lounge" })[id],
};

function entry(partial: Partial<AuditEntryView>): AuditEntryView {
  return {
    id: "e1",
    createdAt: "2026-11-25T12:00:00.000Z",
    actorId: "1",
    actorName: "Mod",
    action: "Create Guild Ban",
    targetType: "user",
    targetId: "2",
    targetName: "bob",
    reason: null,
    request: null,
    before: null,
    after: null,
    status: "success",
    httpStatus: 200,
    error: null,
    source: "dashboard",
    auditLogId: null,
    actorBot: false,
    ...partial,
  };
}

describe("describeEntry", () => {
  test("a ban with its reason, as the issue writes it", () => {
    expect(describeEntry(entry({ reason: "spam" }), names).text).toBe("mod banned bob — reason: spam");
  });

  test("a kick or a deletion tells what was removed in the details, not in the sentence", () => {
    const sentence = describeEntry(
      entry({
        action: "Remove Guild Member",
        reason: "e2e: kicked",
        before: { nick: null, roles: [], joined_at: "2026-04-11T14:40:22.678Z" },
        after: null,
      }),
      names,
    );
    expect(sentence.text).toBe("mod kicked bob — reason: e2e: kicked");
    expect(sentence.changes.map((c) => c.field)).toEqual(["roles", "joined at"]);
  });

  test("a reorder says what moved, by name; a bulk-ban job's chunk counts its users", () => {
    const reorder = describeEntry(
      entry({
        action: "Modify Guild Channel Positions",
        targetType: "guild",
        targetId: "100",
        before: {
          "70": { name: "general", position: 3, parent_id: null },
          "71": { name: "voice-lounge", position: 1 },
        },
        after: { "70": { name: "general", position: 1, parent_id: "72" }, "71": { name: "voice-lounge", position: 1 } },
      }),
      names,
    );
    expect(reorder.text).toBe("mod reordered the channels: general position 3 → 1, category no category → 72");
    const undo = describeEntry(
      entry({
        action: "Remove Guild Ban",
        targetType: "bulk-ban-job",
        targetId: "job1",
        request: { user_ids: ["1", "2"] },
      }),
      names,
    );
    expect(undo.text).toBe("mod unbanned 2 users (a bulk-ban job)");
  });

  test("a channel change names the channel and the field by its UI name, values in words", () => {
    const sentence = describeEntry(
      entry({
        actorId: "3",
        action: "Modify Channel",
        targetType: "channel",
        targetId: "70",
        targetName: null,
        before: { rate_limit_per_user: 0 },
        after: { rate_limit_per_user: 10 },
      }),
      names,
    );
    expect(sentence.text).toBe("admin changed #general: slowmode off → 10 s");
  });

  test("role permissions read as the permissions added and removed, never as a bitfield", () => {
    const sentence = describeEntry(
      entry({
        actorId: "3",
        action: "Modify Guild Role",
        targetType: "role",
        targetId: "50",
        before: { permissions: String(P.KickMembers | P.ViewChannel) },
        after: { permissions: String(P.BanMembers | P.ViewChannel) },
      }),
      names,
    );
    expect(sentence.text).toBe("admin changed the role Helper: permissions +Ban Members, −Kick Members");
    expect(sentence.text).not.toMatch(/\d{3,}/);
  });

  test("member role changes from the guild's log ($add/$remove) name the roles", () => {
    const { before, after } = changesToSnapshots([{ key: "$add", new_value: [{ id: "50", name: "Helper" }] }] as never);
    const sentence = describeEntry(
      entry({ action: "Modify Guild Member Roles", before, after, source: "guild-log" }),
      names,
    );
    expect(sentence.text).toBe("mod changed the roles of bob: roles +Helper");
  });

  test("a timeout and a nickname, with none on the empty side", () => {
    const sentence = describeEntry(
      entry({
        action: "Modify Guild Member",
        before: { nick: null, communication_disabled_until: null },
        after: { nick: "Bobby", communication_disabled_until: "2026-11-25T13:00:00.000Z" },
      }),
      names,
    );
    expect(sentence.text).toBe("mod changed bob: nickname none → “Bobby”; timeout none → until 2026-11-25 13:00 UTC");
  });

  test("a prune preview is told as a preview, with its count and days (old rows recorded under the API name too)", () => {
    for (const action of ["Preview prune", "Get Guild Prune Count"]) {
      const sentence = describeEntry(
        entry({
          action,
          targetType: "guild",
          targetId: "100",
          request: { days: 7, include_roles: [] },
          after: { pruned: 3, previewId: "p1" },
        }),
        names,
      );
      expect(sentence.text).toBe("mod previewed a prune: 3 members inactive for 7 days");
    }
    expect(actionLabel("Get Guild Prune Count")).toBe("Prune preview");
    expect(actionLabel("Begin Guild Prune")).toBe("Prune");
  });

  test("a prune from the guild's log reads its options", () => {
    const sentence = describeEntry(
      entry({
        action: "Begin Guild Prune",
        targetType: null,
        targetId: null,
        request: { delete_member_days: "30", members_removed: "4" },
        source: "guild-log",
      }),
      names,
    );
    expect(sentence.text).toBe("mod pruned 4 members inactive for 30 days");
  });

  test("a failure says what was tried and why it failed", () => {
    const sentence = describeEntry(entry({ status: "error", httpStatus: 403, error: "Missing Permissions" }), names);
    expect(sentence.text).toBe("mod tried to ban bob — failed: Missing Permissions");
  });

  test("an entry from a bot names the bot and its source; unknown people keep their recorded names", () => {
    const e = entry({ actorId: "9", actorName: "Guildhall Demo", actorBot: true, source: "guild-log", reason: "raid" });
    expect(describeEntry(e, names).text).toBe("Guildhall Demo banned bob — reason: raid");
    expect(describeEntry(e, names).source).toBe("bot Guildhall Demo");
    expect(sourceLabel({ source: "guild-log", actorBot: false, actorName: "x" })).toBe("another client");
    expect(sourceLabel({ source: "dashboard", actorBot: false, actorName: "x" })).toBe("Guildhall dashboard");
    expect(describeEntry(entry({ actorId: "404", actorName: "Gone", targetId: "405", targetName: "old" })).text).toBe(
      "Gone banned old",
    );
  });

  test("more than three changes are summed up, the rest listed", () => {
    const sentence = describeEntry(
      entry({
        action: "Modify Guild",
        targetType: "guild",
        targetId: "100",
        before: { name: "A", verification_level: 0, afk_timeout: 300, afk_channel_id: null, nsfw_level: 0 },
        after: { name: "B", verification_level: 2, afk_timeout: 3600, afk_channel_id: "71", nsfw_level: 0 },
      }),
      names,
    );
    expect(sentence.text).toBe(
      "mod changed the server: name “A” → “B”; verification level none → medium; inactive timeout 5 min → 1 h; and 1 more",
    );
    expect(sentence.changes.map((c) => c.field)).toEqual([
      "name",
      "verification level",
      "inactive timeout",
      "inactive channel",
    ]);
    expect(sentence.changes[3].after).toBe("#voice-lounge");
  });
});

describe("fields", () => {
  test("durations, permission deltas, overwrites and created values", () => {
    expect(formatSeconds(0)).toBe("off");
    expect(formatSeconds(90)).toBe("90 s");
    expect(formatSeconds(21600)).toBe("6 h");
    expect(permissionDelta(String(P.ViewChannel), String(P.ViewChannel))).toBeNull();
    const lines = describeChanges(
      { permission_overwrites: [{ id: "50", type: 0, allow: "0", deny: String(P.SendMessages) }] },
      {
        permission_overwrites: [
          { id: "50", type: 0, allow: String(P.SendMessages), deny: "0" },
          { id: "51", type: 0, allow: "0", deny: "0" },
        ],
      },
      names,
    );
    expect(lines).toEqual([
      {
        field: "permission overwrites",
        summary:
          "Helper: allowed +Send Messages and Create Posts; denied −Send Messages and Create Posts · Member: overwrite added",
      },
    ]);
    expect(describeChanges(null, { name: "general", max_uses: 0, max_age: 0 }, names)).toEqual([
      { field: "name", after: "“general”" },
      { field: "max uses", after: "unlimited" },
      { field: "expires after", after: "never" },
    ]);
  });

  test("structured values read in words: welcome channels, channel types, empty flags, nested objects (issue 30)", () => {
    const lines = describeChanges(
      { welcome_channels: [{ channel_id: "70", description: "Say hi", emoji_id: null, emoji_name: "👋" }], flags: 0 },
      {
        welcome_channels: [
          { channel_id: "70", description: "Say hi", emoji_id: null, emoji_name: "👋" },
          { channel_id: "71", description: "Talk", emoji_id: "123", emoji_name: "guildhall" },
        ],
        flags: 0,
        type: 0,
        default_reaction_emoji: { emoji_id: null, emoji_name: "🔥" },
      },
      names,
    );
    expect(lines).toEqual([
      {
        field: "welcome channels",
        before: "#general 👋 “Say hi”",
        after: "#general 👋 “Say hi”; #voice-lounge :guildhall: “Talk”",
      },
      { field: "type", after: "text channel" },
      { field: "default reaction emoji", after: "emoji 🔥" },
    ]);
    const text = lines.map((line) => `${line.before ?? ""} ${line.after ?? ""}`).join(" ");
    expect(text).not.toMatch(/[{}]|type 0|flags 0/);
  });

  test("the guild's action types map to the dashboard's operations", () => {
    expect(eventInfo(22)).toEqual({ action: "Create Guild Ban", target: "user" });
    expect(eventInfo(11)).toEqual({ action: "Modify Channel", target: "channel" });
    expect(eventInfo(140)).toEqual({ action: "Create Auto Moderation Rule", target: "other" });
    expect(eventInfo(143).action).toBe("Auto moderation block message");
    expect(eventInfo(9999).action).toBe("Audit log action 9999");
  });
});

describe("CSV export", () => {
  test("the action column is the page's label, never the stored operation name", () => {
    const [header, row] = auditEntriesToCsv([entry({})], (e) => describeEntry(e, names).text)
      .trim()
      .split("\n");
    expect(header.split(",")[3]).toBe("action");
    expect(row.split(",")[3]).toBe("Ban");
    expect(row).not.toContain("Create Guild Ban");
    expect(row).toContain("mod banned bob");
  });
});

describe("AutoMod rules", () => {
  test("a rule's change reads field by field in the editor's words: keywords, its alert channel, exempt roles", () => {
    const before = {
      id: "80",
      name: "Words",
      trigger_type: 1,
      enabled: true,
      keyword_filter: ["spoiler"],
      alert_channel_id: null,
      timeout_seconds: null,
      exempt_roles: [],
    };
    const after = {
      ...before,
      keyword_filter: ["spoiler", "free nitro*"],
      alert_channel_id: "70",
      exempt_roles: ["50"],
    };
    const sentence = describeEntry(
      entry({
        action: "Modify Auto Moderation Rule",
        targetType: "automod-rule",
        targetId: "80",
        targetName: "Words",
        before,
        after,
      }),
      names,
    );
    expect(sentence.text).toBe(
      "mod changed the AutoMod rule Words: keywords spoiler → spoiler; free nitro*; alert channel none → #general; exempt roles none → Helper",
    );
    expect(actionLabel("Delete Auto Moderation Rule")).toBe("AutoMod rule deleted");
  });
});

describe("every action the dashboard records has words of its own", () => {
  // Found in the source: an action without an entry here read as its operation name ("did “Delete/Close Channel” on").
  const recorded = new Set<string>([
    ...Object.keys(DASHBOARD_ACTION_POLICIES),
    ...Object.values(MEMBER_JOB_AUDIT_ACTIONS),
    ...[...filesUnder("lib/dashboard/actions"), ...filesUnder("lib/dashboard/jobs")]
      .filter((file) => file.endsWith(".ts"))
      .flatMap((file) => [...code(file).matchAll(/\baction: "([^"]+)"/g)].map((match) => match[1])),
  ]);

  test.each([...recorded])("%s", (action) => {
    expect(Object.hasOwn(ACTIONS, action), `${action} has no sentence in lib/dashboard/audit/sentences.ts`).toBe(true);
  });

  test("the source was read (the list is not empty by mistake)", () => {
    expect(recorded.has("Delete/Close Channel")).toBe(true);
    expect(recorded.size).toBeGreaterThan(30);
  });
});
