// Moderation cases in the dashboard's tables (issue #32): read off the audit history once per entry, numbered per
// guild in the order the actions happened, listed newest first with filters, search and paging, reasons edited with
// their history, counted per member. Against the harness server's database (SQLite, or PostgreSQL with
// INTEGRATION_DATABASE=postgresql); the history rows are written as the dashboard and the audit-log import write them.
import { beforeAll, beforeEach, describe, expect, test } from "vitest";
import { testServerForFile } from "../harness";

testServerForFile();

let prisma: typeof import("@/lib/dashboard/db").prisma;
let cases: typeof import("@/lib/dashboard/cases/store");

beforeAll(async () => {
  ({ prisma } = await import("@/lib/dashboard/db"));
  cases = await import("@/lib/dashboard/cases/store");
});

beforeEach(async () => {
  await prisma.scheduledModeration.deleteMany();
  await prisma.bulkBanJob.deleteMany();
  await prisma.moderationCase.deleteMany();
  await prisma.caseCounter.deleteMany();
  await prisma.auditHistoryEntry.deleteMany();
});

const GUILD = "100000000000000001";
const OTHER_GUILD = "100000000000000002";
const MOD = { actorId: "200000000000000001", actorName: "Mod" };
const start = Date.UTC(2026, 10, 20, 12, 0, 0);
let clock = 0;

/** A history entry as the dashboard (or, with source "guild-log", the import) writes it, a minute after the last. */
function history(action: string, targetId: string, over: Record<string, unknown> = {}) {
  return prisma.auditHistoryEntry.create({
    data: {
      guildId: GUILD,
      ...MOD,
      action,
      targetType: "user",
      targetId,
      targetName: `user ${targetId.slice(-2)}`,
      reason: `${action} reason`,
      status: "success",
      createdAt: new Date(start + ++clock * 60_000),
      ...over,
    },
  });
}

/** A completed members-page kick job of the moderator's, run over the next ten minutes of the test's clock. */
function kickJob(over: Partial<Parameters<typeof prisma.bulkBanJob.create>[0]["data"]> = {}) {
  return prisma.bulkBanJob.create({
    data: {
      guildId: GUILD,
      kind: "kick",
      actorId: MOD.actorId,
      actorName: MOD.actorName,
      reason: "raid",
      status: "completed",
      createdAt: new Date(start + clock * 60_000),
      updatedAt: new Date(start + (clock + 10) * 60_000),
      ...over,
    },
  });
}

describe("cases read off the history", () => {
  test("each moderation entry makes its cases once, numbered per guild in the order the actions happened", async () => {
    await history("Create Guild Ban", "300000000000000001");
    await history("Modify Guild Role", "400000000000000001", { targetType: "role" });
    await history("Remove Guild Member", "300000000000000002", { source: "guild-log", auditLogId: "9001" });
    await history("Create Guild Ban", "300000000000000003", { status: "error" });
    await history("Remove Guild Ban", "300000000000000001", { guildId: OTHER_GUILD });

    expect(await cases.syncCases(GUILD)).toBe(2);
    // A second sync finds nothing new: no case twice.
    expect(await cases.syncCases(GUILD)).toBe(0);
    const { cases: listed } = await cases.listCases(GUILD, {});
    expect(listed.map((c) => [c.number, c.type, c.targetId, c.source, c.auditLogId])).toEqual([
      [2, "kick", "300000000000000002", "guild-log", "9001"],
      [1, "ban", "300000000000000001", "dashboard", null],
    ]);
    // The other guild numbers from 1 on its own.
    expect(await cases.syncCases(OTHER_GUILD)).toBe(1);
    expect((await cases.listCases(OTHER_GUILD, {})).cases.map((c) => [c.number, c.type])).toEqual([[1, "unban"]]);
  });

  test("two syncs of one guild at the same moment number every case once, with no gap", async () => {
    for (let i = 0; i < 30; i++) await history("Create Guild Ban", `3000000000000001${String(i).padStart(2, "0")}`);
    const made = await Promise.all([cases.syncCases(GUILD), cases.syncCases(GUILD), cases.syncCases(GUILD)]);
    expect(made.reduce((a, b) => a + b, 0)).toBe(30);
    const numbers = (await cases.listCases(GUILD, {}, { pageSize: 100 })).cases.map((c) => c.number);
    expect(numbers).toEqual(Array.from({ length: 30 }, (_, i) => 30 - i));
  });

  test("entries written after a sync are read by the next one", async () => {
    await history("Create Guild Ban", "300000000000000001");
    await cases.syncCases(GUILD);
    await history("Remove Guild Ban", "300000000000000001");
    expect(await cases.syncCases(GUILD)).toBe(1);
    expect((await cases.getCase(GUILD, 2))?.type).toBe("unban");
  });
});

