// The members page's bulk actions as action definitions (wired to the app as server actions in
// lib/dashboard/actions/member-jobs.ts; tests and the bench run them through createGuildAction). Preparing reads the members (those picked, or every member
// matching the table's filter, through Search Guild Members v2), judges each with the shared permission engine and
// stores a job; nothing changes in the guild yet. The browser then drives the job one chunk at a time (the server
// picks the next pending members), each member one API request, 16 in flight; a rate limit longer than the client
// waits by itself ends the chunk early, and the browser waits it out before the next. One audit-history entry per
// job, written when it ends (completed, or cancelled). Bans go to a bulk-ban job instead (Bulk Guild Ban, 200 ids
// per request). Whoever prepared a job, whoever starts it or runs a chunk is judged for what the job does (its role's
// rank included), and preparing and the controls, which change only the dashboard's tables, are judged in both modes.
import {
  GuildApiError,
  GuildApiUnreachableError,
  RateLimitError,
  describeApiError,
  type GuildApiClient,
} from "@/lib/api-client";
import { classifyTarget } from "@/lib/dashboard/jobs/bulk-ban/classify";
import { createJob, resume, transition } from "@/lib/dashboard/jobs/bulk-ban/jobs";
import { BULK_BAN_JOB_MAX_IDS } from "@/lib/dashboard/jobs/bulk-ban/parse";
import { classifyMember, MEMBER_SKIP_REASONS } from "./classify";
import {
  claimNextChunk,
  createMemberJob,
  getMemberJob,
  memberJobCounts,
  recordMemberChunk,
  releaseStaleSending,
  type MemberChunkOutcome,
} from "./jobs";
import {
  describeMemberAction,
  MEMBER_JOB_AUDIT_ACTIONS,
  MEMBER_JOB_CHUNK,
  MEMBER_JOB_CONCURRENCY,
  MEMBER_JOB_MAX,
  type MemberJobCounts,
  type MemberJobItem,
  type MemberJobKind,
  type MemberJobParams,
} from "./types";
import type { z } from "zod";
import { ActionRefusal, type GuildActionDefinition } from "@/lib/dashboard/actions/action-client";
import { auditReason } from "@/lib/dashboard/actions/audit-reason";
import { firstRefusal, ModeratorCheck } from "@/lib/dashboard/actions/moderator";
import { MemberJobInputSchema, PrepareMemberJobInputSchema } from "@/lib/dashboard/actions/schemas/member-jobs";
import { displayNameOf, listMatchingMembers, membersByIds, permissionMemberOf } from "./members";
import { plural } from "@/lib/dashboard/plural";

/** A definition, typed as createGuildAction takes it (the identity: it only lets TypeScript infer the types). */
const define = <S extends z.ZodType<{ guildId: string; reason?: string }>, R>(
  definition: GuildActionDefinition<S, R>,
) => definition;

/** What every job control asks of the moderator (judged in both modes: the controls change only the job). */
const mayControlMemberJobs = (check: ModeratorCheck) => check.may("Search Guild Members v2");

/**
 * Why the moderator may not do what a job of `kind` does to each member, or null: the operation its chunks call, and
 * for roles the role's rank against the moderator's own (the API's rule for Add and Remove Guild Member Role). Held
 * against whoever prepares, starts or runs the job: a job one moderator prepared runs for another only within theirs.
 */
function mayRun(check: ModeratorCheck, kind: MemberJobKind, roleId: string | undefined): string | null {
  switch (kind) {
    case "add_role":
      return firstRefusal(check.may("Add Guild Member Role"), roleId && check.roleBlock(roleId));
    case "remove_role":
      return firstRefusal(check.may("Remove Guild Member Role"), roleId && check.roleBlock(roleId));
    case "timeout":
    case "remove_timeout":
      return check.may("Modify Guild Member", ["communication_disabled_until"]);
    case "kick":
      return check.may("Remove Guild Member");
  }
}

/** mayRun for the stored job (of `kind` when given); a job that is not there is the run's to refuse (404). */
async function mayRunJob(check: ModeratorCheck, jobId: string, kind?: MemberJobKind): Promise<string | null> {
  const job = await getMemberJob(check.guildId, jobId);
  if (!job) return kind ? mayRun(check, kind, undefined) : null;
  return mayRun(check, kind ?? job.kind, kind && kind !== job.kind ? undefined : job.params.roleId);
}

