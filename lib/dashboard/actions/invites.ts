"use server";

// Server actions of the invites page: create and delete invites, and replace an invite's target users.
import { PermissionFlagsBits as P, type APIInvite } from "discord-api-types/v10";
import { GuildApiError } from "@/lib/api-client";
import { guildAction } from "./guild-action";
import { guildChannel, guildInvite } from "./guild-resources";
import {
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
