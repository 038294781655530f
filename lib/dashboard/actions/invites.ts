"use server";

// Server actions of the invites page: create and delete invites (one, or the selected ones at once), and replace an
// invite's target users.
import { PermissionFlagsBits as P, RESTJSONErrorCodes, type APIInvite } from "discord-api-types/v10";
import { describeApiError, GuildApiError, GuildApiUnreachableError } from "@/lib/api-client";
import { mapWithConcurrency } from "@/lib/dashboard/jobs/bulk-ban/lookup";
import { plural } from "@/lib/dashboard/plural";
import { guildAction } from "./guild-action";
import { guildChannel, guildInvite } from "./guild-resources";
import { ModeratorCheck } from "./moderator";
import {
  BulkDeleteInvitesInputSchema,
  countTargetUserLines,
  CreateInviteInputSchema,
  DeleteInviteInputSchema,
  TargetUsersInputSchema,
  toTargetUsersJob,
} from "./schemas/invites";

type InviteLike = Partial<Pick<APIInvite, "code" | "channel" | "inviter" | "expires_at">> & {
  max_age?: number;
  max_uses?: number;
  uses?: number;
  temporary?: boolean;
};

const inviteView = (invite: InviteLike) => ({
  code: invite.code ?? null,
  channel_id: invite.channel?.id ?? null,
  inviter_id: invite.inviter?.id ?? null,
  max_age: invite.max_age ?? null,
  max_uses: invite.max_uses ?? null,
  uses: invite.uses ?? null,
  temporary: invite.temporary ?? null,
  expires_at: invite.expires_at ?? null,
});

const inviteTarget = (code: string | null, invite: InviteLike | undefined) => ({
  type: "invite",
  id: code,
  name: invite?.channel?.name ? `${code ?? "invite"} → #${invite.channel.name}` : code,
});

const NOT_IN_GUILD = "that invite is not in this server";

/** POST /channels/{channel.id}/invites: Create Channel Invite */
export const createChannelInviteAction = guildAction({
  action: "Create Channel Invite",
  schema: CreateInviteInputSchema,
  target: (_input, { result }) => {
    const invite = result as InviteLike | undefined;
    return inviteTarget(invite?.code ?? null, invite);
  },
  authorize: (check, input) => check.channelMissing(input.channelId, P.ViewChannel, P.CreateInstantInvite),
  request: (input) => ({
    channel_id: input.channelId,
    max_age: input.max_age,
    max_uses: input.max_uses,
    temporary: input.temporary,
    unique: input.unique,
  }),
  // Nothing to snapshot before a new invite: only that the channel is this guild's.
  before: async ({ api, guildId, input }) => {
    await guildChannel(api, guildId, input.channelId);
    return undefined;
  },
  run: ({ api, input, reason }) =>
    api.channels.createInvite(
      input.channelId,
      { max_age: input.max_age, max_uses: input.max_uses, temporary: input.temporary, unique: input.unique },
      { reason },
    ),
  after: (invite) => inviteView(invite),
  message: (invite) => `Created the invite ${invite.code}.`,
});

/** DELETE /invites/{invite.code}: Delete Invite (Manage Server, or Manage Channels in the invite's channel) */
export const deleteInviteAction = guildAction({
  action: "Delete Invite",
  schema: DeleteInviteInputSchema,
  target: (input, { before }) => inviteTarget(input.code, before as InviteLike | undefined),
  authorize: async (check, input) => {
    const invite = await check.guildInvite(input.code);
    if (!invite) return NOT_IN_GUILD;
    if (check.has(P.ManageGuild)) return null;
    if (!invite.channel) return "needs Manage Server";
    const inChannel = await check.channelMissing(invite.channel.id, P.ManageChannels);
    return inChannel && `needs Manage Server, or Manage Channels in #${invite.channel.name ?? invite.channel.id}`;
  },
  request: (input) => ({ code: input.code }),
  // Get Guild Invites carries the metadata (uses, limits) Get Invite leaves out; it needs Manage Server, hence the fallback.
  before: async ({ api, guildId, input }) => {
    const listed = await api.guilds.getInvites(guildId).then(
      (all) => all.find((i) => i.code === input.code),
      () => undefined,
    );
    return inviteView(listed ?? (await guildInvite(api, guildId, input.code)));
  },
  run: ({ api, input, reason }) => api.invites.delete(input.code, { reason }),
  after: () => null,
  message: (_invite, input) => `Deleted the invite ${input.code}.`,
});

/** An invite "Revoke selected" did not delete, and why, in words for the moderator. */
export interface InviteRevokeFailure {
  code: string;
  reason: string;
}

export interface BulkDeleteInvitesResult {
  revoked: string[];
  failed: InviteRevokeFailure[];
}

/** Deletes in flight at once: the API's write limit (20 a second per caller) is met by waiting, not by failing. */
const BULK_DELETE_CONCURRENCY = 4;

const GONE = "it no longer exists (revoked or expired since the list was read)";

/**
 * DELETE /invites/{invite.code} for each selected invite ("Revoke selected"): Delete Invite once per invite, each
 * filed in the history as a Delete Invite of its own, with the one reason. Every code is first checked to be this
 * guild's (one Get Guild Invites; Get Invite for a code it does not list): a code of another guild refuses the whole
 * request before anything is deleted, one gone since the page was read is reported. The answer says which invites
 * were revoked, and why the others were not.
 */