/**
 * The preview: the role checked once for the whole job (in the server, not managed, below the moderator's highest
 * role), every member judged as the moderator (owner, self, hierarchy, administrators for timeouts, nothing to do),
 * and the job stored ready to run.
 */
export const prepareMemberJob = define({
  action: "Prepare bulk member action",
  schema: PrepareMemberJobInputSchema,
  // The reads a preview makes (Search Guild Members v2) need less than the job will: the guard proves it in both modes.
  dashboardOnly: true,
  authorize: (check, input) =>
    firstRefusal(
      mayControlMemberJobs(check),
      input.action === "ban" ? check.may("Bulk Guild Ban") : mayRun(check, input.action, input.roleId),
    ),
  request: (input) => ({
    action: input.action,
    role_id: input.roleId,
    until: input.until,
    members: input.userIds?.length ?? "all matching",
    ...(input.protectBots ? { protect_bots: true } : {}),
  }),
  recordSuccess: () => false,
  run: async ({ api, guildId, input, actor, mode }) => {
    const now = Date.now();
    const check = await ModeratorCheck.load(api, guildId, actor.id, mode);
    const max = input.action === "ban" ? BULK_BAN_JOB_MAX_IDS : MEMBER_JOB_MAX;
    const members = input.userIds
      ? await membersByIds(api, guildId, input.userIds)
      : (await listMatchingMembers(api, guildId, input.filters!, now, max + 1)).members;
    if (members.length > max)
      throw new ActionRefusal(
        `At most ${max.toLocaleString("en-US")} members per ${input.action === "ban" ? "bulk ban" : "job"}: narrow the filter.`,
      );
    const missing = (input.userIds ?? []).filter((id) => !members.some((m) => m.user.id === id));
    /** Raid cleanup's protection: a bot is skipped, said so in the preview, whatever else holds. */
    const protectedBot = (m: (typeof members)[number]) =>
      input.protectBots && m.user.bot ? { state: "skipped" as const, detail: MEMBER_SKIP_REASONS.bot } : null;

    if (input.action === "ban") {
      const items = members.map((m) => ({
        userId: m.user.id,
        ...(protectedBot(m) ??
          classifyTarget(
            check.context,
            check.self,
            m.user.id,
            { banned: false, member: permissionMemberOf(m) },
            check.bot,
          )),
      }));
      const jobId = await createJob({
        guildId,
        actor,
        reason: input.reason?.trim() || null,
        deleteMessageSeconds: 0,
        banDurationSeconds: null,
        invalid: [],
        items,
      });
      const skipped = items.filter((i) => i.state === "skipped").length;
      return { jobId, href: `/guilds/${guildId}/bans/bulk/${jobId}`, toDo: items.length - skipped, skipped };
    }

    const kind: MemberJobKind = input.action;
    const params: MemberJobParams = {};
    if (kind === "add_role" || kind === "remove_role") {
      const role = check.roles.find((r) => r.id === input.roleId);
      if (!role || role.id === guildId)
        throw new ActionRefusal("That role is not in this server.", { roleId: ["Pick a role of this server."] }, 400);
      if (role.managed)
        throw new ActionRefusal(`${role.name} is managed by an integration: nobody assigns it by hand.`);
      const block = check.roleBlock(role.id);
      if (block) throw new ActionRefusal(`You can't assign ${block}.`);
      params.roleId = role.id;
      params.roleName = role.name;
    }
    if (kind === "timeout") params.until = new Date(Date.parse(input.until!)).toISOString();
    const items: MemberJobItem[] = [
      ...members.map((m) => ({
        userId: m.user.id,
        name: displayNameOf(m),
        ...(protectedBot(m) ??
          classifyMember(kind, params, check.context, check.self, permissionMemberOf(m), now, check.bot)),
      })),
      ...missing.map((userId) => ({
        userId,
        name: null,
        state: "skipped" as const,
        detail: MEMBER_SKIP_REASONS.notMember,
      })),
    ];
    const jobId = await createMemberJob({ guildId, kind, params, actor, reason: input.reason?.trim() || null, items });
    const skipped = items.filter((i) => i.state === "skipped").length;
    return { jobId, href: `/guilds/${guildId}/members/jobs/${jobId}`, toDo: items.length - skipped, skipped };
  },
  message: (result) => `Ready: ${result.toDo} to change, ${result.skipped} skipped.`,
});

