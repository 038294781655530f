// Finding (bulk jobs, guild scoping): the job stores looked jobs up by id alone in places. Resuming a bulk ban with
// another guild's job id checked that job's interrupted ids against the caller's own guild and wrote the answers into
// it (an id the caller had banned at home became "banned" in HQ's job) before the 404; starting a bulk member action
// so reset another guild's interrupted members to pending. Every job store function now takes the guild (and the kind
// of job) and scopes each read and write by it, so a job id of another guild, or of the other kind of job, matches
// nothing. Both modes: user mode (the caller's own token in their own guild) and bot mode (the bot in both guilds).
import { beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { PermissionFlagsBits } from "discord-api-types/v10";
import type { GuildActionDefinition } from "@/lib/dashboard/actions/action-client";
import { insertStrangers, testServerForFile } from "../integration/harness";
import { seedPruneGuild } from "../integration/prune-guild";
import { actionAs, apiClientAs, type DemoUser } from "../integration/dashboard/harness";

const server = testServerForFile({ rateLimits: { enabled: false } });

let prisma: typeof import("@/lib/dashboard/db").prisma;
let bans: typeof import("@/lib/dashboard/actions/bans");
let memberJobs: typeof import("@/lib/dashboard/actions/member-jobs");
let banStore: typeof import("@/lib/dashboard/jobs/bulk-ban/jobs");
let memberStore: typeof import("@/lib/dashboard/jobs/member-actions/jobs");
let resultPages: typeof import("@/lib/dashboard/jobs/result-pages");

/** The outsider's own guild, where they are the owner and the demo bot is an administrator. */
const OWN_GUILD = 8_800_000_000n;
const OWN = String(OWN_GUILD);
/** Users nobody has met, to put in bulk bans. */
let fresh: string[] = [];
/** HQ's plain members (no roles, not the owner). */
let plain: string[] = [];

beforeAll(async () => {
  ({ prisma } = await import("@/lib/dashboard/db"));
  bans = await import("@/lib/dashboard/actions/bans");
  memberJobs = await import("@/lib/dashboard/actions/member-jobs");
  banStore = await import("@/lib/dashboard/jobs/bulk-ban/jobs");
  memberStore = await import("@/lib/dashboard/jobs/member-actions/jobs");
  resultPages = await import("@/lib/dashboard/jobs/result-pages");
  await seedPruneGuild({
    guildId: OWN_GUILD,
    name: "Outsider's Den",
    ownerId: BigInt(server.world.users.outsider),
    roles: [[OWN_GUILD + 1n, "Bots", PermissionFlagsBits.Administrator]],
    staff: [
      [BigInt(server.world.users.outsider), "outsider"],
      [BigInt(server.world.botUserId), "guildhall-demo", [OWN_GUILD + 1n]],
    ],
    idle: {},
    firstUserId: 8_810_000_000n,
  });
  fresh = await insertStrangers(12, Date.UTC(2025, 2, 1), "scoping_target");
  const answer = await (
    await apiClientAs(server, "owner")
  ).members.searchV2(server.world.guildId, { and_query: { has_no_roles: true, is_bot: false }, limit: 20 });
  plain = answer.members.map((m) => m.member.user.id).filter((id) => id !== server.world.users.owner);
});

const hq = () => server.world.guildId;
const as = <S extends Parameters<typeof actionAs>[3]["schema"], R>(
  who: DemoUser,
  mode: "user" | "bot",
  definition: GuildActionDefinition<S, R>,
) => actionAs(server, who, mode, definition).run;

/** The job and its items exactly as stored: what a foreign call must leave alone. */
async function stored(jobId: string) {
  const job = await prisma.bulkBanJob.findUniqueOrThrow({ where: { id: jobId }, select: { status: true } });
  const items = await prisma.bulkBanItem.findMany({
    where: { jobId },
    select: { userId: true, state: true, detail: true },
    orderBy: { userId: "asc" },
  });
  return { status: job.status, items };
}

/** Marks the job's pending ids as sent long ago without an answer (an interrupted chunk, checked on resume). */
async function interrupt(jobId: string) {
  await prisma.bulkBanItem.updateMany({
    where: { jobId, state: "pending" },
    data: { state: "sending", detail: `sent at ${new Date(Date.now() - 10 * 60_000).toISOString()}` },
  });
}

/** A moderator's HQ bulk ban of `ids`, started, its chunk interrupted. */
async function interruptedBanJob(ids: string[]): Promise<string> {
  const preview = await as(
    "mod",
    "user",
    bans.previewBulkBanAction.definition,
  )({ guildId: hq(), text: ids.join(" "), delete_message_seconds: 0, reason: "raid" });
  if (!preview.ok) throw new Error(preview.error);
  const started = await as(
    "mod",
    "user",
    bans.startBulkBanJobAction.definition,
  )({ guildId: hq(), jobId: preview.data.jobId });
  if (!started.ok) throw new Error(started.error);
  await interrupt(preview.data.jobId);
  return preview.data.jobId;
}

/** A moderator's HQ bulk timeout of `ids`, started, its chunk interrupted (unless told otherwise). */
async function interruptedMemberJob(ids: string[], interrupted = true): Promise<string> {
  const prepared = await as(
    "mod",
    "user",
    memberJobs.prepareMemberJobAction.definition,
  )({ guildId: hq(), action: "timeout", until: new Date(Date.now() + 3_600_000).toISOString(), userIds: ids });
  if (!prepared.ok) throw new Error(prepared.error);
  const started = await as(
    "mod",
    "user",
    memberJobs.startMemberJobAction.definition,
  )({ guildId: hq(), jobId: prepared.data.jobId });
  if (!started.ok) throw new Error(started.error);
  if (interrupted) await interrupt(prepared.data.jobId);
  return prepared.data.jobId;
}

type JobControl = GuildActionDefinition<z.ZodType<{ guildId: string; jobId: string; reason?: string }>, unknown>;

/**
 * Any job control as `who` would run it. A throw counts as not done: a control given a job of the other kind once
 * changed it and then crashed reading it back.
 */
const attempt = (
  who: DemoUser,
  mode: "user" | "bot",
  definition: object,
  input: { guildId: string; jobId: string; userIds?: string[]; reason?: string },
) =>
  as(
    who,
    mode,
    definition as JobControl,
  )(input).catch((error: unknown) => ({ ok: false as const, thrown: String(error) }));

describe("resuming a bulk ban with another guild's job id", () => {
  it.each(["user", "bot"] as const)(
    "%s mode: answers 404 and leaves HQ's interrupted ids as they were",
    async (mode) => {
      const [x, y] = mode === "user" ? fresh.slice(0, 2) : fresh.slice(2, 4);
      const jobId = await interruptedBanJob([x, y]);
      const before = await stored(jobId);
      expect(before.items.map((i) => i.state)).toEqual(["sending", "sending"]);

      // The outsider bans x in their own guild, then resumes HQ's job naming their own guild.
      expect((await server.api("outsider", "PUT", `/guilds/${OWN}/bans/${x}`, {})).status).toBe(204);
      const result = await as("outsider", mode, bans.startBulkBanJobAction.definition)({ guildId: OWN, jobId });
      expect(result).toMatchObject({ ok: false, status: 404 });

      expect(await stored(jobId)).toEqual(before);
      expect((await server.api("bot", "GET", `/guilds/${hq()}/bans/${x}`)).status).toBe(404);
    },
  );
});

describe("starting a bulk member action with another guild's job id", () => {
  it.each(["user", "bot"] as const)(
    "%s mode: answers 404 and leaves HQ's interrupted members 'sending'",
    async (mode) => {
      const jobId = await interruptedMemberJob(mode === "user" ? plain.slice(0, 2) : plain.slice(2, 4));
      const before = await stored(jobId);
      expect(before.items.map((i) => i.state)).toEqual(["sending", "sending"]);
      const result = await as("outsider", mode, memberJobs.startMemberJobAction.definition)({ guildId: OWN, jobId });
      expect(result).toMatchObject({ ok: false, status: 404 });
      expect(await stored(jobId)).toEqual(before);
    },
  );
});

describe("every control of both kinds of job, with another guild's job id, changes nothing", () => {
  it("bulk ban: start, pause, cancel, a chunk, undo (user and bot mode)", async () => {
    const ids = fresh.slice(4, 6);
    const jobId = await interruptedBanJob(ids);
    const before = await stored(jobId);
    for (const mode of ["user", "bot"] as const) {
      const job = { guildId: OWN, jobId };
      for (const definition of [
        bans.startBulkBanJobAction.definition,
        bans.pauseBulkBanJobAction.definition,
        bans.cancelBulkBanJobAction.definition,
        bans.beginUndoBulkBanAction.definition,
      ])
        expect(await attempt("outsider", mode, definition, job), `${mode}: ${definition.action}`).toMatchObject({
          ok: false,
        });
      expect(await as("outsider", mode, bans.runBulkBanChunkAction.definition)({ ...job, userIds: ids })).toMatchObject(
        { ok: false },
      );
      expect(
        await as("outsider", mode, bans.undoBulkBanChunkAction.definition)({ ...job, userIds: ids }),
      ).toMatchObject({ ok: false });
    }
    expect(await stored(jobId)).toEqual(before);
  });

  it("bulk member action: start, pause, cancel, each kind's chunk (user and bot mode)", async () => {
    const jobId = await interruptedMemberJob(plain.slice(4, 6));
    const before = await stored(jobId);
    for (const mode of ["user", "bot"] as const)
      for (const action of [
        memberJobs.startMemberJobAction,
        memberJobs.pauseMemberJobAction,
        memberJobs.cancelMemberJobAction,
        memberJobs.runBulkTimeoutChunkAction,
        memberJobs.runBulkKickChunkAction,
        memberJobs.runBulkAddRoleChunkAction,
      ])
        expect(
          await attempt("outsider", mode, action.definition, { guildId: OWN, jobId }),
          `${mode}: ${action.definition.action}`,
        ).toMatchObject({ ok: false });
    expect(await stored(jobId)).toEqual(before);
  });

  it("the stores themselves: every function given the other guild matches nothing", async () => {
    const banJobId = await interruptedBanJob(fresh.slice(6, 8));
    const memberJobId = await interruptedMemberJob(plain.slice(6, 8));
    const banBefore = await stored(banJobId);
    const memberBefore = await stored(memberJobId);
    const [a, b] = fresh.slice(6, 8);

    expect(await banStore.getJob(OWN, banJobId)).toBeNull();
    expect(await banStore.sendingItems(OWN, banJobId)).toEqual([]);
    await banStore.resolveSending(OWN, banJobId, [a], [b]);
    await banStore.releaseChunk(OWN, banJobId, [a, b]);
    await banStore.pauseUncertain(OWN, banJobId);
    await banStore.recordChunk(OWN, banJobId, { banned: [a], failed: [{ userId: b, detail: "no" }] }).catch(() => null);
    await banStore.recordUndo(OWN, banJobId, [{ userId: a, detail: null }]).catch(() => null);
    await expect(banStore.resume(OWN, banJobId)).rejects.toMatchObject({ status: 404 });

    expect(await memberStore.getMemberJob(OWN, memberJobId)).toBeNull();
    await expect(memberStore.releaseStaleSending(OWN, memberJobId)).resolves.toBe(0);
    expect((await memberStore.memberJobCounts(OWN, memberJobId)).total).toBe(0);
    await memberStore
      .recordMemberChunk(
        OWN,
        memberJobId,
        { userIds: memberBefore.items.map((i) => i.userId), stamp: memberBefore.items[0].detail! },
        { done: memberBefore.items.map((i) => i.userId), failed: [], unsent: [] },
      )
      .catch(() => null);

    for (const jobId of [banJobId, memberJobId]) {
      const page = await resultPages.getJobResultsPage(OWN, jobId, "all", 1);
      expect(page.counts.all).toBe(0);
      expect(page.rows).toEqual([]);
    }
    expect(await stored(banJobId)).toEqual(banBefore);
    expect(await stored(memberJobId)).toEqual(memberBefore);
  });
});

describe("a job id of the other kind of job, in the same guild", () => {
  it("the member-job controls do not reach a bulk ban: Helper (Kick Members) can neither start nor cancel one", async () => {
    const jobId = await interruptedBanJob(fresh.slice(8, 10));
    await as("mod", "user", bans.pauseBulkBanJobAction.definition)({ guildId: hq(), jobId });
    const before = await stored(jobId);
    expect(before.status).toBe("paused");
    for (const mode of ["user", "bot"] as const)
      for (const action of [memberJobs.startMemberJobAction, memberJobs.cancelMemberJobAction])
        expect(
          await attempt("helper", mode, action.definition, { guildId: hq(), jobId }),
          `${mode}: ${action.definition.action}`,
        ).toMatchObject({ ok: false });
    expect(await stored(jobId)).toEqual(before);
  });

  it("the bulk-ban controls do not reach a member job", async () => {
    const interrupted = await interruptedMemberJob(plain.slice(8, 10));
    const running = await interruptedMemberJob(plain.slice(10, 12), false);
    const before = [await stored(interrupted), await stored(running)];
    expect(before.map((job) => job.status)).toEqual(["running", "running"]);
    for (const jobId of [interrupted, running])
      for (const definition of [
        bans.startBulkBanJobAction.definition,
        bans.pauseBulkBanJobAction.definition,
        bans.cancelBulkBanJobAction.definition,
      ])
        expect(await attempt("mod", "user", definition, { guildId: hq(), jobId }), definition.action).toMatchObject({
          ok: false,
        });
    expect(
      await as(
        "mod",
        "user",
        bans.runBulkBanChunkAction.definition,
      )({ guildId: hq(), jobId: running, userIds: plain.slice(10, 12) }),
    ).toMatchObject({ ok: false });
    expect([await stored(interrupted), await stored(running)]).toEqual(before);
    for (const id of plain.slice(8, 12))
      expect((await server.api("bot", "GET", `/guilds/${hq()}/bans/${id}`)).status).toBe(404);
  });
});
