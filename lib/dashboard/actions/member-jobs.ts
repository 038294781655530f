"use server";

// Server actions of the members page's bulk actions: the definitions in lib/dashboard/jobs/member-actions/operations.ts
// wired to the running app (session, audit history, revalidation). Bans go to a bulk-ban job.
import { guildAction } from "./guild-action";
import {
  cancelMemberJob,
  memberJobChunks,
  pauseMemberJob,
  prepareMemberJob,
  startMemberJob,
} from "@/lib/dashboard/jobs/member-actions/operations";

export const prepareMemberJobAction = guildAction(prepareMemberJob);
export const startMemberJobAction = guildAction(startMemberJob);
export const pauseMemberJobAction = guildAction(pauseMemberJob);
export const cancelMemberJobAction = guildAction(cancelMemberJob);

export const runBulkAddRoleChunkAction = guildAction(memberJobChunks.add_role);
export const runBulkRemoveRoleChunkAction = guildAction(memberJobChunks.remove_role);
export const runBulkTimeoutChunkAction = guildAction(memberJobChunks.timeout);
export const runBulkRemoveTimeoutChunkAction = guildAction(memberJobChunks.remove_timeout);
export const runBulkKickChunkAction = guildAction(memberJobChunks.kick);
