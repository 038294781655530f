// Access to a guild for the current caller: the guild, its roles, the caller's member and permissions,
// and the checks every operation makes (permission flags, role hierarchy), all from the shared engine.
import { PermissionFlagsBits } from "discord-api-types/v10";
import {
  canActOnMember,
  canManageRole,
  computeBasePermissions,
  computeChannelPermissions,
  hasPermission,
  type GuildPermissionContext,
  type PermissionMember,
  type PermissionOverwrite,
} from "@/lib/discord/permissions";
import { judgePermissions, type OperationName } from "@/lib/discord/policies";
import { isSnowflake } from "@/lib/discord/snowflake";
import { ApiError, Errors, invalidFormBody } from "./errors";
import type { RouteContext } from "./http";
import type { Identity } from "./auth";
import { THREAD_TYPES } from "./serializers/channels";
import { guildsAndRolesGeneration } from "./store/cache-generations";
import { findChannelById, findChannelOverwrites, type ChannelRow } from "./store/channels";
import { findGuild, type GuildRow } from "./store/guilds";
import { memberRoleIds } from "./store/member-roles";
import { findMember, type MemberRow } from "./store/members";
import { readCache } from "./store/read-cache";
import { chain, type MaybePromise } from "./maybe-promise";
import { listGuildRoles, type RoleRow } from "./store/roles";
import { apiPolicyOf } from "./strict";

/** A path parameter that must be a snowflake; Discord answers 50035 naming the parameter otherwise. */
export function snowflakeParam(ctx: RouteContext, name: string, wireName = toSnakeCase(name)): bigint {
  const value = ctx.params[name];
  if (!isSnowflake(value)) {
    throw invalidFormBody([
      { path: [wireName], code: "NUMBER_TYPE_COERCE", message: `Value "${value}" is not snowflake.` },
    ]);
  }
  return BigInt(value);
}

const toSnakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export interface OverwriteJson {
  id: string;
  type: 0 | 1;
  allow: string;
  deny: string;
}

export const parseOverwrites = (json: string): PermissionOverwrite[] =>
  (JSON.parse(json) as OverwriteJson[]).map((o) => ({
    id: o.id,
    type: o.type,
    allow: BigInt(o.allow),
    deny: BigInt(o.deny),
  }));

/** A guild and its roles as the shared permission engine takes them. */
export function permissionContextOf(
  guild: Pick<GuildRow, "id" | "owner_id">,
  roles: readonly RoleRow[],
): GuildPermissionContext {
  return {
    guildId: String(guild.id),
    ownerId: String(guild.owner_id),
    roles: roles.map((role) => ({
      id: String(role.id),
      position: Number(role.position),
      permissions: role.permissions,
    })),
  };
}

/** A guild as every permission check takes it: its row, its roles, and the permission engine's view of them. */
export interface GuildSnapshot {
  guild: GuildRow;
  roles: readonly RoleRow[];
  context: GuildPermissionContext;
  rolesById: ReadonlyMap<string, RoleRow>;
}

/**
 * The guild's snapshot, built once per guild until its row or its roles change (read-cache.ts: the guilds-and-roles
 * generation), so requests that write other tables (a bulk job's role assignments) do not rebuild it each time.
 */
const guildSnapshot = readCache(
  async (guildId: bigint): Promise<GuildSnapshot | undefined> => {
    const guild = await findGuild(guildId);
    if (!guild) return undefined;
    const roles = await listGuildRoles(guildId);
    return {
      guild,
      roles,
      context: permissionContextOf(guild, roles),
      rolesById: new Map(roles.map((role) => [String(role.id), role])),
    };
  },
  { maxEntries: 1_000, generation: guildsAndRolesGeneration },
);

/** The guild's snapshot (its row, roles and permission context), for judging a member who is not the caller. */
export const guildSnapshotOf = (guildId: bigint): MaybePromise<GuildSnapshot | undefined> => guildSnapshot(guildId);

export class GuildAccess {
  readonly guild: GuildRow;
  readonly roles: readonly RoleRow[];
  readonly context: GuildPermissionContext;
  readonly rolesById: ReadonlyMap<string, RoleRow>;
  readonly permissions: bigint;
  readonly isOwner: boolean;

  constructor(
    snapshot: GuildSnapshot,
    readonly caller: Identity,
    readonly member: MemberRow,
    readonly memberRoleIds: readonly bigint[],
    now = Date.now(),
  ) {
    this.guild = snapshot.guild;
    this.roles = snapshot.roles;
    this.context = snapshot.context;
    this.rolesById = snapshot.rolesById;
    this.isOwner = this.guild.owner_id === caller.userId;
    this.permissions = computeBasePermissions(this.context, this.permissionMember, now);
  }

  get guildId(): bigint {
    return this.guild.id;
  }

  get permissionMember(): PermissionMember {
    return toPermissionMember(this.member, this.memberRoleIds);
  }

  has(flag: bigint): boolean {
    return hasPermission(this.permissions, flag);
  }

  /**
   * Throws 403 Missing Permissions unless the caller holds what the policy table asks of `operation` (and of each
   * body field in `fields`). Pending members hold nothing.
   */
  authorize(operation: OperationName, fields: readonly string[] = []): void {
    const verdict = judgePermissions(
      operation,
      { permissions: this.permissions, isOwner: this.isOwner, pending: Boolean(this.member.pending), fields },
      apiPolicyOf(operation) ?? undefined,
    );
    if (!verdict.ok) throw Errors.missingPermissions();
  }

