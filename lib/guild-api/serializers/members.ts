// The guild member object. `pending` is always present (GUILD_ events need it as true or false).
import type { MemberRow } from "../store/members";
import type { UserRow } from "../store/users";
import { serializeUser } from "./users";

export const iso = (ms: bigint | number | null | undefined): string | null =>
  ms === null || ms === undefined ? null : new Date(Number(ms)).toISOString();

export function serializeMember(row: MemberRow, user: UserRow, roleIds: readonly bigint[]) {
  return {
    user: serializeUser(user),
    nick: row.nick,
    avatar: row.avatar,
    banner: row.banner,
    roles: roleIds.map(String),
    joined_at: iso(row.joined_at) as string,
    premium_since: iso(row.premium_since),
    deaf: Boolean(row.deaf),
    mute: Boolean(row.mute),
    flags: Number(row.flags),
    pending: Boolean(row.pending),
    communication_disabled_until:
      row.communication_disabled_until !== null && Number(row.communication_disabled_until) > Date.now()
        ? iso(row.communication_disabled_until)
        : null,
    avatar_decoration_data: null,
    collectibles: null,
  };
}

/** GUILD_MEMBER_ADD / UPDATE payloads carry guild_id. */
export function memberEventPayload(guildId: bigint, member: ReturnType<typeof serializeMember>) {
  return { guild_id: String(guildId), ...member };
}
