"use server";

// Server actions of the Bans section: unban one user, and the bulk-ban job. The browser drives a job by calling
// runBulkBanChunk once per chunk of at most 200 ids (so pausing is not calling again, and a reload resumes from
// the job in Prisma); each chunk is one Bulk Guild Ban request and one audit history entry. A chunk is never
// resent on its own: a refused request puts its ids back and pauses, an unanswered one leaves them "sending"
// until resume has asked the API which of them are banned. The job's own controls (preview, start, pause, cancel,
// undo) change only the dashboard's tables, so their guards run in both modes (`dashboardOnly`); every job store call
// names the guild, so another guild's job id matches nothing.
import { RESTJSONErrorCodes, type RESTPostAPIGuildBulkBanResult } from "discord-api-types/v10";
import { GuildApiError, GuildApiUnreachableError, RateLimitError } from "@/lib/api-client";
import { ActionRefusal } from "./action-client";
import { guildAction } from "./guild-action";
import { banLengthText, banRequest } from "./ban-length";
import { firstRefusal, ModeratorCheck } from "./moderator";
import { snapshotUserAliases, snapshotUserName, userSnapshot } from "./snapshots";
import {
  BanByIdInputSchema,
  BulkBanChunkInputSchema,
  BulkBanJobInputSchema,
  BulkBanPreviewInputSchema,
  UnbanInputSchema,
  UndoChunkInputSchema,
} from "./schemas/bans";
import { classifyTarget } from "@/lib/dashboard/jobs/bulk-ban/classify";
import { explainFailure, isBanned, lookupTargets, mapWithConcurrency } from "@/lib/dashboard/jobs/bulk-ban/lookup";
import { parseUserIds } from "@/lib/dashboard/jobs/bulk-ban/parse";
import { rememberUsers } from "@/lib/dashboard/data/users";
import {
  assertUndoable,
  claimChunk,
  createJob,
  getJob,
  pauseUncertain,
  recordChunk,
  recordUndo,
  releaseChunk,
  resolveSending,
  resume,
  SENDING_STALE_MS,
  sendingItems,
  transition,
  type ChunkOutcome,
} from "@/lib/dashboard/jobs/bulk-ban/jobs";

const jobTarget = (input: { jobId: string }) => ({ type: "bulk-ban-job", id: input.jobId, name: null });

/**
 * PUT /guilds/{guild.id}/bans/{user.id}: Create Guild Ban, for one user by id (the Bans page's "Ban by id"): a member
 * or not. Named from the API (Get Guild Member, else Get User), never from the browser.
 */
export const banUserByIdAction = guildAction({
  action: "Create Guild Ban",
  schema: BanByIdInputSchema,
  target: (input, { before }) => ({
    type: "user",
    id: input.userId,
    name: snapshotUserName(before),
    aliases: snapshotUserAliases(before),
  }),
  // Nobody bans themselves or the owner; a member must rank below the moderator; a non-member is the API's to judge.
  authorize: (check, input) => check.mayRemove("Create Guild Ban", input.userId),
  request: (input) => banRequest(input),
  before: async ({ api, guildId, input }) => {
    const member = await api.members.get(guildId, input.userId).catch(() => null);
    if (member)
      return {
        user: { ...userSnapshot(member.user), nick: member.nick ?? null },
        banned: false,
        member: true,
        roles: member.roles,
      };
    const user = await api.users.get(input.userId).then(userSnapshot, () => null);
    return user ? { user, banned: false, member: false } : { banned: false, member: false };
  },
  run: ({ api, guildId, input, reason }) =>
    api.bans.ban(guildId, input.userId, { delete_message_seconds: input.delete_message_seconds }, { reason }),
  after: () => ({ banned: true, member: false }),
  message: (_r, input, { before }) => `Banned ${snapshotUserName(before) ?? input.userId}${banLengthText(input)}.`,
});

/** DELETE /guilds/{guild.id}/bans/{user.id}: Remove Guild Ban */
export const unbanUserAction = guildAction({
  action: "Remove Guild Ban",
  schema: UnbanInputSchema,
  target: (input, { before }) => ({
    type: "user",
    id: input.userId,
    name: snapshotUserName(before),
    aliases: snapshotUserAliases(before),
  }),
  authorize: (check) => check.may("Remove Guild Ban"),
  request: () => ({}),
  before: async ({ api, guildId, input }) => {
    const ban = await api.bans.get(guildId, input.userId);
    return { banned: true, reason: ban.reason, user: userSnapshot(ban.user) };
  },
  run: ({ api, guildId, input, reason }) => api.bans.unban(guildId, input.userId, { reason }),
  after: () => ({ banned: false }),
  message: (_r, _input, { before }) => `Unbanned ${snapshotUserName(before) ?? "the user"}.`,
});