export const bulkDeleteInvitesAction = guildAction({
  action: "Bulk delete invites",
  schema: BulkDeleteInvitesInputSchema,
  target: (input) => ({ type: "invite", id: null, name: plural(input.codes.length, "invite") }),
  // Bot mode: Manage Server covers every invite; Manage Channels alone is judged in each invite's channel (run).
  authorize: (check) => (check.has(P.ManageGuild) ? null : check.may("Delete Invite")),
  request: (input) => ({ codes: input.codes }),
  run: async ({ api, guildId, input, mode, actor, reason, recordCall }): Promise<BulkDeleteInvitesResult> => {
    // The guild's invites with their metadata (the history's before); a code not listed is checked on its own.
    const listed = new Map<string, InviteLike>((await api.guilds.getInvites(guildId)).map((i) => [i.code, i]));
    await mapWithConcurrency(
      input.codes.filter((code) => !listed.has(code)),
      async (code) => {
        try {
          // Made since the list was read; another guild's is refused here (ActionRefusal), before any delete.
          listed.set(code, await guildInvite(api, guildId, code));
        } catch (error) {
          if (!(error instanceof GuildApiError && error.status === 404)) throw error;
        }
      },
    );

    // In bot mode the API sees only the bot: a moderator without Manage Server is held to Manage Channels in each
    // invite's channel, as deleteInviteAction's guard holds them for one.
    const check = mode === "bot" ? await ModeratorCheck.load(api, guildId, actor.id, mode) : null;
    const channelRefusals = new Map<string, Promise<string | null>>();
    const refusal = async (invite: InviteLike): Promise<string | null> => {
      if (!check || check.has(P.ManageGuild)) return null;
      const channel = invite.channel;
      if (!channel) return "needs Manage Server";
      let judged = channelRefusals.get(channel.id);
      if (!judged) {
        judged = check
          .channelMissing(channel.id, P.ManageChannels)
          .then((missing) => missing && `needs Manage Server, or Manage Channels in #${channel.name ?? channel.id}`);
        channelRefusals.set(channel.id, judged);
      }
      return judged;
    };

    const failures = await mapWithConcurrency(
      input.codes,
      async (code): Promise<InviteRevokeFailure | null> => {
        const invite = listed.get(code);
        if (!invite) return { code, reason: GONE };
        const call = { action: "Delete Invite", target: inviteTarget(code, invite), request: { code } };
        const before = inviteView(invite);
        const refused = await refusal(invite);
        if (refused) {
          await recordCall({
            ...call,
            before,
            status: "error",
            httpStatus: 403,
            error: `Refused by the dashboard: ${refused}`,
          });
          return { code, reason: `you can't: ${refused}` };
        }
        try {
          await api.invites.delete(code, { reason });
        } catch (error) {
          // An API's refusal or silence (a rate limit too: RateLimitError is one) is this invite's outcome.
          if (!(error instanceof GuildApiError || error instanceof GuildApiUnreachableError)) throw error;
          const text = describeApiError(error);
          await recordCall({
            ...call,
            before,
            status: "error",
            httpStatus: error instanceof GuildApiUnreachableError ? null : error.status,
            error: text,
          });
          const gone = error instanceof GuildApiError && error.code === RESTJSONErrorCodes.UnknownInvite;
          return { code, reason: gone ? GONE : text };
        }
        await recordCall({ ...call, before, after: null, status: "success", httpStatus: 200 });
        return null;
      },
      BULK_DELETE_CONCURRENCY,
    );
    const failed = failures.filter((failure): failure is InviteRevokeFailure => failure !== null);
    const refused = new Set(failed.map((failure) => failure.code));
    return { revoked: input.codes.filter((code) => !refused.has(code)), failed };
  },
  // Each delete is in the history on its own (above); only a request refused as a whole is filed under this name.
  recordSuccess: () => false,
  message: ({ revoked, failed }) =>
    failed.length === 0
      ? `Revoked ${plural(revoked.length, "invite")}.`
      : `Revoked ${revoked.length} of ${plural(revoked.length + failed.length, "invite")}; ${failed.length} could not be revoked.`,
});

/**
 * PUT /invites/{invite.code}/target-users: Update Target Users (the inviter, or Manage Server). The API checks every
 * line first and answers each bad one; a good file starts a job, whose status comes back so the page can follow it.
 */
export const updateInviteTargetUsersAction = guildAction({
  action: "Update Target Users",
  schema: TargetUsersInputSchema,
  target: (input, { before }) => ({
    type: "invite",
    id: input.code,
    name: (before as { code?: string } | undefined)?.code ?? input.code,
  }),
  authorize: async (check, input) => {
    const invite = await check.guildInvite(input.code);
    if (!invite) return NOT_IN_GUILD;
    const refusal = check.may("Update Target Users", [], { isInviter: invite.inviter?.id === check.self.userId });
    return refusal && `${refusal} (or to be the invite's creator)`;
  },
  request: (input) => ({ file: input.fileName ?? null, user_ids: countTargetUserLines(input.csv) }),
  before: async ({ api, guildId, input }) => {
    await guildInvite(api, guildId, input.code);
    const job = await api.invites.getTargetUsersJobStatus(input.code);
    return { code: input.code, status: job.status, total_users: job.total_users };
  },
  run: async ({ api, input }) => {
    await api.invites.updateTargetUsers(input.code, input.csv);
    // The upload happened; a status that cannot be read now is only polled later.
    const job = await api.invites.getTargetUsersJobStatus(input.code).catch((error: unknown) => {
      if (error instanceof GuildApiError) return null;
      throw error;
    });
    return { job: job && toTargetUsersJob(job) };
  },
  after: ({ job }) => (job ? { status: job.status, total_users: job.total } : null),
  fieldPath: (path) => (path === "target_users_file" ? "csv" : path),
  message: (_r, input) => {
    const count = countTargetUserLines(input.csv);
    return `Uploaded ${count.toLocaleString("en-US")} user id${count === 1 ? "" : "s"}; the list is being saved.`;
  },
});
