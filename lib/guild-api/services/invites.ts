// Invites: Create Channel Invite, Get Invite, Delete Invite, Get Guild Invites, and accepting an invite (Guildhall's
// join path, so paused invites and membership screening are observable). One function per operation; each change,
// its event and its audit entry in one transaction.
import { randomInt } from "node:crypto";
import { AuditLogEvent, RESTJSONErrorCodes } from "discord-api-types/v10";
import { INVITE_CODE_LENGTH } from "@/lib/discord/limits";
import { writeAuditLog } from "../audit-log";
import type { Identity } from "../auth";
import { ApiError, Errors, invalidFormBody, type FieldIssue } from "../errors";
import { emitEvent } from "../events";
import { guildAccessFor, Permission, type GuildAccess } from "../guards";
import type { CreateChannelInviteBody } from "../schemas/invites";
import { transaction } from "../store/db";
import { findApplication } from "../store/applications";
import { isBanned } from "../store/bans";
import { findChannelById, findVanityInviteChannelId, type ChannelRow } from "../store/channels";
import { findGuild, findGuildByVanityCode, type GuildRow } from "../store/guilds";
import { deleteTargetUsers, deleteTargetUsersJob } from "../store/invite-target-users";
import {
  deleteInvite as deleteInviteRow,
  findReusableInvite,
  findInvite,
  findValidInvite,
  incrementInviteUses,
  insertInvite,
  isInviteCodeTaken,
  listValidGuildInvites,
  type InviteRow,
} from "../store/invites";
import { findMember } from "../store/members";
import { insertMember } from "../store/membership";
import { listRolesByIds } from "../store/roles";
import { findScheduledEvent } from "../store/scheduled-events";
import { findUser } from "../store/users";
import { isStreamingIn } from "../store/voice-states";
import { inviteCreateEvent, serializeInvite, type InviteRefs } from "../serializers/invites";
import { memberEventPayload, serializeMember } from "../serializers/members";
import { judgeMemberProfile } from "./member-profile-rules";
import { isTargetUserAllowed, startTargetUsersJob, stopTargetUsersJob } from "./target-users";
import { mapSequentially } from "../sequential";

// Channels an invite may point at: text, voice, announcement, stage, forum, media (not categories or threads).
const INVITABLE_CHANNEL_TYPES: readonly number[] = [0, 2, 5, 13, 15, 16];
const VOICE_CHANNEL_TYPES: readonly number[] = [2, 13];
const TARGET_STREAM = 1; // the other target type, 2, is EMBEDDED_APPLICATION

const cannotExecuteOnChannelType = () =>
  new ApiError(
    400,
    RESTJSONErrorCodes.CannotExecuteActionOnThisChannelType,
    "Cannot execute action on this channel type",
  );
const bannedFromGuild = () =>
  new ApiError(403, RESTJSONErrorCodes.UserBannedFromThisGuild, "The user is banned from this guild.");

// ---------------------------------------------------------------------------------------------------------------
// Reads shared by the operations

/**
 * A guild's vanity code read as an invite, as Discord answers GET /invites/{vanity code}: a permanent, unlimited
 * invite without inviter, counting the vanity URL's uses, into the rules channel or else the first text channel.
 */
export async function findVanityInvite(code: string): Promise<InviteRow | undefined> {
  const guild = await findGuildByVanityCode(code);
  if (!guild) return undefined;
  const channelId = await findVanityInviteChannelId(guild.id);
  if (channelId === undefined) return undefined;
  return {
    code,
    guild_id: guild.id,
    channel_id: channelId,
    inviter_id: null,
    type: 0n,
    target_type: null,
    target_user_id: null,
    target_application_id: null,
    max_age: 0n,
    max_uses: 0n,
    uses: guild.vanity_url_uses,
    temporary: 0n,
    flags: 0n,
    role_ids: "[]",
    widget: 0n,
    created_at: guild.created_at,
    expires_at: null,
  };
}

/** An invite that can still be used: not expired and not used up. Anything else is Unknown Invite, as on Discord. */
export async function findValidInviteOrThrow(code: string, now = Date.now()): Promise<InviteRow> {
  const invite = await findValidInvite(code, now);
  if (!invite) throw Errors.unknownInvite();
  return invite;
}

