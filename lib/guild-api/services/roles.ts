// Roles: one function per spec operation. Writes check MANAGE_ROLES, the role hierarchy (a role at or above the
// caller's highest role is out of reach; the owner is exempt) and that nobody grants permissions they lack; each
// change, its events and its audit entry are written in one transaction.
import { ALL_PERMISSIONS, canMoveRoles, rankedRoles, roleMoves } from "@/lib/discord/permissions";
import { newSnowflake } from "@/lib/discord/snowflake";
import { ROLES_MAX } from "@/lib/discord/limits";
import { AuditLogEvent, diffChanges, auditByCaller } from "../audit-log";
import { ApiError, Errors, invalidFormBody, type FieldIssue, FieldErrorCode } from "../errors";
import { emitEvent } from "../events";
import { permissionContextOf, type GuildAccess } from "../guards";
import { decodeImage, saveImage, type DecodedImage } from "../images";
import type { ModifyGuildRolePositionsBody, RoleFieldsBody } from "../schemas/roles";
import { transaction } from "../store/db";
import { listChannelsWithOverwriteFor, updateChannelOverwrites } from "../store/channels";
import { countMembersByRole } from "../store/member-roles";
import { removeRoleFromMembers } from "../store/membership";
import {
  countGuildRoles,
  deleteRole,
  findRole,
  insertRole,
  listGuildRoles,
  listRolesAboveEveryone,
  roleRowWithDefaults,
  setRolePosition,
  shiftRolesAboveEveryone,
  updateRole,
  type RoleRow,
} from "../store/roles";
import { serializeRole } from "../serializers/roles";
import { serializeChannel } from "../serializers/channels";
import type { OverwriteJson } from "../guards";

const DEFAULT_ROLE_NAME = "new role";
const { GUILD_FEATURE_REQUIRED, IMAGE_INVALID, EMOJI_INVALID, EVERYONE_ROLE_IMMUTABLE, ROLE_INVALID } = FieldErrorCode;

const invalidRole = () => new ApiError(400, 50028, "Invalid Role");
const maxRoles = () => new ApiError(400, 30005, `Maximum number of guild roles reached (${ROLES_MAX})`);
const features = (access: GuildAccess) => JSON.parse(access.guild.features) as string[];