const jobTarget = (input: { jobId: string }) => ({ type: "member-job", id: input.jobId, name: null });

/**
 * Start or resume: members left "sending" by an interrupted chunk go back to pending first. Only for a moderator who
 * may do what the job does: the job's chunks will act for them.
 */
export const startMemberJob = define({
  action: "Start bulk member action",
  schema: MemberJobInputSchema,
  dashboardOnly: true,
  authorize: async (check, input) => firstRefusal(mayControlMemberJobs(check), await mayRunJob(check, input.jobId)),
  target: jobTarget,
  recordSuccess: () => false,
  run: async ({ guildId, input }) => {
    const released = await releaseStaleSending(guildId, input.jobId);
    const status = await resume(guildId, input.jobId, "member");
    return { released, status, counts: await memberJobCounts(guildId, input.jobId) };
  },
  message: () => "Running.",
});

export const pauseMemberJob = define({
  action: "Pause bulk member action",
  schema: MemberJobInputSchema,
  dashboardOnly: true,
  authorize: mayControlMemberJobs,
  target: jobTarget,
  recordSuccess: () => false,
  run: async ({ guildId, input }) => {
    await transition(guildId, input.jobId, ["running"], "paused", "member");
  },
  message: () => "Paused after the chunk in progress.",
});

/** Cancelling ends the job: its one audit-history entry says what it did until then. */
export const cancelMemberJob = define({
  action: "Cancel bulk member action",
  schema: MemberJobInputSchema,
  dashboardOnly: true,
  authorize: mayControlMemberJobs,
  target: (input, { result }) => {
    const job = result as { kind: MemberJobKind; params: MemberJobParams } | undefined;
    return { type: "member-job", id: input.jobId, name: job ? describeMemberAction(job.kind, job.params) : null };
  },
  run: async ({ guildId, input }) => {
    await transition(guildId, input.jobId, ["ready", "running", "paused"], "cancelled", "member");
    const job = (await getMemberJob(guildId, input.jobId))!;
    return { kind: job.kind, params: job.params, counts: job.counts };
  },
  after: (result) => ({ status: "cancelled", ...summaryOf(result.counts) }),
  message: () => "Cancelled. Members not reached yet stay as they are.",
});

const summaryOf = (counts: MemberJobCounts) => ({
  done: counts.done,
  failed: counts.failed,
  skipped: counts.skipped,
  not_sent: counts.pending + counts.sending,
});

/** Why a member's request failed, in words. */
function failureDetail(error: unknown): string {
  if (error instanceof GuildApiError) {
    if (error.code === 10007) return "not a member any more";
    if (error.code === 10011) return "the role no longer exists";
    if (error.code === 50013) return "refused by the API: missing permissions, or not below you in the role hierarchy";
    return `refused by the API: ${describeApiError(error)}`;
  }
  if (error instanceof GuildApiUnreachableError) return "no answer from the API";
  return "failed";
}

function perform(
  api: GuildApiClient,
  guildId: string,
  kind: MemberJobKind,
  params: MemberJobParams,
  userId: string,
  reason: string | undefined,
): Promise<unknown> {
  switch (kind) {
    case "add_role":
      return api.members.addRole(guildId, userId, params.roleId!, { reason });
    case "remove_role":
      return api.members.removeRole(guildId, userId, params.roleId!, { reason });
    case "timeout":
      return api.members.edit(guildId, userId, { communication_disabled_until: params.until! }, { reason });
    case "remove_timeout":
      return api.members.edit(guildId, userId, { communication_disabled_until: null }, { reason });
    case "kick":
      return api.members.kick(guildId, userId, { reason });
  }
}

/**
 * One chunk: each member one request, MEMBER_JOB_CONCURRENCY in flight. A rate limit the client does not wait out
 * by itself stops taking members; those not sent go back to pending and the answer says how long to wait.
 */
