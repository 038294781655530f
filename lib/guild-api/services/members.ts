// Members: one function per spec operation. Writes check each field's own permission, the role hierarchy (a
// member whose highest role is at or above the caller's is out of reach, and nobody acts on the owner; acting on
// yourself is not "acting on a member") and write the change, its events and its audit entries in one transaction.
import { APPLICATION_FLAGS_GUILD_MEMBERS, MEMBER_FLAGS_EDITABLE, TIMEOUT_MAX_MS } from "@/lib/discord/limits";
import { computeBasePermissions, hasPermission } from "@/lib/discord/permissions";
import { AuditLogEvent, diffChanges, writeAuditLog, type AuditChange, auditByCaller } from "../audit-log";
import { bearerIdentity } from "../auth";
import { ApiError, Errors, invalidFormBody, type FieldIssue, FieldErrorCode } from "../errors";
import { emitEvent } from "../events";
import { Permission, toPermissionMember, type GuildAccess } from "../guards";
import { decodeImage, saveImage } from "../images";
import type { AddGuildMemberBody, ModifyCurrentMemberBody, ModifyGuildMemberBody } from "../schemas/members";
import { transaction } from "../store/db";
import { findApplicationFlags } from "../store/applications";
import { isBanned } from "../store/bans";
import { findChannel } from "../store/channels";
import { deleteMember, insertMember, setMemberRole, setMemberRoles } from "../store/membership";
import {
  findMemberWire,
  findMemberWithUser,
  listMembersPageJson,
  searchMembersJson,
  splitRoleIds,
  updateMemberFields,
  updateMemberTimeout,
  type MemberFields,
  type MemberRow,
  type MemberWithUserRow,
} from "../store/members";
import type { RoleRow } from "../store/roles";
import { findUser, userExists, type UserRow } from "../store/users";
import { deleteVoiceState, findVoiceState, moveVoiceState, type VoiceStateRow } from "../store/voice-states";
import { iso, serializeMember } from "../serializers/members";
import { ChannelType } from "../serializers/channels";
import { judgeMemberProfile } from "./member-profile-rules";

const { ROLE_INVALID, CHANNEL_INVALID, TIMEOUT_TOO_LONG, IMAGE_INVALID } = FieldErrorCode;

const notInVoice = () => new ApiError(400, 40032, "Target user is not connected to voice.");
const bannedFromGuild = () => new ApiError(403, 40007, "The user is banned from this guild.");
// Discord answers 403 here: a 401 would tell clients such as @discordjs/rest that the bot's own token is bad.
const invalidAccessToken = () => new ApiError(403, 50025, "Invalid OAuth2 access token");

export function userOf(row: MemberWithUserRow): UserRow {
  return {
    id: row.user_id,
    username: row.username,
    global_name: row.global_name,
    discriminator: row.discriminator,
    avatar: row.user_avatar,
    banner: row.user_banner,
    bot: row.bot,
    system: row.system,
    flags: row.user_flags,
    public_flags: row.public_flags,
  };
}

export function serializeMemberRow(row: MemberWithUserRow) {
  return serializeMember(row, userOf(row), splitRoleIds(row.role_ids));
}

const memberPayload = (guildId: bigint, member: ReturnType<typeof serializeMember>) => ({
  guild_id: String(guildId),
  ...member,
});

/** The member `userId` of the guild: 404 Unknown Member, or Unknown User when there is no such user. */
async function findTargetOrThrow(guildId: bigint, userId: bigint): Promise<MemberWithUserRow> {
  const row = await findMemberWithUser(guildId, userId);
  if (row) return row;
  if (!(await userExists(userId))) throw Errors.unknownUser();
  throw Errors.unknownMember();
}

/** Hierarchy for acting on `target`; acting on yourself is always within reach. */
function assertCanActOnMember(access: GuildAccess, target: MemberWithUserRow): void {
  if (target.user_id === access.caller.userId) return;
  access.assertCanActOn(toPermissionMember(target, splitRoleIds(target.role_ids)));
}

type SerializedMember = ReturnType<typeof serializeMember>;