  /** Throws 403 Missing Permissions unless the caller holds every flag. Pending members hold nothing. */
  require(...flags: bigint[]): void {
    if (this.member.pending && !this.isOwner) throw Errors.missingPermissions();
    for (const flag of flags) if (!this.has(flag)) throw Errors.missingPermissions();
  }

  /** Throws 403 Missing Permissions unless the caller holds at least one of the flags. */
  requireAny(...flags: bigint[]): void {
    if (this.member.pending && !this.isOwner) throw Errors.missingPermissions();
    if (!flags.some((flag) => this.has(flag))) throw Errors.missingPermissions();
  }

  channelPermissions(overwritesJson: string, now = Date.now()): bigint {
    return computeChannelPermissions(this.context, this.permissionMember, parseOverwrites(overwritesJson), now);
  }

  /** Role hierarchy: 403 unless the caller may act (kick, ban, timeout, nick, roles) on `target`. */
  assertCanActOn(target: PermissionMember): void {
    const verdict = canActOnMember(this.context, this.permissionMember, target);
    if (!verdict.ok) throw Errors.missingPermissions();
  }

  /** Role hierarchy: 403 unless `role` is strictly below the caller's highest role (owner exempt). */
  assertCanManageRole(role: RoleRow): void {
    const verdict = canManageRole(this.context, this.permissionMember, {
      id: String(role.id),
      position: Number(role.position),
      permissions: role.permissions,
    });
    if (!verdict.ok) throw Errors.missingPermissions();
  }

  role(roleId: bigint | string): RoleRow | undefined {
    return this.rolesById.get(String(roleId));
  }
}

export function toPermissionMember(member: MemberRow, roleIds: readonly bigint[]): PermissionMember {
  return {
    userId: String(member.user_id),
    roleIds: roleIds.map(String),
    communicationDisabledUntil:
      member.communication_disabled_until === null ? null : Number(member.communication_disabled_until),
  };
}

/**
 * The guild named by the route's `:guildId` as seen by the caller: 404 Unknown Guild when it does not exist,
 * 403 Missing Access when the caller is not a member.
 */
export function guildAccess(ctx: RouteContext, param = "guildId"): MaybePromise<GuildAccess> {
  return guildAccessFor(ctx.caller, snowflakeParam(ctx, param, "guild_id"));
}

/**
 * The route's guild access, already judged for `operation`. Routes with a body call it before parsing the body, so a
 * caller who may not make the change learns nothing of the body's rules (no 50035 validation details).
 */
export async function authorizedGuildAccess(ctx: RouteContext, operation: OperationName): Promise<GuildAccess> {
  const access = await guildAccess(ctx);
  access.authorize(operation);
  return access;
}

/** The caller's access to the guild; at once, without a promise, when the rows it reads are cached. */
export function guildAccessFor(caller: Identity, guildId: bigint): MaybePromise<GuildAccess> {
  return chain(guildSnapshot(guildId), (snapshot) => {
    if (!snapshot) throw Errors.unknownGuild();
    return chain(findMember(guildId, caller.userId), (member) => {
      if (!member) throw Errors.missingAccess();
      return chain(
        memberRoleIds(guildId, caller.userId),
        (roleIds) => new GuildAccess(snapshot, caller, member, roleIds),
      );
    });
  });
}

/** A guild channel (or thread) as the caller sees it: the guild access and the caller's permissions in the channel. */
export interface ChannelAccess {
  access: GuildAccess;
  channel: ChannelRow;
  /** Permissions in the channel; a thread is judged by its parent's overwrites. */
  permissions: bigint;
}

/**
 * The channel named by `channelId` for the caller: 404 Unknown Channel when it does not exist, 403 Missing Access when
 * the caller is not a member of its guild or cannot view it (Discord does not tell such callers the channel exists).
 */
export async function channelAccessFor(caller: Identity, channelId: bigint): Promise<ChannelAccess> {
  const channel = await findChannelById(channelId);
  if (!channel) throw Errors.unknownChannel();
  const access = await guildAccessFor(caller, channel.guild_id);
  const judgedBy =
    THREAD_TYPES.includes(Number(channel.type)) && channel.parent_id !== null
      ? ((await findChannelOverwrites(channel.parent_id)) ?? channel.permission_overwrites)
      : channel.permission_overwrites;
  const permissions = access.channelPermissions(judgedBy);
  if (!hasPermission(permissions, PermissionFlagsBits.ViewChannel)) throw Errors.missingAccess();
  return { access, channel, permissions };
}

/**
 * 403 Missing Permissions unless the caller holds, in the channel, what the policy table asks of `operation` (and of
 * each body field in `fields`). Pending members hold nothing.
 */
export function authorizeInChannel(
  { access, permissions }: ChannelAccess,
  operation: OperationName,
  fields: readonly string[] = [],
): void {
  const verdict = judgePermissions(operation, {
    permissions,
    isOwner: access.isOwner,
    pending: Boolean(access.member.pending),
    fields,
  });
  if (!verdict.ok) throw Errors.missingPermissions();
}

/** 403 Missing Permissions unless the caller holds every flag in the channel. Pending members hold nothing. */
export function requireInChannel({ access, permissions }: ChannelAccess, ...flags: bigint[]): void {
  if (access.member.pending && !access.isOwner) throw Errors.missingPermissions();
  for (const flag of flags) if (!hasPermission(permissions, flag)) throw Errors.missingPermissions();
}

export const Permission = PermissionFlagsBits;
export { ApiError };
