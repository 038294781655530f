// Invite reads for the invites page: one page of Get Guild Invites in the order asked (newest first unless told;
// sorted here, before paging, since the API answers every invite at once), each with its target-users job (Get Target
// Users Job Status), which says whether the invite is limited to a list of users; and every code in that order, for
// "select all".
import type { APIExtendedInvite } from "discord-api-types/v10";
import { GuildApiError } from "@/lib/api-client";
import { toTargetUsersJob, type TargetUsersJob } from "@/lib/dashboard/actions/schemas/invites";
import { managementApi } from "./api";
import { readOrThrow } from "./read";
import { sortInvites, type InviteSortKey } from "./invite-sorts";

import type { GuildViewer } from "./viewer";

export const INVITE_PAGE_SIZE = 25;

export interface InviteRow {
  code: string;
  channel: { id: string; name: string; type: number } | null;
  inviter: { id: string; username: string; displayName: string } | null;
  /** null without Manage Server: Get Guild Invites then leaves out the metadata. */
  uses: number | null;
  maxUses: number | null;
  maxAge: number | null;
  temporary: boolean | null;
  createdAt: string | null;
  expiresAt: string | null;
  /** null when the job status could not be read. */
  targetUsers: TargetUsersJob | null;
}

export interface InvitePage {
  rows: InviteRow[];
  /** Every invite's code, in the order asked: what "select all N" selects. */
  codes: string[];
  total: number;
  page: number;
  pageCount: number;
  /** When the list was read (ms): expiry is shown relative to it. */
  readAt: number;
}

function toInviteRow(invite: APIExtendedInvite, targetUsers: TargetUsersJob | null): InviteRow {
  const inviter = invite.inviter;
  return {
    code: invite.code,
    channel: invite.channel
      ? { id: invite.channel.id, name: invite.channel.name ?? invite.channel.id, type: invite.channel.type }
      : null,
    inviter: inviter
      ? { id: inviter.id, username: inviter.username, displayName: inviter.global_name ?? inviter.username }
      : null,
    uses: invite.uses ?? null,
    maxUses: invite.max_uses ?? null,
    maxAge: invite.max_age ?? null,
    temporary: invite.temporary ?? null,
    createdAt: invite.created_at ?? null,
    expiresAt: invite.expires_at ?? null,
    targetUsers,
  };
}

/** One page of the guild's invites in `sort`'s order; `page` is 1-based and clamped to the last page. */
export async function getInvitePage(
  viewer: GuildViewer,
  { page, sort }: { page: number; sort: InviteSortKey },
): Promise<InvitePage> {
  return readOrThrow(async () => {
    const api = await managementApi(viewer.session);
    const invites = (await api.guilds.getInvites(viewer.guild.id)) as APIExtendedInvite[];
    const pageCount = Math.max(1, Math.ceil(invites.length / INVITE_PAGE_SIZE));
    const current = Math.min(Math.max(1, Math.floor(page) || 1), pageCount);
    const sorted = sortInvites(invites, sort);
    const slice = sorted.slice((current - 1) * INVITE_PAGE_SIZE, current * INVITE_PAGE_SIZE);
    // Only the page's invites: a guild with hundreds of invites costs one status read per shown row.
    const rows = await Promise.all(
      slice.map(async (invite) => {
        try {
          return toInviteRow(invite, toTargetUsersJob(await api.invites.getTargetUsersJobStatus(invite.code)));
        } catch (error) {
          // Expired or deleted since the list was read, or an API without target users: shown as unknown.
          if (error instanceof GuildApiError && error.status !== 401) return toInviteRow(invite, null);
          throw error;
        }
      }),
    );
    return {
      rows,
      codes: sorted.map((invite) => invite.code),
      total: invites.length,
      page: current,
      pageCount,
      readAt: Date.now(),
    };
  });
}