/**
 * The target of a single-member write as stored: its row, its member object from members.wire_json (kept by triggers,
 * the same JSON serializeMember gives; the timeout, which the stored JSON leaves null, set as serializeMember sets it)
 * and its role ids. One primary-key read: bulk jobs send one such write per member. 404 as findTargetOrThrow.
 */
async function findStoredTargetOrThrow(guildId: bigint, userId: bigint) {
  const row = await findMemberWire(guildId, userId);
  if (!row) {
    if (!(await userExists(userId))) throw Errors.unknownUser();
    throw Errors.unknownMember();
  }
  const stored = JSON.parse(row.wire_json) as SerializedMember;
  const until = row.communication_disabled_until;
  const member: SerializedMember = {
    ...stored,
    communication_disabled_until: until !== null && Number(until) > Date.now() ? iso(until) : null,
  };
  return { row, member, roleIds: member.roles.map(BigInt) };
}

// ── Reads ──────────────────────────────────────────────────────────────────────────────────────────────────────

export async function getGuildMember(access: GuildAccess, userId: bigint) {
  return serializeMemberRow(await findTargetOrThrow(access.guildId, userId));
}

/**
 * List Guild Members: ascending by user id after `after`. Bots need their application's GUILD_MEMBERS (or
 * GUILD_MEMBERS_LIMITED) flag, as Discord's privileged intent. Hot path: the page comes back as JSON text.
 */
export async function listGuildMembersJson(
  access: GuildAccess,
  query: { limit: number; after: string },
): Promise<Buffer> {
  if (access.caller.kind === "bot") {
    const flags = await findApplicationFlags(access.caller.applicationId);
    if (flags === undefined || (flags & BigInt(APPLICATION_FLAGS_GUILD_MEMBERS)) === 0n) throw Errors.missingAccess();
  }
  return await listMembersPageJson(access.guildId, BigInt(query.after), query.limit);
}

/** Search Guild Members: nick or username prefix, case-insensitive. Hot path: JSON text, as List Guild Members. */
export function searchGuildMembersJson(access: GuildAccess, query: { query: string; limit: number }): Promise<string> {
  return searchMembersJson(access.guildId, query.query, query.limit);
}

// ── Add Guild Member ───────────────────────────────────────────────────────────────────────────────────────────

/**
 * Add Guild Member: a bot adds a user who granted its application `guilds.join`. The bot must be a member with
 * CREATE_INSTANT_INVITE (plus MANAGE_NICKNAMES, MANAGE_ROLES, MUTE_MEMBERS, DEAFEN_MEMBERS for those fields).
 * Already a member: null (204, nothing changes). Banned: 403 40007. With MEMBER_VERIFICATION_GATE_ENABLED the new
 * member is pending. Fires GUILD_MEMBER_ADD.
 */
export async function addGuildMember(access: GuildAccess, userId: bigint, body: AddGuildMemberBody, now = Date.now()) {
  const caller = access.caller;
  if (caller.kind !== "bot") throw Errors.onlyBots();
  access.authorize("Add Guild Member");
  const token = await bearerIdentity(body.access_token, now);
  if (!token || token.userId !== userId || token.applicationId !== caller.applicationId) throw invalidAccessToken();
  if (!token.scopes.has("guilds.join")) throw Errors.missingScope();
  access.authorize(
    "Add Guild Member",
    [
      body.nick != null && "nick",
      body.roles?.length && "roles",
      body.mute != null && "mute",
      body.deaf != null && "deaf",
    ].filter((field): field is string => typeof field === "string"),
  );

  return await transaction(async () => {
    if (await findMemberWithUser(access.guildId, userId)) return null;
    if (await isBanned(access.guildId, userId)) throw bannedFromGuild();
    const user = await findUser(userId);
    if (!user) throw Errors.unknownUser();
    const roleIds = checkAssignableRoles(access, body.roles ?? [], []).desired;
    const pending = (JSON.parse(access.guild.features) as string[]).includes("MEMBER_VERIFICATION_GATE_ENABLED");
    await insertMember({
      guildId: access.guildId,
      userId,
      username: user.username,
      nick: body.nick || null,
      roleIds,
      mute: body.mute ?? false,
      deaf: body.deaf ?? false,
      pending,
      now,
    });
    await judgeMemberProfile(access.guildId, userId, now);
    const member = serializeMemberRow((await findMemberWithUser(access.guildId, userId))!);
    await emitEvent(access.guildId, "GUILD_MEMBER_ADD", memberPayload(access.guildId, member), now);
    return member;
  });
}

