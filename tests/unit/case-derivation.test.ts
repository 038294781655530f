import { describe, expect, test } from "vitest";
import {
  casesFromHistoryEntry,
  casesFromMemberJob,
  memberJobIdOf,
  NOTE_ACTION,
  WARN_ACTION,
  type HistoryEntryForCases,
} from "@/lib/dashboard/cases/derive";

const at = new Date(Date.UTC(2026, 10, 29, 12, 0, 0));
const inDays = (days: number) => new Date(at.getTime() + days * 86_400_000).toISOString();

const entry = (over: Partial<HistoryEntryForCases>): HistoryEntryForCases => ({
  id: "h1",
  action: "Create Guild Ban",
  status: "success",
  source: "dashboard",
  actorId: "10",
  actorName: "Mod",
  actorBot: false,
  targetId: "20",
  targetName: "Spammer",
  reason: "spam",
  request: null,
  before: null,
  after: null,
  auditLogId: null,
  createdAt: at,
  ...over,
});

const typesOf = (e: HistoryEntryForCases) => casesFromHistoryEntry(e).map((c) => c.type);

describe("cases read off the audit history", () => {
  test("bans, unbans and kicks, with who, whom, why and the audit-log link", () => {
    const [ban] = casesFromHistoryEntry(entry({ auditLogId: "99" }));
    expect(ban).toMatchObject({
      type: "ban",
      targetId: "20",
      targetName: "Spammer",
      moderatorId: "10",
      moderatorName: "Mod",
      reason: "spam",
      durationSeconds: null,
      endsAt: null,
      auditLogId: "99",
      historyId: "h1",
      source: "dashboard",
    });
    expect(typesOf(entry({ action: "Remove Guild Ban" }))).toEqual(["unban"]);
    expect(typesOf(entry({ action: "Remove Guild Member" }))).toEqual(["kick"]);
    expect(typesOf(entry({ action: WARN_ACTION }))).toEqual(["warning"]);
    expect(typesOf(entry({ action: NOTE_ACTION }))).toEqual(["note"]);
  });

  test("a temporary ban keeps its length and end from the dashboard's request", () => {
    const [ban] = casesFromHistoryEntry(entry({ request: JSON.stringify({ ban_duration_seconds: 3600 }) }));
    expect(ban.durationSeconds).toBe(3600);
    expect(ban.endsAt?.toISOString()).toBe(new Date(at.getTime() + 3_600_000).toISOString());
  });

  test("failures, parts of another change and changes that are not moderation make none", () => {
    expect(typesOf(entry({ status: "error" }))).toEqual([]);
    expect(typesOf(entry({ source: "part" }))).toEqual([]);
    expect(typesOf(entry({ action: "Modify Guild Role" }))).toEqual([]);
    expect(typesOf(entry({ action: "Modify Guild Member", before: '{"nick":"a"}', after: '{"nick":"b"}' }))).toEqual(
      [],
    );
  });

  test("timeouts: set (its length from now), the dashboard's end past the 28-day cap, removed", () => {
    const [timeout] = casesFromHistoryEntry(
      entry({
        action: "Modify Guild Member",
        before: JSON.stringify({ communication_disabled_until: null }),
        after: JSON.stringify({ communication_disabled_until: inDays(1) }),
      }),
    );
    expect(timeout).toMatchObject({ type: "timeout", durationSeconds: 86_400 });
    const [long] = casesFromHistoryEntry(
      entry({
        action: "Modify Guild Member",
        request: JSON.stringify({ communication_disabled_until: inDays(28), timeout_ends_at: inDays(90) }),
        after: JSON.stringify({ communication_disabled_until: inDays(28) }),
      }),
    );
    expect(long).toMatchObject({ type: "timeout", durationSeconds: 90 * 86_400 });
    expect(long.endsAt?.toISOString()).toBe(inDays(90));
    expect(
      typesOf(
        entry({
          action: "Modify Guild Member",
          before: JSON.stringify({ communication_disabled_until: inDays(2) }),
          after: JSON.stringify({ communication_disabled_until: null }),
        }),
      ),
    ).toEqual(["timeout_removed"]);
    // Clearing a timeout that had already ended removes nothing.
    expect(
      typesOf(
        entry({
          action: "Modify Guild Member",
          before: JSON.stringify({ communication_disabled_until: inDays(-1) }),
          after: JSON.stringify({ communication_disabled_until: null }),
        }),
      ),
    ).toEqual([]);
  });

  test("role changes from the dashboard's role lists and from the audit log's $add/$remove", () => {
    const [fromDashboard] = casesFromHistoryEntry(
      entry({
        action: "Modify Guild Member",
        before: JSON.stringify({ roles: ["1", "2"] }),
        after: JSON.stringify({ roles: ["2", "3"] }),
      }),
    );
    expect(fromDashboard).toMatchObject({
      type: "role_change",
      details: { added: [{ id: "3", name: null }], removed: [{ id: "1", name: null }] },
    });
    const [imported] = casesFromHistoryEntry(
      entry({
        action: "Modify Guild Member Roles",
        source: "guild-log",
        actorBot: true,
        auditLogId: "77",
        after: JSON.stringify({ $add: [{ id: "5", name: "Muted" }] }),
      }),
    );
    expect(imported).toMatchObject({
      type: "role_change",
      source: "guild-log",
      moderatorBot: true,
      auditLogId: "77",
      details: { added: [{ id: "5", name: "Muted" }], removed: [] },
    });
    expect(
      typesOf(entry({ action: "Modify Guild Member", before: '{"roles":["1"]}', after: '{"roles":["1"]}' })),
    ).toEqual([]);
  });

  test("a bulk-ban chunk makes a ban case per user it banned, none for those it failed", () => {
    const cases = casesFromHistoryEntry(
      entry({
        action: "Bulk Guild Ban",
        targetId: "job1",
        after: JSON.stringify({ banned_users: ["31", "32"], failed_users: ["33"] }),
      }),
    );
    expect(cases.map((c) => [c.type, c.targetId])).toEqual([
      ["ban", "31"],
      ["ban", "32"],
    ]);
  });

  test("a members-page kick or timeout job makes a case per member it was done to, when it ends; role jobs none", () => {
    const members = [
      { userId: "31", name: "raid_bot_1" },
      { userId: "32", name: null },
    ];
    const completed = entry({ action: "Bulk kick", targetId: "job1", targetName: null, request: '{"job":"job1"}' });
    expect(memberJobIdOf(completed)).toBe("job1");
    expect(casesFromMemberJob(completed, { kind: "kick", until: null, members })).toEqual([
      expect.objectContaining({ type: "kick", targetId: "31", targetName: "raid_bot_1", moderatorId: "10" }),
      expect.objectContaining({ type: "kick", targetId: "32", targetName: "32", reason: "spam" }),
    ]);
    const cancelled = entry({ action: "Cancel bulk member action", targetId: "job2", request: null });
    expect(memberJobIdOf(cancelled)).toBe("job2");
    const [timeout] = casesFromMemberJob(cancelled, { kind: "timeout", until: inDays(1), members });
    expect(timeout).toMatchObject({ type: "timeout", durationSeconds: 86_400, endsAt: new Date(inDays(1)) });
    expect(casesFromMemberJob(cancelled, { kind: "remove_timeout", until: null, members })[0].type).toBe(
      "timeout_removed",
    );
    expect(casesFromMemberJob(completed, { kind: "add_role", until: null, members })).toEqual([]);
    expect(casesFromMemberJob({ ...completed, status: "error" }, { kind: "kick", until: null, members })).toEqual([]);
  });
});
