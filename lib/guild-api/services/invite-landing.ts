// The invite landing page's read (the built-in provider's /invite/{code}, as discord.com/invite/{code}): the invite
// as Get Invite answers it with counts, or why there is none: unknown (404), expired or used up (410), and whether
// the guild's invites are paused (the page stays, Join is refused: 403). The page and the server's status for it both
// read from here.
import { findGuild, type GuildRow } from "../store/guilds";
import { findInvite, findValidInvite } from "../store/invites";
import { findMember } from "../store/members";
import { ApiError } from "../errors";
import { findVanityInvite, getInvite, invitesPaused } from "./invites";

export type InviteLanding =
  | {
      kind: "open" | "paused";
      invite: Awaited<ReturnType<typeof getInvite>>;
      /** Joining makes the member pending until they complete membership screening. */
      screening: boolean;
      /** Whether the signed-in person (if any) is already a member. */
      member: boolean;
      pending: boolean;
    }
  | { kind: "expired"; expiredAt: number }
  | { kind: "used-up"; maxUses: number }
  | { kind: "unknown" };

export const INVITE_LANDING_STATUS: Record<InviteLanding["kind"], number> = {
  open: 200,
  paused: 403,
  expired: 410,
  "used-up": 410,
  unknown: 404,
};

const hasFeature = (guild: GuildRow, feature: string) => (JSON.parse(guild.features) as string[]).includes(feature);

export async function inviteLanding(
  code: string,
  viewerId: bigint | null = null,
  now = Date.now(),
): Promise<InviteLanding> {
  const valid = (await findValidInvite(code, now)) ?? (await findVanityInvite(code));
  if (!valid) {
    const stored = await findInvite(code);
    if (!stored) return { kind: "unknown" };
    if (stored.expires_at !== null && Number(stored.expires_at) <= now)
      return { kind: "expired", expiredAt: Number(stored.expires_at) };
    return { kind: "used-up", maxUses: Number(stored.max_uses) };
  }
  let invite: Awaited<ReturnType<typeof getInvite>>;
  try {
    invite = await getInvite(code, { with_counts: true }, now);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return { kind: "unknown" };
    throw error;
  }
  const guild = (await findGuild(valid.guild_id)) as GuildRow;
  const member = viewerId === null ? undefined : await findMember(valid.guild_id, viewerId);
  return {
    kind: invitesPaused(guild, now) ? "paused" : "open",
    invite,
    screening: hasFeature(guild, "MEMBER_VERIFICATION_GATE_ENABLED"),
    member: Boolean(member),
    pending: Boolean(member?.pending),
  };
}
