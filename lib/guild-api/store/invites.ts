// The invites table. "Valid" means not expired and not used up; expired invites are kept, never answered.
import { sql } from "./db";

export interface InviteRow {
  code: string;
  guild_id: bigint;
  channel_id: bigint;
  inviter_id: bigint | null;
  type: bigint;
  target_type: bigint | null;
  target_user_id: bigint | null;
  target_application_id: bigint | null;
  max_age: bigint;
  max_uses: bigint;
  uses: bigint;
  temporary: bigint;
  flags: bigint;
  role_ids: string;
  widget: bigint;
  created_at: bigint;
  expires_at: bigint | null;
}

const VALID = "(expires_at IS NULL OR expires_at > @now) AND (max_uses = 0 OR uses < max_uses)";

/** The invite, whether valid or not. */
export async function findInvite(code: string): Promise<InviteRow | undefined> {
  return (await sql.get("SELECT * FROM invites WHERE code = ?", code)) as InviteRow | undefined;
}

export async function findValidInvite(code: string, now: number): Promise<InviteRow | undefined> {
  return (await sql.get(`SELECT * FROM invites WHERE code = @code AND ${VALID}`, { code, now: BigInt(now) })) as
    InviteRow | undefined;
}

/** The guild's valid invites, oldest first. */
export async function listValidGuildInvites(guildId: bigint, now: number): Promise<InviteRow[]> {
  return (await sql.all(`SELECT * FROM invites WHERE guild_id = @guild_id AND ${VALID} ORDER BY created_at`, {
    guild_id: guildId,
    now: BigInt(now),
  })) as InviteRow[];
}

/** The channel's valid invites, oldest first. */
export async function listValidChannelInvites(channelId: bigint, now: number): Promise<InviteRow[]> {
  return (await sql.all(`SELECT * FROM invites WHERE channel_id = @channel_id AND ${VALID} ORDER BY created_at`, {
    channel_id: channelId,
    now: BigInt(now),
  })) as InviteRow[];
}

/** The invite settings Create Channel Invite may answer with an existing invite for (unique: false). */
export interface ReusableInviteQuery {
  channel_id: bigint;
  inviter_id: bigint;
  max_age: number;
  max_uses: number;
  temporary: 0 | 1;
  target_type: number | null;
  target_user_id: bigint | null;
  target_application_id: bigint | null;
  role_ids: string;
}

/** The newest valid invite with exactly these settings and no target-users list. */
export async function findReusableInvite(query: ReusableInviteQuery, now: number): Promise<InviteRow | undefined> {
  return (await sql.get(
    `SELECT * FROM invites WHERE channel_id = @channel_id AND inviter_id = @inviter_id AND widget = FALSE AND max_age = @max_age AND max_uses = @max_uses
       AND temporary = @temporary AND target_type IS NOT DISTINCT FROM @target_type
       AND target_user_id IS NOT DISTINCT FROM @target_user_id AND target_application_id IS NOT DISTINCT FROM @target_application_id
       AND role_ids = @role_ids AND ${VALID}
       AND NOT EXISTS (SELECT 1 FROM invite_target_users_jobs j WHERE j.invite_code = invites.code)
     ORDER BY created_at DESC LIMIT 1`,
    { ...query, now: BigInt(now) },
  )) as InviteRow | undefined;
}

/** The newest valid widget invite of the channel. */
export async function findWidgetInviteCode(
  guildId: bigint,
  channelId: bigint,
  now: number,
): Promise<string | undefined> {
  return (await sql.value(
    `SELECT code FROM invites WHERE guild_id = @guild_id AND channel_id = @channel_id AND widget = TRUE
       AND ${VALID} ORDER BY created_at DESC LIMIT 1`,
    { guild_id: guildId, channel_id: channelId, now: BigInt(now) },
  )) as string | undefined;
}

/** Whether `code` is taken, by an invite or a guild's vanity URL. */
export async function isInviteCodeTaken(code: string): Promise<boolean> {
  return Boolean(
    await sql.get(
      "SELECT 1 FROM invites WHERE code = ? UNION ALL SELECT 1 FROM guilds WHERE vanity_url_code = ?",
      code,
      code,
    ),
  );
}

export type NewInvite = Pick<
  InviteRow,
  | "code"
  | "guild_id"
  | "channel_id"
  | "inviter_id"
  | "target_type"
  | "target_user_id"
  | "target_application_id"
  | "max_age"
  | "max_uses"
  | "temporary"
  | "role_ids"
  | "widget"
  | "created_at"
  | "expires_at"
>;

/** A new invite: type GUILD (0), no uses yet, no flags. */
export async function insertInvite(invite: NewInvite): Promise<void> {
  await sql.run(
    `INSERT INTO invites (code, guild_id, channel_id, inviter_id, type, target_type, target_user_id, target_application_id, max_age, max_uses, uses,
       temporary, flags, role_ids, widget, created_at, expires_at)
     VALUES (@code, @guild_id, @channel_id, @inviter_id, 0, @target_type, @target_user_id, @target_application_id, @max_age, @max_uses, 0,
       @temporary, 0, @role_ids, @widget, @created_at, @expires_at)`,
    invite,
  );
}

export async function incrementInviteUses(code: string): Promise<void> {
  await sql.run("UPDATE invites SET uses = uses + 1 WHERE code = ?", code);
}

export async function deleteInvite(code: string): Promise<void> {
  await sql.run("DELETE FROM invites WHERE code = ?", code);
}

/** A deleted channel's invites. */
export async function deleteChannelInvites(channelId: bigint): Promise<void> {
  await sql.run("DELETE FROM invites WHERE channel_id = ?", channelId);
}