/**
 * The preview: parses the ids, looks each one up (banned? member, with which roles?) and judges it with the shared
 * permission engine as the moderator: the owner, the moderator, members not below their highest role and the
 * already banned are skipped. The job is stored ready to run; nothing is banned yet.
 */
export const previewBulkBanAction = guildAction({
  action: "Prepare bulk ban",
  schema: BulkBanPreviewInputSchema,
  // The lookups (Get Guild Ban, Get Guild Member) need less than Bulk Guild Ban: the guard proves it in both modes.
  dashboardOnly: true,
  authorize: (check) => check.may("Bulk Guild Ban"),
  request: (input) => {
    const parsed = parseUserIds(input.text);
    return {
      ids: parsed.ids.length,
      invalid: parsed.invalid.length,
      duplicates: parsed.duplicates,
      ...banRequest(input),
    };
  },
  target: (_input, { result }) =>
    result ? { type: "bulk-ban-job", id: (result as { jobId: string }).jobId, name: null } : null,
  run: async ({ api, guildId, input, actor, mode }) => {
    const parsed = parseUserIds(input.text);
    const check = await ModeratorCheck.load(api, guildId, actor.id, mode);
    const lookups = await lookupTargets(api, guildId, parsed.ids);
    // Members and banned users came with their user objects: the job page names them without asking again.
    rememberUsers(lookups.flatMap((lookup) => (lookup.user ? [lookup.user] : [])));
    const items = parsed.ids.map((userId, i) => ({
      userId,
      ...classifyTarget(check.context, check.self, userId, lookups[i], check.bot),
    }));
    const jobId = await createJob({
      guildId,
      actor,
      reason: input.reason?.trim() || null,
      deleteMessageSeconds: input.delete_message_seconds,
      banDurationSeconds: banRequest(input).ban_duration_seconds ?? null,
      invalid: parsed.invalid,
      items,
    });
    const skipped = items.filter((item) => item.state === "skipped").length;
    return { jobId, toBan: items.length - skipped, skipped, invalid: parsed.invalid.length };
  },
  after: (result) => result,
  message: (result) => `Preview ready: ${result.toBan} to ban, ${result.skipped} skipped, ${result.invalid} invalid.`,
});

/**
 * Start or resume: ids left "sending" by an unanswered request are first checked with Get Guild Ban (banned: this
 * job banned them; not banned: back to pending), unless the request may still be in flight.
 */
export const startBulkBanJobAction = guildAction({
  action: "Start bulk ban",
  schema: BulkBanJobInputSchema,
  target: jobTarget,
  dashboardOnly: true,
  authorize: (check) => check.may("Bulk Guild Ban"),
  run: async ({ api, guildId, input }) => {
    const sending = await sendingItems(guildId, input.jobId);
    if (sending.some((item) => Date.now() - item.sentAt < SENDING_STALE_MS)) {
      throw new ActionRefusal(
        "A chunk sent less than a minute ago has no answer yet. Try again in a minute; it will be checked then.",
      );
    }
    const checked = await mapWithConcurrency(sending, async (item) => ({
      userId: item.userId,
      banned: await isBanned(api, guildId, item.userId),
    }));
    await resolveSending(
      guildId,
      input.jobId,
      checked.filter((c) => c.banned).map((c) => c.userId),
      checked.filter((c) => !c.banned).map((c) => c.userId),
    );
    await resume(guildId, input.jobId);
    // The runner continues from the job as stored, reconciled ids included.
    return { reconciled: checked.length, job: (await getJob(guildId, input.jobId))! };
  },
  message: (result) =>
    result.reconciled
      ? `Running. ${result.reconciled} ids from an interrupted request were checked first.`
      : "Running.",
});

export const pauseBulkBanJobAction = guildAction({
  action: "Pause bulk ban",
  schema: BulkBanJobInputSchema,
  target: jobTarget,
  dashboardOnly: true,
  authorize: (check) => check.may("Get Guild Bans"),
  run: async ({ guildId, input }) => {
    await transition(guildId, input.jobId, ["running"], "paused");
  },
  message: () => "Paused after the chunk in progress.",
});

export const cancelBulkBanJobAction = guildAction({
  action: "Cancel bulk ban",
  schema: BulkBanJobInputSchema,
  target: jobTarget,
  dashboardOnly: true,
  authorize: (check) => check.may("Get Guild Bans"),
  run: async ({ guildId, input }) => {
    await transition(guildId, input.jobId, ["ready", "running", "paused"], "cancelled");
  },
  message: () => "Cancelled. Ids not sent yet stay unbanned.",
});

/** What a failed Bulk Guild Ban request means for its ids: nothing happened, or nobody knows. */
const outcomeUnknown = (error: unknown) =>
  (error instanceof GuildApiUnreachableError && !error.neverSent) ||
  (error instanceof GuildApiError && !(error instanceof RateLimitError) && error.status >= 500);