describe("listing", () => {
  beforeEach(async () => {
    await history("Create Guild Ban", "300000000000000001", { reason: "raid account" });
    await history("Warn member", "300000000000000002", { reason: "spam in #general" });
    await history("Warn member", "300000000000000002", {
      reason: "again",
      actorId: "200000000000000002",
      actorName: "Helper",
    });
    await history("Remove Guild Member", "300000000000000003", { source: "guild-log", auditLogId: "9002" });
    await cases.syncCases(GUILD);
  });

  const numbersOf = async (
    filter: import("@/lib/dashboard/cases/store").CaseFilter,
    sources?: ("dashboard" | "guild-log")[],
  ) => (await cases.listCases(GUILD, filter, { scope: { sources } })).cases.map((c) => c.number);

  test("filters by type, moderator, member and time; searches numbers, reasons and names", async () => {
    expect(await numbersOf({ types: ["warning"] })).toEqual([3, 2]);
    expect(await numbersOf({ moderatorId: "200000000000000002" })).toEqual([3]);
    expect(await numbersOf({ targetId: "300000000000000002" })).toEqual([3, 2]);
    expect(await numbersOf({ from: "2026-11-20", to: "2026-11-20" })).toEqual([4, 3, 2, 1]);
    expect(await numbersOf({ from: "2026-11-21" })).toEqual([]);
    expect(await numbersOf({ search: "#1" })).toEqual([1]);
    expect(await numbersOf({ search: "SPAM" })).toEqual([2]);
    expect(await numbersOf({ search: "helper" })).toEqual([3]);
    expect(await numbersOf({ search: "user 03" })).toEqual([4]);
  });

  test("a viewer without the guild's audit log sees the dashboard's cases only", async () => {
    expect(await numbersOf({}, ["dashboard"])).toEqual([3, 2, 1]);
    expect(await cases.caseCountsFor(GUILD, "300000000000000003", ["dashboard"])).toEqual({});
    expect(await cases.caseCountsFor(GUILD, "300000000000000003")).toEqual({ kick: 1 });
  });

  test("pages newest first by case number", async () => {
    const first = await cases.listCases(GUILD, {}, { pageSize: 3 });
    expect(first.cases.map((c) => c.number)).toEqual([4, 3, 2]);
    expect(first.next).toBe(2);
    const second = await cases.listCases(GUILD, {}, { pageSize: 3, before: first.next });
    expect(second.cases.map((c) => c.number)).toEqual([1]);
    expect(second.next).toBeNull();
  });

  test("counts a member's cases by type", async () => {
    expect(await cases.caseCountsFor(GUILD, "300000000000000002")).toEqual({ warning: 2 });
  });
});

describe("reasons", () => {
  test("an edit keeps who changed it, when, and from what; the case shows the latest", async () => {
    await history("Create Guild Ban", "300000000000000001", { reason: "spam" });
    await cases.syncCases(GUILD);
    const editor = { id: "200000000000000009", name: "Lead" };
    expect(await cases.editCaseReason(GUILD, 1, editor, "spam links in 12 channels")).toBe(true);
    expect(await cases.editCaseReason(GUILD, 1, editor, "spam links in 12 channels")).toBe(true);
    expect(await cases.editCaseReason(GUILD, 1, editor, null)).toBe(true);
    const edited = await cases.getCase(GUILD, 1);
    expect(edited?.reason).toBeNull();
    expect(edited?.edits.map((e) => [e.editorName, e.previous, e.next])).toEqual([
      ["Lead", "spam", "spam links in 12 channels"],
      ["Lead", "spam links in 12 channels", null],
    ]);
    expect(edited?.reasonEdits).toBe(2);
    expect(edited?.edits.map((e) => e.editorId)).toEqual([editor.id, editor.id]);
    // Another guild's case number is not this guild's.
    expect(await cases.editCaseReason(OTHER_GUILD, 1, editor, "x")).toBe(false);
  });
});