// ── Roles of a member ──────────────────────────────────────────────────────────────────────────────────────────

/**
 * The role set a request asks for, checked: every role a role of the guild (400 at roles[i]; @everyone is implied
 * and dropped), and every role added or removed neither managed nor at or above the caller's highest role (403).
 */
function checkAssignableRoles(access: GuildAccess, requested: readonly string[], current: readonly bigint[]) {
  const issues: FieldIssue[] = [];
  const desired: bigint[] = [];
  requested.forEach((id, index) => {
    const role = access.role(id);
    if (!role)
      issues.push({ path: ["roles", index], code: ROLE_INVALID, message: `Role ${id} is not a role of this guild.` });
    else if (role.id !== access.guildId && !desired.includes(role.id)) desired.push(role.id);
  });
  if (issues.length > 0) throw invalidFormBody(issues);
  const added = desired.filter((id) => !current.includes(id));
  const removed = current.filter((id) => !desired.includes(id));
  for (const id of [...added, ...removed]) {
    const role = access.role(id);
    if (!role) continue; // a stale id in member_roles: dropping it needs no rights
    assertAssignable(access, role);
  }
  return { desired, added, removed };
}

/** Managed roles (bots, integrations) are never assigned by hand; others must be below the caller's highest role. */
function assertAssignable(access: GuildAccess, role: RoleRow): void {
  if (role.managed) throw Errors.missingPermissions();
  access.assertCanManageRole(role);
}

function roleChanges(access: GuildAccess, added: readonly bigint[], removed: readonly bigint[]): AuditChange[] {
  const describe = (ids: readonly bigint[]) =>
    ids.map((id) => ({ id: String(id), name: access.role(id)?.name ?? null }));
  const changes: AuditChange[] = [];
  if (added.length > 0) changes.push({ key: "$add", new_value: describe(added) });
  if (removed.length > 0) changes.push({ key: "$remove", new_value: describe(removed) });
  return changes;
}

/**
 * Add Guild Member Role / Remove Guild Member Role (MANAGE_ROLES + hierarchy); idempotent, 204 either way. The request
 * already runs in its write transaction (http.ts), so the member read once here is the member written: one
 * member_roles row given or taken, and the event's member is the stored one with the new role set (a bulk role job
 * sends 10,000 of these, so each read and trigger firing saved counts).
 */
export async function setGuildMemberRole(
  access: GuildAccess,
  userId: bigint,
  roleId: bigint,
  present: boolean,
  reason: string | null,
): Promise<void> {
  access.authorize("Add Guild Member Role");
  const role = access.role(roleId);
  if (!role || role.id === access.guildId) throw Errors.unknownRole();
  const target = await findStoredTargetOrThrow(access.guildId, userId);
  assertAssignable(access, role);
  if (userId !== access.caller.userId) access.assertCanActOn(toPermissionMember(target.row, target.roleIds));
  if (target.roleIds.includes(roleId) === present) return;
  const roles = present
    ? [...target.roleIds, roleId].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    : target.roleIds.filter((id) => id !== roleId);
  await transaction(async () => {
    await setMemberRole(access.guildId, userId, roleId, present);
    const member: SerializedMember = { ...target.member, roles: roles.map(String) };
    await emitEvent(access.guildId, "GUILD_MEMBER_UPDATE", memberPayload(access.guildId, member));
    await auditByCaller(access, {
      actionType: AuditLogEvent.MemberRoleUpdate,
      targetId: userId,
      reason,
      changes: roleChanges(access, present ? [roleId] : [], present ? [] : [roleId]),
    });
  });
}

// ── Modify Guild Member ────────────────────────────────────────────────────────────────────────────────────────

const fieldsOf = (row: MemberRow): MemberFields => ({
  nick: row.nick,
  mute: Boolean(row.mute),
  deaf: Boolean(row.deaf),
  flags: Number(row.flags),
  communicationDisabledUntil:
    row.communication_disabled_until === null ? null : Number(row.communication_disabled_until),
  avatar: row.avatar,
  banner: row.banner,
});

