// Joining and leaving a guild: the member row, its roles, voice state and the guild's member counter change together
// (callers run these inside their operation's transaction and fire the events). Also the changes of a member's role
// set, which keep members.role_count (the prune index) in step with member_roles. Composed from the tables' modules.
import { countJoinedMembers, countLeftMembers } from "./guilds";
import {
  addToMemberRoleCount,
  decrementRoleCountOfHolders,
  deleteMemberRow,
  deleteMemberRows,
  insertMemberRow,
  setMemberRoleCount,
} from "./members";
import {
  deleteMemberRole,
  deleteMemberRoles,
  deleteMembersRoles,
  deleteRoleAssignments,
  insertMemberRole,
  insertMemberRoles,
} from "./member-roles";
import { deleteVoiceState, deleteVoiceStates } from "./voice-states";

export interface NewMember {
  guildId: bigint;
  userId: bigint;
  username: string;
  nick?: string | null;
  roleIds?: readonly bigint[];
  mute?: boolean;
  deaf?: boolean;
  pending?: boolean;
  flags?: number;
  now?: number;
}

export async function insertMember(member: NewMember): Promise<void> {
  const roleIds = member.roleIds ?? [];
  await insertMemberRow({
    guildId: member.guildId,
    userId: member.userId,
    username: member.username,
    nick: member.nick ?? null,
    roleCount: roleIds.length,
    mute: member.mute ?? false,
    deaf: member.deaf ?? false,
    pending: member.pending ?? false,
    flags: member.flags ?? 0,
    now: BigInt(member.now ?? Date.now()),
  });
  await insertMemberRoles(member.guildId, member.userId, roleIds);
  await countJoinedMembers(member.guildId, 1);
}

/** Removes a member with its roles and voice state; false when they were not a member. */
export async function deleteMember(guildId: bigint, userId: bigint): Promise<boolean> {
  if (!(await deleteMemberRow(guildId, userId))) return false;
  await deleteMemberRoles(guildId, userId);
  await deleteVoiceState(guildId, userId);
  await countLeftMembers(guildId, 1);
  return true;
}

/**
 * Removes every listed user who is a member, as deleteMember does, in set-based statements: each statement on a
 * table with triggers pays a fixed cost per execution (about 100 µs measured here), so one DELETE for 200 members
 * instead of 200 keeps Bulk Guild Ban fast. Answers the ids that were members.
 */
export async function deleteMembers(guildId: bigint, userIds: readonly bigint[]): Promise<bigint[]> {
  if (userIds.length === 0) return [];
  const removed = await deleteMemberRows(guildId, userIds);
  if (removed.length === 0) return [];
  await deleteMembersRoles(guildId, removed);
  await deleteVoiceStates(guildId, removed);
  await countLeftMembers(guildId, removed.length);
  return removed;
}

/** Replaces a member's role set and keeps role_count (the prune index) in step. */
export async function setMemberRoles(guildId: bigint, userId: bigint, roleIds: readonly bigint[]): Promise<void> {
  await deleteMemberRoles(guildId, userId);
  const unique = [...new Set(roleIds)];
  await insertMemberRoles(guildId, userId, unique);
  await setMemberRoleCount(guildId, userId, unique.length);
}

/**
 * Gives or takes one role, role_count in step: one member_roles row, where setMemberRoles deletes and re-inserts the
 * whole set (each row firing the trigger that rebuilds the member's wire JSON). The caller knows the member's roles.
 */
export async function setMemberRole(guildId: bigint, userId: bigint, roleId: bigint, present: boolean): Promise<void> {
  if (present) await insertMemberRole(guildId, userId, roleId);
  else if (!(await deleteMemberRole(guildId, userId, roleId))) return;
  await addToMemberRoleCount(guildId, userId, present ? 1 : -1);
}

/** Takes a role from every member who holds it, role_count in step (a deleted role). */
export async function removeRoleFromMembers(guildId: bigint, roleId: bigint): Promise<void> {
  await decrementRoleCountOfHolders(guildId, roleId);
  await deleteRoleAssignments(guildId, roleId);
}