/** A standard emoji: pictographs (with their modifiers and joiners), keycaps or flags, no text around them. */
const UNICODE_EMOJI =
  /^(?:\p{Extended_Pictographic}|\p{Regional_Indicator}|[#*0-9]\uFE0F?\u20E3)(?:\p{Extended_Pictographic}|\p{Regional_Indicator}|\p{Emoji_Modifier}|\uFE0F|\u200D|\u20E3)*$/u;

export function getGuildRoles(access: GuildAccess) {
  return access.roles.map(serializeRole);
}

export function getGuildRole(access: GuildAccess, roleId: bigint) {
  const role = access.role(roleId);
  if (!role) throw Errors.unknownRole();
  return serializeRole(role);
}

/** Get Guild Role Member Counts: one grouped walk of the member_roles(guild_id, role_id) index; no @everyone, zeros kept. */
export async function getGuildRoleMemberCounts(access: GuildAccess): Promise<Record<string, number>> {
  const counts = await countMembersByRole(access.guildId);
  const result: Record<string, number> = {};
  for (const role of access.roles) if (role.id !== access.guildId) result[String(role.id)] = counts.get(role.id) ?? 0;
  return result;
}

/** The audit-log view of a role (Discord's keys: the icon is logged as icon_hash). */
function auditView(role: RoleRow): Record<string, unknown> {
  return {
    name: role.name,
    permissions: String(role.permissions),
    color: Number(role.color),
    secondary_color: role.secondary_color === null ? null : Number(role.secondary_color),
    tertiary_color: role.tertiary_color === null ? null : Number(role.tertiary_color),
    hoist: Boolean(role.hoist),
    mentionable: Boolean(role.mentionable),
    icon_hash: role.icon,
    unicode_emoji: role.unicode_emoji,
  };
}

/** 403 unless the permission bits this change touches are all held by the caller (administrators hold every bit). */
function assertCanGrant(access: GuildAccess, before: bigint, after: bigint): void {
  if (access.isOwner) return;
  if (((before ^ after) & ~access.permissions) !== 0n) throw Errors.missingPermissions();
}

/**
 * The role's fields after the request, with every field error collected. Not sent: unchanged. null: the default
 * for fields a role always has (name on create, color 0, default colors), cleared for icon and unicode_emoji,
 * unchanged for permissions, hoist and mentionable. `colors` replaces all three colors; the deprecated `color`
 * sets the primary color only. @everyone takes nothing but permissions.
 */
function applyRoleFields(
  access: GuildAccess,
  current: RoleRow,
  body: RoleFieldsBody,
  creating: boolean,
): { next: RoleRow; icon: DecodedImage | null } {
  const next: RoleRow = { ...current };
  const issues: FieldIssue[] = [];
  const guildFeatures = features(access);
  let icon: DecodedImage | null = null;

  if (body.name !== undefined) next.name = body.name ?? (creating ? DEFAULT_ROLE_NAME : current.name);
  if (body.permissions !== undefined && body.permissions !== null)
    next.permissions = body.permissions & ALL_PERMISSIONS;
  if (body.hoist !== undefined && body.hoist !== null) next.hoist = body.hoist ? 1n : 0n;
  if (body.mentionable !== undefined && body.mentionable !== null) next.mentionable = body.mentionable ? 1n : 0n;
  if (body.colors !== undefined) {
    next.color = BigInt(body.colors?.primary_color ?? 0);
    next.secondary_color = body.colors?.secondary_color == null ? null : BigInt(body.colors.secondary_color);
    next.tertiary_color = body.colors?.tertiary_color == null ? null : BigInt(body.colors.tertiary_color);
  } else if (body.color !== undefined) {
    next.color = BigInt(body.color ?? 0);
  }
  if (
    (next.secondary_color !== current.secondary_color && next.secondary_color !== null) ||
    (next.tertiary_color !== current.tertiary_color && next.tertiary_color !== null)
  ) {
    if (!guildFeatures.includes("ENHANCED_ROLE_COLORS")) {
      const field = next.secondary_color !== null ? "secondary_color" : "tertiary_color";
      issues.push({
        path: ["colors", field],
        code: GUILD_FEATURE_REQUIRED,
        message: "Gradient role colors need the ENHANCED_ROLE_COLORS feature.",
      });
    }
  }
  if (body.icon !== undefined) {
    if (body.icon === null) next.icon = null;
    else if (!guildFeatures.includes("ROLE_ICONS"))
      issues.push({ path: ["icon"], code: GUILD_FEATURE_REQUIRED, message: "Role icons need the ROLE_ICONS feature." });
    else {
      icon = decodeImage(body.icon);
      if (!icon || icon.animated) {
        icon = null;
        issues.push({
          path: ["icon"],
          code: IMAGE_INVALID,
          message: "Invalid image data: must be a base64 data URI of a png, jpeg or still gif image.",
        });
      }
    }
  }
  if (body.unicode_emoji !== undefined) {
    if (body.unicode_emoji === null) next.unicode_emoji = null;
    else if (!guildFeatures.includes("ROLE_ICONS"))
      issues.push({
        path: ["unicode_emoji"],
        code: GUILD_FEATURE_REQUIRED,
        message: "Role icons need the ROLE_ICONS feature.",
      });
    else if (!UNICODE_EMOJI.test(body.unicode_emoji))
      issues.push({ path: ["unicode_emoji"], code: EMOJI_INVALID, message: "Must be a standard emoji." });
    else next.unicode_emoji = body.unicode_emoji;
  }

  if (current.id === access.guildId) {
    const changed: string[][] = (["name", "color", "hoist", "mentionable", "icon", "unicode_emoji"] as const)
      .filter((key) => next[key] !== current[key] || (key === "icon" && icon))
      .map((key) => [key]);
    if (next.secondary_color !== current.secondary_color) changed.push(["colors", "secondary_color"]);
    if (next.tertiary_color !== current.tertiary_color) changed.push(["colors", "tertiary_color"]);
    for (const path of changed)
      issues.push({
        path,
        code: EVERYONE_ROLE_IMMUTABLE,
        message: "Only the permissions of @everyone can be changed.",
      });
  }
  if (issues.length > 0) throw invalidFormBody(issues);
  return { next, icon };
}

/**
 * Create Guild Role (MANAGE_ROLES): defaults from the spec (name "new role", @everyone's permissions, color 0, no
 * hoist, not mentionable); the role goes just above @everyone (position 1) and the others move up one, each with
 * a GUILD_ROLE_UPDATE. Answers the new role.
 */
export async function createGuildRole(access: GuildAccess, body: RoleFieldsBody, reason: string | null) {
  access.authorize("Create Guild Role");
  const guildId = access.guildId;
  const everyone = access.role(guildId);
  if (!everyone) throw Errors.unknownRole();
  const id = newSnowflake();
  const blank = roleRowWithDefaults({
    id,
    guild_id: guildId,
    name: DEFAULT_ROLE_NAME,
    permissions: everyone.permissions,
    position: 1n,
  });
  const { next: role, icon } = applyRoleFields(access, blank, body, true);
  assertCanGrant(access, 0n, role.permissions);
  return await transaction(async () => {
    if ((await countGuildRoles(guildId)) >= ROLES_MAX + 1) throw maxRoles(); // @everyone does not count toward the cap
    if (icon) role.icon = await saveImage("role-icons", id, icon);
    const shifted = await listRolesAboveEveryone(guildId, guildId);
    await shiftRolesAboveEveryone(guildId, guildId);
    await insertRole({ ...role, guild_id: guildId, position: 1n, managed: 0n, flags: 0n, tags: null });
    const created = serializeRole((await findRole(guildId, id)) as RoleRow);
    await emitEvent(guildId, "GUILD_ROLE_CREATE", { guild_id: String(guildId), role: created });
    for (const other of shifted)
      await emitEvent(guildId, "GUILD_ROLE_UPDATE", {
        guild_id: String(guildId),
        role: serializeRole({ ...other, position: other.position + 1n }),
      });
    await auditByCaller(access, {
      actionType: AuditLogEvent.RoleCreate,
      targetId: id,
      reason,
      changes: diffChanges({}, auditView(role)),
    });
    return created;
  });
}

/**
 * Modify Guild Role Positions (MANAGE_ROLES), all or nothing. Every id must be a role of the guild, at most once;
 * @everyone stays at 0. The caller may move only roles below its highest role, and only to positions below it.
 * Listed roles take their positions (ties by id: the lower id ends higher), the others keep their order around them, and
 * positions are renumbered 1..n. Answers every role; one GUILD_ROLE_UPDATE and audit entry per role that moved.
 */
export async function modifyGuildRolePositions(
  access: GuildAccess,
  items: ModifyGuildRolePositionsBody,
  reason: string | null,
) {
  access.authorize("Modify Guild Role Positions");
  const guildId = access.guildId;
  return await transaction(async () => {
    const roles = await listGuildRoles(guildId);
    const byId = new Map(roles.map((role) => [String(role.id), role]));
    const issues: FieldIssue[] = [];
    const seen = new Set<string>();
    items.forEach((item, index) => {
      if (!byId.has(item.id))
        issues.push({
          path: [index, "id"],
          code: ROLE_INVALID,
          message: `Role ${item.id} is not a role of this guild.`,
        });
      else if (seen.has(item.id))
        issues.push({ path: [index, "id"], code: ROLE_INVALID, message: "A role may be listed once." });
      else if (item.id === String(guildId) && item.position != null && item.position !== 0)
        issues.push({ path: [index, "position"], code: ROLE_INVALID, message: "The @everyone role cannot be moved." });
      seen.add(item.id);
    });
    if (issues.length > 0) throw invalidFormBody(issues);

    // The current order renumbered 1..n, the moves, and the caller's reach (a role moved must be below the caller's
    // highest role, and go below it): the shared rule, which the dashboard's bot-mode guard applies as well.
    const context = permissionContextOf(access.guild, roles);
    if (!canMoveRoles(context, access.permissionMember, items).ok) throw Errors.missingPermissions();
    const ordered = rankedRoles(context).map((role) => byId.get(role.id)!);
    const moves = roleMoves(context, items).map((move) => ({ role: byId.get(move.id)!, target: move.to }));
    // Equal targets: placed upwards from the higher id, so the lower id ends higher, as the hierarchy ranks ties.
    moves.sort((a, b) => a.target - b.target || (a.role.id > b.role.id ? -1 : 1));
    const moving = new Set(moves.map((move) => move.role.id));
    const list = ordered.filter((role) => !moving.has(role.id));
    let previous = -1;
    for (const move of moves) {
      let index = Math.min(move.target - 1, list.length);
      if (index <= previous) index = previous + 1;
      list.splice(index, 0, move.role);
      previous = index;
    }

    for (const [index, role] of list.entries()) {
      const position = BigInt(index + 1);
      if (role.position === position) continue;
      await setRolePosition(role.id, position);
      const updated = { ...role, position };
      await emitEvent(guildId, "GUILD_ROLE_UPDATE", { guild_id: String(guildId), role: serializeRole(updated) });
      if (moving.has(role.id)) {
        await auditByCaller(access, {
          actionType: AuditLogEvent.RoleUpdate,
          targetId: role.id,
          reason,
          changes: [{ key: "position", old_value: Number(role.position), new_value: index + 1 }],
        });
      }
    }
    return (await listGuildRoles(guildId)).map(serializeRole);
  });
}

/** Modify Guild Role (MANAGE_ROLES + hierarchy): fields not sent stay; managed roles may be edited too. */
export async function modifyGuildRole(
  access: GuildAccess,
  roleId: bigint,
  body: RoleFieldsBody,
  reason: string | null,
) {
  access.authorize("Modify Guild Role");
  const guildId = access.guildId;
  const current = access.role(roleId);
  if (!current) throw Errors.unknownRole();
  access.assertCanManageRole(current);
  const { next, icon } = applyRoleFields(access, current, body, false);
  assertCanGrant(access, current.permissions, next.permissions);
  return await transaction(async () => {
    const before = await findRole(guildId, roleId);
    if (!before) throw Errors.unknownRole();
    if (icon) next.icon = await saveImage("role-icons", roleId, icon);
    await updateRole(next);
    const after = (await findRole(guildId, roleId)) as RoleRow;
    const role = serializeRole(after);
    const changes = diffChanges(auditView(before), auditView(after));
    if (changes.length > 0) {
      await emitEvent(guildId, "GUILD_ROLE_UPDATE", { guild_id: String(guildId), role });
      await auditByCaller(access, {
        actionType: AuditLogEvent.RoleUpdate,
        targetId: roleId,
        reason,
        changes,
      });
    }
    return role;
  });
}

/**
 * Delete Guild Role (MANAGE_ROLES + hierarchy): not @everyone, not a managed role (400 Invalid Role). The role
 * leaves every member (role_count in step, through the (guild_id, role_id) index) and every channel overwrite,
 * all in one transaction with GUILD_ROLE_DELETE, a CHANNEL_UPDATE per channel changed, and the audit entry.
 */
export async function deleteGuildRole(access: GuildAccess, roleId: bigint, reason: string | null): Promise<void> {
  access.authorize("Delete Guild Role");
  const guildId = access.guildId;
  const role = access.role(roleId);
  if (!role) throw Errors.unknownRole();
  if (role.id === guildId || role.managed) throw invalidRole();
  access.assertCanManageRole(role);
  await transaction(async () => {
    await removeRoleFromMembers(guildId, roleId);
    if (!(await deleteRole(guildId, roleId))) throw Errors.unknownRole();

    const channels = await listChannelsWithOverwriteFor(guildId, roleId);
    for (const channel of channels) {
      const overwrites = (JSON.parse(channel.permission_overwrites) as OverwriteJson[]).filter(
        (o) => !(o.type === 0 && o.id === String(roleId)),
      );
      const json = JSON.stringify(overwrites);
      if (json === channel.permission_overwrites) continue;
      await updateChannelOverwrites(channel.id, json);
      await emitEvent(guildId, "CHANNEL_UPDATE", serializeChannel({ ...channel, permission_overwrites: json }));
    }
    await emitEvent(guildId, "GUILD_ROLE_DELETE", { guild_id: String(guildId), role_id: String(roleId) });
    const changes = Object.entries(auditView(role)).map(([key, value]) => ({ key, old_value: value }));
    await auditByCaller(access, {
      actionType: AuditLogEvent.RoleDelete,
      targetId: roleId,
      reason,
      changes,
    });
  });
}
