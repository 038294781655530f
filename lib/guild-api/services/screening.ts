// Membership screening: a member who joined while the guild had MEMBER_VERIFICATION_GATE_ENABLED is pending (it can
// read but not act: GuildAccess.require refuses pending members) until it completes screening here.
import { Errors } from "../errors";
import { emitEvent } from "../events";
import type { GuildAccess } from "../guards";
import { transaction } from "../store/db";
import { memberRoleIds } from "../store/member-roles";
import { clearMemberPending, findMember } from "../store/members";
import { findUser, type UserRow } from "../store/users";
import { memberEventPayload, serializeMember } from "../serializers/members";

const alreadyComplete = () => Errors.bad(0, "Membership screening is already complete for this member.");

/**
 * Completes membership screening for the caller (Guildhall's form of Discord's PUT /guilds/{id}/requests/@me, whose
 * form fields Guildhall does not model): pending becomes false and GUILD_MEMBER_UPDATE fires, in one transaction.
 * Answers the member. A member who is not pending gets 400, so a client can tell nothing happened.
 */
export async function completeMembershipScreening(access: GuildAccess, now = Date.now()) {
  if (!access.member.pending) throw alreadyComplete();
  const guildId = access.guildId;
  const userId = access.caller.userId;
  return await transaction(async () => {
    if (!(await clearMemberPending(guildId, userId))) throw alreadyComplete();
    const member = (await findMember(guildId, userId))!;
    const user = (await findUser(userId)) as UserRow;
    const wire = serializeMember(member, user, await memberRoleIds(guildId, userId));
    await emitEvent(guildId, "GUILD_MEMBER_UPDATE", memberEventPayload(guildId, wire), now);
    return wire;
  });
}