/** The member row with its own fields replaced (as updateMemberFields writes them). */
const withFields = <R extends MemberRow>(row: R, fields: MemberFields): R => ({
  ...row,
  nick: fields.nick,
  mute: fields.mute ? 1n : 0n,
  deaf: fields.deaf ? 1n : 0n,
  flags: BigInt(fields.flags),
  communication_disabled_until:
    fields.communicationDisabledUntil === null ? null : BigInt(fields.communicationDisabledUntil),
  avatar: fields.avatar,
  banner: fields.banner,
});

/** The audit-log view of a member's own fields (Discord's MEMBER_UPDATE keys). */
const auditView = (fields: MemberFields, now: number): Record<string, unknown> => ({
  nick: fields.nick,
  mute: fields.mute,
  deaf: fields.deaf,
  communication_disabled_until:
    fields.communicationDisabledUntil !== null && fields.communicationDisabledUntil > now
      ? new Date(fields.communicationDisabledUntil).toISOString()
      : null,
  flags: fields.flags,
  avatar_hash: fields.avatar,
  banner_hash: fields.banner,
});

function voiceStatePayload(
  guildId: bigint,
  state: VoiceStateRow,
  channelId: bigint | null,
  member: ReturnType<typeof serializeMember>,
) {
  return {
    guild_id: String(guildId),
    channel_id: channelId === null ? null : String(channelId),
    user_id: String(state.user_id),
    member,
    session_id: state.session_id,
    deaf: member.deaf,
    mute: member.mute,
    self_deaf: Boolean(state.self_deaf),
    self_mute: Boolean(state.self_mute),
    self_stream: Boolean(state.self_stream),
    self_video: Boolean(state.self_video),
    suppress: Boolean(state.suppress),
    request_to_speak_timestamp: null,
  };
}

/**
 * Modify Guild Member: each field needs its own permission (the spec's table), the target must be within the
 * caller's reach, and everything happens in one transaction. Not sent or null for roles/mute/deaf/flags: unchanged;
 * nick null or "" removes the nickname; channel_id null disconnects; communication_disabled_until null ends the
 * timeout. Answers the member; fires GUILD_MEMBER_UPDATE (and VOICE_STATE_UPDATE for voice changes).
 */