describe("what is scheduled, as cases come in", () => {
  test("an unban imported late, older than a temporary ban made since, cancels nothing of it; a newer one does", async () => {
    const target = "300000000000000005";
    await history("Create Guild Ban", target, { request: JSON.stringify({ ban_duration_seconds: 3600 }) });
    await cases.syncCases(GUILD);
    const status = async () =>
      (await prisma.scheduledModeration.findFirstOrThrow({ where: { userId: target } })).status;
    expect(await status()).toBe("pending");
    // Discord's client unbanned them before this ban; the import brings it in only now.
    await history("Remove Guild Ban", target, { source: "guild-log", auditLogId: "9100", createdAt: new Date(start) });
    await cases.syncCases(GUILD);
    expect(await status()).toBe("pending");
    await history("Remove Guild Ban", target);
    await cases.syncCases(GUILD);
    expect(await status()).toBe("cancelled");
  });
});

describe("members-page jobs", () => {
  test("a kick job of 4,000 members makes its 4,000 cases (more values than one statement may bind)", async () => {
    const members = Array.from({ length: 4_000 }, (_, i) => `${400_000_000_000_000_000n + BigInt(i)}`);
    const job = await kickJob();
    await prisma.bulkBanItem.createMany({
      data: members.map((userId, i) => ({ jobId: job.id, userId, state: "done", name: `raider_${i}` })),
    });
    await history("Bulk kick", job.id, {
      targetType: "member-job",
      targetName: null,
      request: JSON.stringify({ job: job.id }),
    });
    expect(await cases.syncCases(GUILD)).toBe(4_000);
    const numbers = await prisma.moderationCase.findMany({ where: { guildId: GUILD }, select: { number: true } });
    expect(numbers.map((c) => c.number).sort((a, b) => a - b)).toEqual(members.map((_, i) => i + 1));
    expect(await prisma.auditHistoryEntry.count({ where: { guildId: GUILD, casesDerived: false } })).toBe(0);
  });

  test("a kick job makes a case per member kicked when it ends; the guild's own entries for them make none", async () => {
    const [kicked, alsoKicked, failed, elsewhere] = ["31", "32", "33", "34"].map((n) => `3000000000000000${n}`);
    const job = await kickJob({
      items: {
        create: [
          { userId: kicked, state: "done", name: "raid_bot_1" },
          { userId: alsoKicked, state: "done", name: "raid_bot_2" },
          { userId: failed, state: "failed", detail: "not a member any more" },
        ],
      },
    });
    // The import brings the guild's entry for one of the job's kicks, and one for a kick of someone else, before the
    // job's own entry (written by the chunk that completes it).
    await history("Remove Guild Member", kicked, { source: "guild-log", auditLogId: "9201" });
    await history("Remove Guild Member", elsewhere, { source: "guild-log", auditLogId: "9202" });
    await history("Bulk kick", job.id, {
      targetType: "member-job",
      targetName: null,
      request: JSON.stringify({ job: job.id }),
    });
    await cases.syncCases(GUILD);
    const listed = (await cases.listCases(GUILD, {})).cases;
    expect(listed.map((c) => [c.type, c.targetId, c.targetName, c.source, c.reason])).toEqual([
      ["kick", alsoKicked, "raid_bot_2", "dashboard", "Bulk kick reason"],
      ["kick", kicked, "raid_bot_1", "dashboard", "Bulk kick reason"],
      ["kick", elsewhere, "user 34", "guild-log", "Remove Guild Member reason"],
    ]);
  });
});
