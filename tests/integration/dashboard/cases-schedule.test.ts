// Temporary bans that end by themselves and timeouts past Discord's 28 days (issue #32): the ban action files its
// length, its case schedules the unban, the scheduler unbans through the real API at the end with "Temporary ban
// ended (case #N)" and files it (an unban case), exactly once however many passes run at the same moment; an unban by
// hand or a new ban cancels what was scheduled; a failing call is retried later, then left failed.
import { afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { GuildApiClient } from "@/lib/api-client";
import { testServerForFile } from "../harness";
import { actionAs, apiClientAs } from "./harness";

const server = testServerForFile({ rateLimits: { enabled: false } });

let prisma: typeof import("@/lib/dashboard/db").prisma;
let store: typeof import("@/lib/dashboard/cases/store");
let schedule: typeof import("@/lib/dashboard/cases/schedule");
let recordAuditEntry: typeof import("@/lib/dashboard/audit/history").recordAuditEntry;
// Imported once the harness has pointed DATABASE_URL at this file's database: the dashboard's Prisma client is made
// when its module loads.
let banUserByIdAction: typeof import("@/lib/dashboard/actions/bans").banUserByIdAction;

beforeAll(async () => {
  ({ prisma } = await import("@/lib/dashboard/db"));
  store = await import("@/lib/dashboard/cases/store");
  schedule = await import("@/lib/dashboard/cases/schedule");
  ({ recordAuditEntry } = await import("@/lib/dashboard/audit/history"));
  ({ banUserByIdAction } = await import("@/lib/dashboard/actions/bans"));
});

beforeEach(async () => {
  await prisma.scheduledModeration.deleteMany();
  await prisma.moderationCase.deleteMany();
  await prisma.caseCounter.deleteMany();
  await prisma.auditHistoryEntry.deleteMany();
});

const guildId = () => server.world.guildId;
/** A plain seeded member the moderator outranks. */
const target = () => server.world.users.member;

/** Bans `userId` as the moderator through the dashboard's own action, with the history and cases written for real. */
async function banAs(duration: unknown, userId = target()) {
  const { run } = actionAs(server, "mod", "user", banUserByIdAction.definition, {
    record: async (entry) => {
      await recordAuditEntry(entry);
      await store.syncCases(entry.guildId);
    },
  });
  const result = await run({
    guildId: guildId(),
    userId,
    delete_message_seconds: 0,
    reason: "raid",
    duration,
  } as never);
  expect(result).toMatchObject({ ok: true });
  return result;
}

const banned = async (userId = target()) =>
  (await server.api("admin", "GET", `/guilds/${guildId()}/bans/${userId}`)).status === 200;

/**
 * The scheduler's dependencies: the moderator's own API client, counting the calls; `during` runs as each unban is
 * sent, before it reaches the API.
 */
function deps(calls: { count: number }, fail = false, during?: (userId: string) => Promise<void>) {
  return {
    mode: () => "user" as const,
    apiFor: async (actorId: string): Promise<GuildApiClient> => {
      expect(actorId).toBe(server.world.users.mod);
      const client = await apiClientAs(server, "mod");
      const unban = client.bans.unban.bind(client.bans);
      client.bans.unban = async (...args: Parameters<typeof unban>) => {
        calls.count++;
        await during?.(args[1]);
        if (fail) throw new Error("the API is away");
        return unban(...args);
      };
      return client;
    },
  };
}

afterEach(async () => {
  for (const userId of [target(), server.world.users.outsider])
    await server.api("admin", "DELETE", `/guilds/${guildId()}/bans/${userId}`);
});

describe("temporary bans", () => {
  test("a 1-hour ban schedules its end; the scheduler unbans once at the end, files it, and it becomes case #2", async () => {
    const result = await banAs("1h");
    expect(result).toMatchObject({ message: expect.stringContaining("for 1 hour") });
    const [row] = await prisma.scheduledModeration.findMany();
    const [ban] = (await store.listCases(guildId(), {})).cases;
    expect(ban).toMatchObject({ number: 1, type: "ban", durationSeconds: 3600 });
    expect(row).toMatchObject({ kind: "unban", userId: target(), status: "pending" });
    expect(row.runAt.toISOString()).toBe(ban.endsAt);

    const calls = { count: 0 };
    // Not yet due: nothing runs.
    expect(await schedule.runDueSchedules(deps(calls), new Date(row.runAt.getTime() - 1000))).toBe(0);
    expect(await banned()).toBe(true);
    // Due: three passes at once (three instances); one unbans.
    const due = new Date(row.runAt.getTime() + 1000);
    await Promise.all([0, 1, 2].map(() => schedule.runDueSchedules(deps(calls), due)));
    expect(calls.count).toBe(1);
    expect(await banned()).toBe(false);
    expect(await prisma.scheduledModeration.findUnique({ where: { id: row.id } })).toMatchObject({ status: "done" });
    const cases = (await store.listCases(guildId(), {})).cases;
    expect(cases.map((c) => [c.number, c.type, c.reason])).toEqual([
      [2, "unban", "Temporary ban ended (case #1)"],
      [1, "ban", "raid"],
    ]);
  });

  test("unbanning by hand before the end cancels it; a new permanent ban cancels an earlier end too", async () => {
    await banAs("1d");
    await server.api("mod", "DELETE", `/guilds/${guildId()}/bans/${target()}`);
    await recordAuditEntry({
      guildId: guildId(),
      actor: { id: server.world.users.mod, name: "Mod" },
      action: "Remove Guild Ban",
      target: { type: "user", id: target(), name: "member" },
      status: "success",
    });
    await store.syncCases(guildId());
    expect((await prisma.scheduledModeration.findFirst())?.status).toBe("cancelled");

    await prisma.scheduledModeration.deleteMany();
    await banAs("1d");
    await server.api("admin", "DELETE", `/guilds/${guildId()}/bans/${target()}`);
    await banAs("permanent");
    const rows = await prisma.scheduledModeration.findMany();
    expect(rows.map((r) => r.status)).toEqual(["cancelled"]);
    const calls = { count: 0 };
    expect(await schedule.runDueSchedules(deps(calls), new Date(Date.now() + 2 * 86_400_000))).toBe(0);
    expect(await banned()).toBe(true);
  });

  test("a failing unban is tried again later, then left failed with its error", async () => {
    await banAs("1h");
    const calls = { count: 0 };
    let at = Date.now() + 3_600_000 + 1000;
    for (let attempt = 1; attempt <= schedule.MAX_ATTEMPTS; attempt++) {
      expect(await schedule.runDueSchedules(deps(calls, true), new Date(at))).toBe(1);
      const row = (await prisma.scheduledModeration.findFirst())!;
      expect(row.attempts).toBe(attempt);
      expect(row.lastError).toBe("the API is away");
      if (attempt < schedule.MAX_ATTEMPTS) {
        expect(row.status).toBe("pending");
        // The wait is counted from when the attempt ran: the pass's clock runs on from `at`.
        const wait = row.runAt.getTime() - at;
        expect(wait).toBeGreaterThanOrEqual(60_000 * 2 ** (attempt - 1));
        expect(wait).toBeLessThan(60_000 * 2 ** (attempt - 1) + 5_000);
        at = row.runAt.getTime();
      } else expect(row.status).toBe("failed");
    }
    expect(calls.count).toBe(schedule.MAX_ATTEMPTS);
    expect(await banned()).toBe(true);
  });

  test("bans ending in one batch are each written as they ended: gone already, cancelled in flight, done", async () => {
    const outsider = server.world.users.outsider;
    await banAs("1h");
    await banAs("1h", outsider);
    // The member is unbanned where the dashboard does not see it (no history entry): their end finds no ban.
    await server.api("admin", "DELETE", `/guilds/${guildId()}/bans/${target()}`);
    const calls = { count: 0 };
    // The outsider's end is cancelled while its unban is on its way (a moderator ending it by hand at that moment).
    const cancelInFlight = async (userId: string) => {
      if (userId === outsider)
        await prisma.scheduledModeration.updateMany({ where: { userId }, data: { status: "cancelled" } });
    };
    const due = new Date(Date.now() + 3_600_000 + 1000);
    expect(await schedule.runDueSchedules(deps(calls, false, cancelInFlight), due)).toBe(2);
    expect(calls.count).toBe(2);
    const rows = await prisma.scheduledModeration.findMany();
    expect(Object.fromEntries(rows.map((row) => [row.userId, [row.status, row.lastError]]))).toEqual({
      [target()]: ["done", "already unbanned"],
      [outsider]: ["cancelled", null],
    });
    expect(await banned(outsider)).toBe(false);
    // The unban that was made is filed (it happened), as the outsider's case; the member's end made none.
    const cases = (await store.listCases(guildId(), {})).cases;
    expect(cases.filter((c) => c.type === "unban").map((c) => [c.targetId, c.reason])).toEqual([
      [outsider, "Temporary ban ended (case #2)"],
    ]);
  });

  test("a member banned again while the batch that unbanned them runs stays banned: the unban is dated when made", async () => {
    const outsider = server.world.users.outsider;
    await banAs("1h");
    await banAs("1h", outsider);
    const calls = { count: 0 };
    // As the outsider's unban goes out, the member (unbanned a moment ago by the same batch) is banned again for a day.
    const banAgain = async (userId: string) => {
      if (userId !== outsider) return;
      while (await banned()) await new Promise((resolve) => setTimeout(resolve, 5));
      await banAs("1d");
    };
    const due = new Date(Date.now() + 3_600_000 + 1000);
    expect(await schedule.runDueSchedules(deps(calls, false, banAgain), due)).toBe(2);
    expect(await banned()).toBe(true);
    // The new ban's end is still to come: the unban's case, filed after the batch, is older than it and cancels nothing.
    const ends = await prisma.scheduledModeration.findMany({
      where: { userId: target() },
      orderBy: { createdAt: "asc" },
    });
    // (The first ban's end was cancelled by the new ban while it ran: a newer ban supersedes it.)
    expect(ends.map((row) => row.status)).toEqual(["cancelled", "pending"]);
    // In the order they happened (the unban, filed after the new ban, has the higher number).
    const mine = (await store.listCases(guildId(), { targetId: target() })).cases;
    expect(mine.sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map((c) => c.type)).toEqual([
      "ban",
      "unban",
      "ban",
    ]);
  });

  test("a claim whose instance died is taken over once it lapses", async () => {
    await banAs("1h");
    const row = (await prisma.scheduledModeration.findFirst())!;
    const due = new Date(row.runAt.getTime() + 1000);
    const [claimed] = await schedule.claimDue(due);
    expect(claimed.id).toBe(row.id);
    // The claimer dies here. Within the claim nobody else takes it; after it, the next pass does.
    expect(await schedule.claimDue(new Date(due.getTime() + schedule.CLAIM_MS - 1000))).toEqual([]);
    const calls = { count: 0 };
    expect(await schedule.runDueSchedules(deps(calls), new Date(due.getTime() + schedule.CLAIM_MS + 1000))).toBe(1);
    expect(calls.count).toBe(1);
    expect(await banned()).toBe(false);
  });
});