async function runChunk(
  api: GuildApiClient,
  guildId: string,
  kind: MemberJobKind,
  params: MemberJobParams,
  userIds: readonly string[],
  reason: string | undefined,
  blocked: (userId: string) => Promise<string | null>,
): Promise<MemberChunkOutcome & { retryAfter: number | null }> {
  const outcome: MemberChunkOutcome & { retryAfter: number | null } = {
    done: [],
    failed: [],
    unsent: [],
    retryAfter: null,
  };
  let next = 0;
  const worker = async () => {
    while (next < userIds.length && outcome.retryAfter === null) {
      const userId = userIds[next++];
      const block = await blocked(userId);
      if (block) {
        outcome.failed.push({ userId, detail: `refused by the dashboard: ${block}` });
        continue;
      }
      try {
        await perform(api, guildId, kind, params, userId, reason);
        outcome.done.push(userId);
      } catch (error) {
        if (error instanceof RateLimitError) {
          outcome.retryAfter = Math.max(outcome.retryAfter ?? 0, error.retryAfter);
          outcome.unsent.push(userId);
        } else {
          outcome.failed.push({ userId, detail: failureDetail(error) });
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(MEMBER_JOB_CONCURRENCY, userIds.length) }, worker));
  outcome.unsent.push(...userIds.slice(next));
  return outcome;
}

interface ChunkResult {
  done: string[];
  failed: Array<{ userId: string; detail: string }>;
  /** Seconds to wait before the next chunk (a rate limit stopped this one), or null. */
  retryAfter: number | null;
  status: Awaited<ReturnType<typeof recordMemberChunk>>;
  params: MemberJobParams;
  counts: MemberJobCounts;
}

function chunkDefinition(kind: MemberJobKind) {
  return define({
    action: MEMBER_JOB_AUDIT_ACTIONS[kind],
    schema: MemberJobInputSchema,
    target: (input, { result }) => {
      const job = result as { params: MemberJobParams; counts: MemberJobCounts } | undefined;
      return {
        type: "member-job",
        id: input.jobId,
        name: job
          ? `${describeMemberAction(kind, job.params)}: ${plural(job.counts.total, "member", { format: (n) => n.toLocaleString("en-US") })}`
          : null,
      };
    },
    // The job's own role, judged against the moderator running this chunk (not whoever prepared the job); each member
    // is held against them in `run` (bot mode).
    authorize: (check, input) => mayRunJob(check, input.jobId, kind),
    request: (input) => ({ job: input.jobId }),
    // The job's one entry: written by the chunk that completes it.
    recordSuccess: (result: ChunkResult) => result.status === "completed",
    run: async ({ api, guildId, input, actor, mode }): Promise<ChunkResult> => {
      const claimed = await claimNextChunk(guildId, input.jobId, MEMBER_JOB_CHUNK);
      // The history's entry carries the reason sent with the chunk: it must be the job's own.
      const mismatch =
        claimed.kind !== kind
          ? "This job does something else; reload the page."
          : (input.reason?.trim() || null) !== claimed.reason
            ? "The reason differs from the job's; reload the page."
            : null;
      if (mismatch) {
        await recordMemberChunk(guildId, input.jobId, claimed, { done: [], failed: [], unsent: claimed.userIds });
        throw new ActionRefusal(mismatch);
      }
      // Bot mode: Discord judges only the bot, so each member is held against the moderator's own standing.
      const check = mode === "bot" ? await ModeratorCheck.load(api, guildId, actor.id, mode) : null;
      const blocked = async (userId: string) => {
        if (!check || userId === check.self.userId) return null;
        return check.memberBlock(userId);
      };
      const reason = auditReason(claimed.reason ?? undefined, actor, mode);
      const outcome = await runChunk(api, guildId, kind, claimed.params, claimed.userIds, reason, blocked);
      const status = await recordMemberChunk(guildId, input.jobId, claimed, outcome);
      return {
        done: outcome.done,
        failed: outcome.failed,
        retryAfter: outcome.retryAfter,
        status,
        params: claimed.params,
        counts: await memberJobCounts(guildId, input.jobId),
      };
    },
    after: (result: ChunkResult) => ({ status: result.status, ...summaryOf(result.counts) }),
    message: (result: ChunkResult) => `${result.done.length} done, ${result.failed.length} failed.`,
  });
}

/** The chunk of each member job (per member: Add/Remove Guild Member Role, Modify Guild Member, Remove Guild Member). */
export const memberJobChunks = {
  add_role: chunkDefinition("add_role"),
  remove_role: chunkDefinition("remove_role"),
  timeout: chunkDefinition("timeout"),
  remove_timeout: chunkDefinition("remove_timeout"),
  kick: chunkDefinition("kick"),
} satisfies Record<MemberJobKind, unknown>;