/** The guild, channel, users, application and roles an invite refers to. */
export async function inviteRefs(invite: InviteRow, guild?: GuildRow): Promise<InviteRefs> {
  const guildRow = guild ?? ((await findGuild(invite.guild_id)) as GuildRow);
  const channel = (await findChannelById(invite.channel_id)) ?? { id: invite.channel_id, type: 0n, name: "" };
  const roles = await listRolesByIds(invite.guild_id, JSON.parse(invite.role_ids) as string[]);
  return {
    guild: guildRow,
    channel: { id: channel.id, type: channel.type, name: channel.name },
    inviter: invite.inviter_id === null ? null : ((await findUser(invite.inviter_id)) ?? null),
    targetUser: invite.target_user_id === null ? null : ((await findUser(invite.target_user_id)) ?? null),
    targetApplication:
      invite.target_application_id === null ? null : ((await findApplication(invite.target_application_id)) ?? null),
    roles,
  };
}

/** Invites are paused by the INVITES_DISABLED feature or by an incident action that has not yet run out. */
export function invitesPaused(guild: GuildRow, now = Date.now()): boolean {
  if ((JSON.parse(guild.features) as string[]).includes("INVITES_DISABLED")) return true;
  return guild.invites_disabled_until !== null && Number(guild.invites_disabled_until) > now;
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A fresh code of 8–10 base62 characters, unused by any invite or vanity URL. */
async function newInviteCode(): Promise<string> {
  for (;;) {
    const length = INVITE_CODE_LENGTH.min + randomInt(INVITE_CODE_LENGTH.max - INVITE_CODE_LENGTH.min + 1);
    let code = "";
    for (let i = 0; i < length; i++) code += BASE62[randomInt(BASE62.length)];
    if (!(await isInviteCodeTaken(code))) return code;
  }
}

interface NewInvite {
  guildId: bigint;
  channelId: bigint;
  inviterId: bigint | null;
  maxAge: number;
  maxUses: number;
  temporary: boolean;
  targetType: number | null;
  targetUserId: bigint | null;
  targetApplicationId: bigint | null;
  roleIds: readonly string[];
  widget: boolean;
}

/** Inserts an invite and fires INVITE_CREATE; runs inside the caller's transaction. */
export async function issueInvite(input: NewInvite, now: number): Promise<{ invite: InviteRow; refs: InviteRefs }> {
  const code = await newInviteCode();
  await insertInvite({
    code,
    guild_id: input.guildId,
    channel_id: input.channelId,
    inviter_id: input.inviterId,
    target_type: input.targetType == null ? null : BigInt(input.targetType),
    target_user_id: input.targetUserId,
    target_application_id: input.targetApplicationId,
    max_age: BigInt(input.maxAge),
    max_uses: BigInt(input.maxUses),
    temporary: input.temporary ? 1n : 0n,
    role_ids: JSON.stringify(input.roleIds),
    widget: input.widget ? 1n : 0n,
    created_at: BigInt(now),
    expires_at: input.maxAge === 0 ? null : BigInt(now + input.maxAge * 1000),
  });
  const invite = (await findInvite(code)) as InviteRow;
  const refs = await inviteRefs(invite);
  await emitEvent(input.guildId, "INVITE_CREATE", inviteCreateEvent(invite, refs), now);
  return { invite, refs };
}

// ---------------------------------------------------------------------------------------------------------------
// Create Channel Invite

/** Access to the channel an invite is created in or for: 404 Unknown Channel, 403 Missing Access when it is hidden. */
async function channelAccess(
  caller: Identity,
  channelId: bigint,
): Promise<{ access: GuildAccess; channel: ChannelRow; permissions: bigint }> {
  const channel = await findChannelById(channelId);
  if (!channel) throw Errors.unknownChannel();
  const access = await guildAccessFor(caller, channel.guild_id);
  const permissions = access.channelPermissions(channel.permission_overwrites);
  // Owners and administrators get every bit from the engine, so this only hides the channel from those who cannot see it.
  if ((permissions & Permission.ViewChannel) !== Permission.ViewChannel) throw Errors.missingAccess();
  return { access, channel, permissions };
}

const hasAll = (permissions: bigint, flag: bigint) =>
  (permissions & Permission.Administrator) === Permission.Administrator || (permissions & flag) === flag;

/** The target of a STREAM or EMBEDDED_APPLICATION invite, checked against the channel; field errors otherwise. */
async function checkTarget(
  channel: ChannelRow,
  body: CreateChannelInviteBody,
  issues: FieldIssue[],
): Promise<{ userId: bigint | null; applicationId: bigint | null }> {
  const none = { userId: null, applicationId: null };
  if (body.target_type === null) {
    if (body.target_user_id !== null || body.target_application_id !== null)
      issues.push({
        path: ["target_type"],
        code: "BASE_TYPE_REQUIRED",
        message: "A target type is required with a target user or application.",
      });
    return none;
  }
  if (!VOICE_CHANNEL_TYPES.includes(Number(channel.type))) {
    issues.push({
      path: ["target_type"],
      code: "INVITE_TARGET_CHANNEL_INVALID",
      message: "Only voice and stage channel invites can have a target.",
    });
    return none;
  }
  if (body.target_type === TARGET_STREAM) {
    if (body.target_user_id === null) {
      issues.push({ path: ["target_user_id"], code: "BASE_TYPE_REQUIRED", message: "This field is required" });
      return none;
    }
    const userId = BigInt(body.target_user_id);
    if (!(await isStreamingIn(channel.guild_id, userId, channel.id)))
      issues.push({
        path: ["target_user_id"],
        code: "INVITE_TARGET_USER_NOT_STREAMING",
        message: "The target user must be streaming in this channel.",
      });
    return { userId, applicationId: null };
  }
  // EMBEDDED_APPLICATION
  if (body.target_application_id === null) {
    issues.push({ path: ["target_application_id"], code: "BASE_TYPE_REQUIRED", message: "This field is required" });
    return none;
  }
  const applicationId = BigInt(body.target_application_id);
  const application = await findApplication(applicationId);
  if (!application || !application.activities_enabled)
    issues.push({
      path: ["target_application_id"],
      code: "INVITE_TARGET_APPLICATION_INVALID",
      message: "The target application must be an application with Activities enabled.",
    });
  return { userId: null, applicationId };
}

/** role_ids: roles of the guild, not @everyone or managed, each below the caller's highest role; MANAGE_ROLES needed. */
function checkRoles(access: GuildAccess, roleIds: readonly string[], issues: FieldIssue[]): void {
  if (roleIds.length === 0) return;
  if (!access.has(Permission.ManageRoles)) throw Errors.missingPermissions();
  roleIds.forEach((id, index) => {
    const role = access.role(id);
    if (!role || role.id === access.guildId)
      issues.push({ path: ["role_ids", index], code: "UNKNOWN_ROLE", message: `Unknown role ${id}.` });
    else if (role.managed)
      issues.push({ path: ["role_ids", index], code: "ROLE_MANAGED", message: "A managed role cannot be assigned." });
  });
  for (const id of roleIds) {
    const role = access.role(id);
    if (role && role.id !== access.guildId && !role.managed) access.assertCanManageRole(role);
  }
}

/**
 * Who may create this invite, and whether its fields are valid, without writing: Create Channel Invite runs it in its
 * transaction, and the route runs it before checking a target_users_file (so a caller who may not create an invite
 * learns nothing from the file's errors).
 */
export async function checkCreateChannelInvite(caller: Identity, channelId: bigint, body: CreateChannelInviteBody) {
  const { access, channel, permissions } = await channelAccess(caller, channelId);
  if (access.member.pending && !access.isOwner) throw Errors.missingPermissions();
  if (!hasAll(permissions, Permission.CreateInstantInvite)) throw Errors.missingPermissions();
  if (!INVITABLE_CHANNEL_TYPES.includes(Number(channel.type))) throw cannotExecuteOnChannelType();

  const issues: FieldIssue[] = [];
  const target = await checkTarget(channel, body, issues);
  checkRoles(access, body.role_ids, issues);
  if (issues.length > 0) throw invalidFormBody(issues);
  return { access, channel, target };
}

/**
 * Create Channel Invite (CREATE_INSTANT_INVITE in the channel). unique=false answers an existing matching invite by the
 * same inviter instead of a new one (no event, no audit entry). Refused while invites are paused. The ids of a
 * target_users_file are checked by the caller beforehand (parseTargetUsersFile), then processed by a job after the
 * invite exists.
 */
export async function createChannelInvite(
  caller: Identity,
  channelId: bigint,
  body: CreateChannelInviteBody,
  targetUserIds: readonly bigint[] | null,
  reason: string | null,
) {
  const { access, channel, target } = await checkCreateChannelInvite(caller, channelId, body);
  const now = Date.now();
  return await transaction(async () => {
    const guild = (await findGuild(access.guildId)) as GuildRow;
    if (invitesPaused(guild, now)) throw Errors.invitesPaused();
    const targetType = body.target_type;
    if (!body.unique && targetUserIds === null) {
      const existing = await findReusableInvite(
        {
          channel_id: channel.id,
          inviter_id: caller.userId,
          max_age: body.max_age,
          max_uses: body.max_uses,
          temporary: body.temporary ? 1 : 0,
          target_type: targetType ?? null,
          target_user_id: target.userId,
          target_application_id: target.applicationId,
          role_ids: JSON.stringify(body.role_ids),
        },
        now,
      );
      if (existing) return serializeInvite(existing, await inviteRefs(existing, guild), { metadata: true });
    }
    const { invite, refs } = await issueInvite(
      {
        guildId: access.guildId,
        channelId: channel.id,
        inviterId: caller.userId,
        maxAge: body.max_age,
        maxUses: body.max_uses,
        temporary: body.temporary,
        targetType,
        targetUserId: target.userId,
        targetApplicationId: target.applicationId,
        roleIds: body.role_ids,
        widget: false,
      },
      now,
    );
    await writeAuditLog({
      guildId: access.guildId,
      userId: caller.userId,
      actionType: AuditLogEvent.InviteCreate,
      reason,
      changes: [
        { key: "code", new_value: invite.code },
        { key: "channel_id", new_value: String(channel.id) },
        { key: "inviter_id", new_value: String(caller.userId) },
        { key: "uses", new_value: 0 },
        { key: "max_uses", new_value: body.max_uses },
        { key: "max_age", new_value: body.max_age },
        { key: "temporary", new_value: body.temporary },
        { key: "flags", new_value: 0 },
      ],
    });
    if (targetUserIds !== null) await startTargetUsersJob(invite.code, targetUserIds, now);
    return serializeInvite(invite, refs, { metadata: true });
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Get Invite, Delete Invite, Get Guild Invites

/**
 * Get Invite (no authentication needed): the invite with its partial guild (welcome screen included when enabled);
 * with_counts adds the approximate counts; guild_scheduled_event_id adds that event when it is one of the guild's.
 * A guild's vanity code resolves too (discord.py's Guild.vanity_invite reads the channel from it).
 */
export async function getInvite(
  code: string,
  query: { with_counts: boolean; guild_scheduled_event_id?: string },
  now = Date.now(),
) {
  const invite = (await findValidInvite(code, now)) ?? (await findVanityInvite(code));
  if (!invite) throw Errors.unknownInvite();
  const refs = await inviteRefs(invite);
  const scheduledEvent =
    query.guild_scheduled_event_id === undefined
      ? null
      : ((await findScheduledEvent(invite.guild_id, BigInt(query.guild_scheduled_event_id))) ?? null);
  const counts = query.with_counts
    ? { members: Number(refs.guild.member_count), presences: Number(refs.guild.presence_count) }
    : undefined;
  return serializeInvite(invite, refs, { counts, scheduledEvent });
}

/** Delete Invite: MANAGE_CHANNELS in the invite's channel, or MANAGE_GUILD. Answers the deleted invite. */
export async function deleteInvite(caller: Identity, code: string, reason: string | null, now = Date.now()) {
  const invite = await findValidInviteOrThrow(code, now);
  const access = await guildAccessFor(caller, invite.guild_id);
  const channel = await findChannelById(invite.channel_id);
  const inChannel = channel ? access.channelPermissions(channel.permission_overwrites) : 0n;
  if (access.member.pending && !access.isOwner) throw Errors.missingPermissions();
  if (!access.has(Permission.ManageGuild) && !hasAll(inChannel, Permission.ManageChannels))
    throw Errors.missingPermissions();

  return await transaction(async () => {
    const refs = await inviteRefs(invite, access.guild);
    await deleteInviteRow(code);
    await deleteTargetUsers(code);
    await deleteTargetUsersJob(code);
    stopTargetUsersJob(code);
    await emitEvent(
      invite.guild_id,
      "INVITE_DELETE",
      { channel_id: String(invite.channel_id), guild_id: String(invite.guild_id), code },
      now,
    );
    await writeAuditLog({
      guildId: invite.guild_id,
      userId: caller.userId,
      actionType: AuditLogEvent.InviteDelete,
      reason,
      changes: [
        { key: "code", old_value: code },
        { key: "channel_id", old_value: String(invite.channel_id) },
        ...(invite.inviter_id === null ? [] : [{ key: "inviter_id", old_value: String(invite.inviter_id) }]),
        { key: "uses", old_value: Number(invite.uses) },
        { key: "max_uses", old_value: Number(invite.max_uses) },
        { key: "max_age", old_value: Number(invite.max_age) },
        { key: "temporary", old_value: Boolean(invite.temporary) },
        { key: "flags", old_value: Number(invite.flags) },
      ],
    });
    return serializeInvite(invite, refs);
  });
}

/** Get Guild Invites: MANAGE_GUILD or VIEW_AUDIT_LOG; the metadata (uses, limits, created_at) only with MANAGE_GUILD. */
export async function getGuildInvites(access: GuildAccess, now = Date.now()) {
  access.authorize("Get Guild Invites");
  const metadata = access.has(Permission.ManageGuild);
  const invites = await listValidGuildInvites(access.guildId, now);
  return mapSequentially(invites, async (invite) =>
    serializeInvite(invite, await inviteRefs(invite, access.guild), { metadata }),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Accepting an invite (Guildhall's join path)

/**
 * A user (Bearer token) joins the invite's guild: refused while invites are paused, for banned users (403 40007) and,
 * when the invite has target users, for anyone not listed (403 50001). The member is pending while the guild has
 * MEMBER_VERIFICATION_GATE_ENABLED. uses grows by one; the invite's roles are assigned. A member already in the guild
 * gets the invite back with new_member false and nothing changes.
 */
export async function acceptInvite(caller: Identity, code: string, now = Date.now()) {
  if (caller.kind === "bot") throw Errors.botsCannotUse();
  return await transaction(async () => {
    const invite = await findValidInviteOrThrow(code, now);
    const guild = (await findGuild(invite.guild_id)) as GuildRow;
    if (invitesPaused(guild, now)) throw Errors.invitesPaused();
    const refs = await inviteRefs(invite, guild);
    if (await findMember(invite.guild_id, caller.userId))
      return { ...serializeInvite(invite, refs), new_member: false };
    if (await isBanned(invite.guild_id, caller.userId)) throw bannedFromGuild();
    if (!(await isTargetUserAllowed(code, caller.userId))) throw Errors.missingAccess();

    const user = await findUser(caller.userId);
    if (!user) throw Errors.unknownUser();
    const pending = (JSON.parse(guild.features) as string[]).includes("MEMBER_VERIFICATION_GATE_ENABLED");
    const roleIds = refs.roles.filter((role) => role.id !== guild.id && !role.managed).map((role) => role.id);
    await insertMember({
      guildId: invite.guild_id,
      userId: caller.userId,
      username: user.username,
      roleIds,
      pending,
      now,
    });
    await incrementInviteUses(code);
    await judgeMemberProfile(invite.guild_id, caller.userId, now);
    const member = (await findMember(invite.guild_id, caller.userId))!;
    await emitEvent(
      invite.guild_id,
      "GUILD_MEMBER_ADD",
      memberEventPayload(invite.guild_id, serializeMember(member, user, roleIds)),
      now,
    );
    return { ...serializeInvite(invite, refs), new_member: true };
  });
}