export async function modifyGuildMember(
  access: GuildAccess,
  userId: bigint,
  body: ModifyGuildMemberBody,
  reason: string | null,
  now = Date.now(),
) {
  const guildId = access.guildId;
  const target = await findTargetOrThrow(guildId, userId);
  const self = userId === access.caller.userId;
  const targetRoleIds = splitRoleIds(target.role_ids);

  if (body.nick !== undefined) {
    if (self) access.requireAny(Permission.ChangeNickname, Permission.ManageNicknames);
    else access.require(Permission.ManageNicknames);
  }
  if (body.roles != null) access.require(Permission.ManageRoles);
  if (body.mute != null) access.require(Permission.MuteMembers);
  if (body.deaf != null) access.require(Permission.DeafenMembers);
  if (body.channel_id !== undefined) access.require(Permission.MoveMembers);
  if (body.communication_disabled_until !== undefined) {
    access.require(Permission.ModerateMembers);
    // Nobody times out the owner, an administrator, or themselves.
    const targetPermissions = computeBasePermissions(access.context, toPermissionMember(target, targetRoleIds), now);
    if (self || target.user_id === access.guild.owner_id || hasPermission(targetPermissions, Permission.Administrator))
      throw Errors.missingPermissions();
  }
  if (body.flags != null) {
    const canSetFlags =
      access.has(Permission.ManageGuild) ||
      access.has(Permission.ManageRoles) ||
      (access.has(Permission.ModerateMembers) &&
        access.has(Permission.KickMembers) &&
        access.has(Permission.BanMembers));
    if (!canSetFlags || (access.member.pending && !access.isOwner)) throw Errors.missingPermissions();
  }
  assertCanActOnMember(access, target);

  return await transaction(async () => {
    const before = fieldsOf(target);
    const next: MemberFields = { ...before };
    const issues: FieldIssue[] = [];

    if (body.nick !== undefined) next.nick = body.nick || null;
    if (body.flags != null) next.flags = (before.flags & ~MEMBER_FLAGS_EDITABLE) | (body.flags & MEMBER_FLAGS_EDITABLE);
    if (body.communication_disabled_until !== undefined) {
      const until = body.communication_disabled_until;
      if (until !== null && until - now > TIMEOUT_MAX_MS)
        issues.push({
          path: ["communication_disabled_until"],
          code: TIMEOUT_TOO_LONG,
          message: "Timeouts can be at most 28 days in the future.",
        });
      next.communicationDisabledUntil = until;
    }

    let moveTo: bigint | null | undefined;
    if (body.channel_id != null) {
      const channel = await findChannel(guildId, BigInt(body.channel_id));
      if (!channel || (Number(channel.type) !== ChannelType.Voice && Number(channel.type) !== ChannelType.Stage)) {
        issues.push({
          path: ["channel_id"],
          code: CHANNEL_INVALID,
          message: "Must be a voice or stage channel of this guild.",
        });
      } else {
        const permissions = access.channelPermissions(channel.permission_overwrites, now);
        if (!hasPermission(permissions, Permission.ViewChannel) || !hasPermission(permissions, Permission.Connect))
          throw Errors.missingPermissions();
        moveTo = BigInt(body.channel_id);
      }
    } else if (body.channel_id === null) {
      moveTo = null;
    }
    if (issues.length > 0) throw invalidFormBody(issues);

    const roles = body.roles != null ? checkAssignableRoles(access, body.roles, targetRoleIds) : null;
    const voice = await findVoiceState(guildId, userId);
    if ((body.mute != null || body.deaf != null || (moveTo !== undefined && moveTo !== null)) && !voice)
      throw notInVoice();
    if (body.mute != null) next.mute = body.mute;
    if (body.deaf != null) next.deaf = body.deaf;

    const memberChanges = diffChanges(auditView(before, now), auditView(next, now));
    // A timeout alone (a bulk timeout sends one per member) writes its one column, which no trigger watches.
    if (memberChanges.length > 0 && memberChanges.every((c) => c.key === "communication_disabled_until"))
      await updateMemberTimeout(guildId, userId, next.communicationDisabledUntil);
    else if (memberChanges.length > 0) await updateMemberFields(guildId, userId, next);
    const rolesChanged = roles !== null && (roles.added.length > 0 || roles.removed.length > 0);
    if (roles && rolesChanged) await setMemberRoles(guildId, userId, roles.desired);
    const voiceMoved = voice !== undefined && moveTo !== undefined && moveTo !== voice.channel_id;
    if (voiceMoved) {
      if (moveTo === null) await deleteVoiceState(guildId, userId);
      else await moveVoiceState(guildId, userId, moveTo!);
    }

    // A new nickname is judged by the member-profile rules; a role change may make the member exempt or not.
    const reflagged = (next.nick !== before.nick || rolesChanged) && (await judgeMemberProfile(guildId, userId, now));
    // Read again only when the role set or the flags changed; otherwise the target read above with its new fields is
    // the member.
    const member =
      rolesChanged || reflagged
        ? serializeMemberRow((await findMemberWithUser(guildId, userId))!)
        : serializeMember(withFields(target, next), userOf(target), targetRoleIds);
    const actor = access.caller.userId;
    if (memberChanges.length > 0 || rolesChanged || reflagged)
      await emitEvent(guildId, "GUILD_MEMBER_UPDATE", memberPayload(guildId, member), now);
    if (voice && (voiceMoved || before.mute !== next.mute || before.deaf !== next.deaf)) {
      await emitEvent(
        guildId,
        "VOICE_STATE_UPDATE",
        voiceStatePayload(guildId, voice, voiceMoved ? (moveTo ?? null) : voice.channel_id, member),
        now,
      );
    }
    if (memberChanges.length > 0)
      await writeAuditLog({
        guildId,
        userId: actor,
        actionType: AuditLogEvent.MemberUpdate,
        targetId: userId,
        reason,
        changes: memberChanges,
      });
    if (roles && rolesChanged)
      await writeAuditLog({
        guildId,
        userId: actor,
        actionType: AuditLogEvent.MemberRoleUpdate,
        targetId: userId,
        reason,
        changes: roleChanges(access, roles.added, roles.removed),
      });
    if (voiceMoved) {
      await writeAuditLog(
        moveTo === null
          ? { guildId, userId: actor, actionType: AuditLogEvent.MemberDisconnect, reason, options: { count: "1" } }
          : {
              guildId,
              userId: actor,
              actionType: AuditLogEvent.MemberMove,
              reason,
              options: { channel_id: String(moveTo), count: "1" },
            },
      );
    }
    return member;
  });
}