/** POST /guilds/{guild.id}/bulk-ban: Bulk Guild Ban, one chunk of a job */
export const runBulkBanChunkAction = guildAction({
  action: "Bulk Guild Ban",
  schema: BulkBanChunkInputSchema,
  target: (input) => ({ type: "bulk-ban-job", id: input.jobId, name: `${input.userIds.length} users` }),
  authorize: async (check, input) => {
    const missing = check.may("Bulk Guild Ban");
    if (missing) return missing;
    if (input.userIds.includes(check.self.userId)) return "you can't ban yourself";
    // Discord judges only the bot: every id is held against the moderator's own place in the hierarchy.
    const blocks = await mapWithConcurrency(input.userIds, async (id) => {
      const block = await check.memberBlock(id);
      return block && `${id}: ${block}`;
    });
    return firstRefusal(...blocks);
  },
  request: (input) => ({ user_ids: input.userIds }),
  run: async ({ api, guildId, input, reason }) => {
    const { deleteMessageSeconds, banDurationSeconds } = await claimChunk(guildId, input.jobId, input.userIds);
    let answer: RESTPostAPIGuildBulkBanResult;
    try {
      answer = await api.bans.bulkBan(
        guildId,
        { user_ids: input.userIds, delete_message_seconds: deleteMessageSeconds },
        { reason },
      );
    } catch (error) {
      if (error instanceof GuildApiError && error.code === RESTJSONErrorCodes.FailedToBanUsers) {
        answer = { banned_users: [], failed_users: input.userIds };
      } else {
        if (outcomeUnknown(error)) await pauseUncertain(guildId, input.jobId);
        else await releaseChunk(guildId, input.jobId, input.userIds);
        throw error;
      }
    }
    const banned = new Set(answer.banned_users);
    const failedIds = input.userIds.filter((id) => !banned.has(id));
    const failed = await mapWithConcurrency(failedIds, async (userId) => ({
      userId,
      detail: answer.failed_users.includes(userId)
        ? await explainFailure(api, guildId, userId).catch(() => "refused by the API")
        : "not in the API's answer",
    }));
    const outcome: ChunkOutcome = { banned: input.userIds.filter((id) => banned.has(id)), failed };
    const status = await recordChunk(guildId, input.jobId, outcome);
    return { ...outcome, status, banDurationSeconds };
  },
  // The job's ban length rides with the outcome: each ban's case ends then (cases/derive.ts).
  after: (result) => ({
    banned_users: result.banned,
    failed_users: result.failed.map((f) => f.userId),
    ...(result.banDurationSeconds ? { ban_duration_seconds: result.banDurationSeconds } : {}),
  }),
  message: (result) => `Banned ${result.banned.length}, ${result.failed.length} failed.`,
});

export const beginUndoBulkBanAction = guildAction({
  action: "Undo bulk ban",
  schema: BulkBanJobInputSchema,
  target: jobTarget,
  dashboardOnly: true,
  authorize: (check) => check.may("Remove Guild Ban"),
  run: async ({ guildId, input }) => {
    await transition(guildId, input.jobId, ["completed", "cancelled", "paused", "undoing"], "undoing");
  },
  message: () => "Undoing: giving back the bans this job made.",
});

/** DELETE /guilds/{guild.id}/bans/{user.id}: Remove Guild Ban, for up to 50 ids this job banned */
export const undoBulkBanChunkAction = guildAction({
  action: "Remove Guild Ban",
  schema: UndoChunkInputSchema,
  target: (input) => ({ type: "bulk-ban-job", id: input.jobId, name: `${input.userIds.length} users (undo)` }),
  authorize: (check) => check.may("Remove Guild Ban"),
  request: (input) => ({ user_ids: input.userIds }),
  run: async ({ api, guildId, input, reason }) => {
    await assertUndoable(guildId, input.jobId, input.userIds);
    const results = await mapWithConcurrency(input.userIds, async (userId) => {
      try {
        await api.bans.unban(guildId, userId, { reason });
        return { userId, detail: null };
      } catch (error) {
        if (error instanceof GuildApiError && error.code === RESTJSONErrorCodes.UnknownBan)
          return { userId, detail: "was already unbanned" };
        return { userId, error };
      }
    });
    const done = results.filter((r): r is { userId: string; detail: string | null } => !("error" in r));
    const status = await recordUndo(guildId, input.jobId, done);
    // What was given back is recorded; the first failure is the action's error (undo can be continued).
    const failure = results.find((r): r is { userId: string; error: unknown } => "error" in r);
    if (failure) throw failure.error;
    return { unbanned: done.map((d) => d.userId), status };
  },
  after: (result) => ({ unbanned_users: result.unbanned }),
  message: (result) => `Unbanned ${result.unbanned.length}.`,
});