// ── The caller's own member ────────────────────────────────────────────────────────────────────────────────────

/**
 * Modify Current Member: nick needs CHANGE_NICKNAME; avatar and banner are data URIs of png, jpeg or gif images
 * (null removes). `bio` is accepted but not kept: Guildhall has no column for it yet.
 */
export async function modifyCurrentMember(
  access: GuildAccess,
  body: ModifyCurrentMemberBody,
  reason: string | null,
  now = Date.now(),
) {
  if (body.nick !== undefined) access.requireAny(Permission.ChangeNickname, Permission.ManageNicknames);
  const guildId = access.guildId;
  const userId = access.caller.userId;
  const issues: FieldIssue[] = [];
  const images = (["avatar", "banner"] as const).flatMap((field) => {
    const value = body[field];
    if (value == null) return [];
    const image = decodeImage(value);
    if (!image) {
      issues.push({
        path: [field],
        code: IMAGE_INVALID,
        message: "Invalid image data: must be a base64 data URI of a png, jpeg or gif image.",
      });
      return [];
    }
    return [[field, image] as const];
  });
  if (issues.length > 0) throw invalidFormBody(issues);

  return await transaction(async () => {
    const target = await findTargetOrThrow(guildId, userId);
    const before = fieldsOf(target);
    const next: MemberFields = { ...before };
    if (body.nick !== undefined) next.nick = body.nick || null;
    if (body.avatar === null) next.avatar = null;
    if (body.banner === null) next.banner = null;
    for (const [field, image] of images)
      next[field] = await saveImage(field === "avatar" ? "avatars" : "banners", userId, image);
    const changes = diffChanges(auditView(before, now), auditView(next, now));
    if (changes.length > 0) await updateMemberFields(guildId, userId, next);
    // A new nickname is judged by the member-profile rules (the member read next carries the flags they set).
    if (next.nick !== before.nick) await judgeMemberProfile(guildId, userId, now);
    const member = serializeMemberRow((await findMemberWithUser(guildId, userId))!);
    if (changes.length > 0) {
      await emitEvent(guildId, "GUILD_MEMBER_UPDATE", memberPayload(guildId, member), now);
      await writeAuditLog({
        guildId,
        userId,
        actionType: AuditLogEvent.MemberUpdate,
        targetId: userId,
        reason,
        changes,
      });
    }
    return member;
  });
}

/** Modify Current User Nick (deprecated): the nick part of Modify Current Member, answering `{nick}`. */
export async function modifyCurrentUserNick(
  access: GuildAccess,
  nick: string | null | undefined,
  reason: string | null,
) {
  access.requireAny(Permission.ChangeNickname, Permission.ManageNicknames);
  const member = await modifyCurrentMember(access, { nick: nick ?? null }, reason);
  return { nick: member.nick };
}

// ── Remove Guild Member ────────────────────────────────────────────────────────────────────────────────────────

/** Remove Guild Member (kick): KICK_MEMBERS + hierarchy; never the owner or yourself. Fires GUILD_MEMBER_REMOVE. */
export async function removeGuildMember(access: GuildAccess, userId: bigint, reason: string | null): Promise<void> {
  access.authorize("Remove Guild Member");
  const target = await findStoredTargetOrThrow(access.guildId, userId);
  access.assertCanActOn(toPermissionMember(target.row, target.roleIds));
  await transaction(async () => {
    if (!(await deleteMember(access.guildId, userId))) throw Errors.unknownMember();
    await emitEvent(access.guildId, "GUILD_MEMBER_REMOVE", {
      guild_id: String(access.guildId),
      user: target.member.user,
    });
    await auditByCaller(access, {
      actionType: AuditLogEvent.MemberKick,
      targetId: userId,
      reason,
    });
  });
}
