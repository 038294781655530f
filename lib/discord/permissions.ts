// The permission engine, shared by the guild API and the dashboard: Discord's base and channel permission algorithms,
// timeouts and the role hierarchy, over plain data (no database, no I/O). Bitfields are BigInt throughout:
// flags reach bit 52, and 32-bit math (`1 << 40` is 256) silently corrupts them.
import { PermissionFlagsBits } from "discord-api-types/v10";
import { permissionLabel, splitFlags } from "./permission-names";

export { PermissionFlagsBits as PermissionFlags } from "discord-api-types/v10";
export {
  DANGEROUS_PERMISSIONS,
  PERMISSIONS,
  PERMISSION_GROUPS,
  isDangerousPermission,
  permissionInfo,
  permissionLabel,
  splitFlags,
  type PermissionGroup,
  type PermissionGroupId,
  type PermissionInfo,
  type PermissionKey,
} from "./permission-names";

/** Every permission Discord defines, OR-ed. What the owner and administrators hold. */
export const ALL_PERMISSIONS: bigint = Object.values(PermissionFlagsBits).reduce((bits, flag) => bits | flag, 0n);

const ADMINISTRATOR = PermissionFlagsBits.Administrator;

/** What a timed-out member keeps: they can still read, not speak or act. */
export const TIMEOUT_ALLOWED_PERMISSIONS: bigint =
  PermissionFlagsBits.ViewChannel | PermissionFlagsBits.ReadMessageHistory;

export interface PermissionRole {
  id: string;
  position: number;
  permissions: bigint;
}

/** The guild facts permissions depend on. The @everyone role has the guild's id. Treat `roles` as immutable. */
export interface GuildPermissionContext {
  guildId: string;
  ownerId: string;
  roles: ReadonlyArray<PermissionRole>;
}

export interface PermissionMember {
  userId: string;
  /** The member's roles; @everyone is implied (listing it is harmless), unknown ids are ignored. */
  roleIds: readonly string[];
  /** End of a timeout: ISO 8601 string, ms since the epoch (number or numeric string), or Date. */
  communicationDisabledUntil?: string | number | Date | null;
}

/** A channel permission overwrite: type 0 is a role (the guild's id is @everyone), type 1 a member. */
export interface PermissionOverwrite {
  id: string;
  type: 0 | 1;
  allow: bigint;
  deny: bigint;
}

/** Enough of a role to place it in the hierarchy. */
export type RolePosition = Pick<PermissionRole, "id" | "position"> & Partial<PermissionRole>;

export type HierarchyVerdict = { ok: true } | { ok: false; reason: string };

type Now = number | Date;

// ---------------------------------------------------------------------------------------------------------------
// Bitfields

/** Parses a permission bitfield as Discord sends it (a decimal string). Throws on anything else. */
export function parsePermissions(str: string): bigint {
  if (typeof str !== "string" || !/^[0-9]+$/.test(str)) {
    throw new TypeError(
      `Invalid permission bitfield ${JSON.stringify(str)}: expected a non-negative decimal integer string`,
    );
  }
  return BigInt(str);
}

/** The wire form of a bitfield: a decimal string (never a number, which loses bits above 2^53). */
export function serializePermissions(bits: bigint): string {
  if (bits < 0n) throw new RangeError(`Invalid permission bitfield ${bits}: negative`);
  return bits.toString();
}

/** True when `perms` holds every bit of `flag`. ADMINISTRATOR implies every permission. */
export function hasPermission(perms: bigint, flag: bigint): boolean {
  return (perms & ADMINISTRATOR) === ADMINISTRATOR || (perms & flag) === flag;
}

/** The single flags of `required` that `perms` lacks, in the role editor's order. Empty for administrators. */
export function missingPermissions(perms: bigint, required: bigint): bigint[] {
  if ((perms & ADMINISTRATOR) === ADMINISTRATOR) return [];
  return splitFlags(required & ~perms);
}

/**
 * What a member holding `held` (their base permissions) may hand out of `requested`, e.g. to a bot's role at install:
 * only bits they hold themselves, as for roles they create. ADMINISTRATOR (and so the owner, whose base permissions
 * are every permission) hands out everything. `dropped` is what was asked for and will not be granted.
 */
export function maskGrantablePermissions(requested: bigint, held: bigint): { granted: bigint; dropped: bigint } {
  const grantable = (held & ADMINISTRATOR) === ADMINISTRATOR ? ALL_PERMISSIONS : held;
  const granted = requested & grantable;
  return { granted, dropped: requested & ~granted };
}

/** "needs Ban Members", "needs Manage Server and Kick Members", "needs A, B and C"; null when nothing is missing. */
export function describeMissing(perms: bigint, required: bigint): string | null {
  const labels = missingPermissions(perms, required).map(permissionLabel);
  if (labels.length === 0) return null;
  if (labels.length === 1) return `needs ${labels[0]}`;
  return `needs ${labels.slice(0, -1).join(", ")} and ${labels[labels.length - 1]}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Computation

// One id → role map per roles array, built on first use, so a request that asks several questions indexes once.
const roleIndexes = new WeakMap<ReadonlyArray<PermissionRole>, ReadonlyMap<string, PermissionRole>>();

function roleIndex(ctx: GuildPermissionContext): ReadonlyMap<string, PermissionRole> {
  let index = roleIndexes.get(ctx.roles);
  if (!index) {
    index = new Map(ctx.roles.map((role) => [role.id, role]));
    roleIndexes.set(ctx.roles, index);
  }
  return index;
}

function everyoneRole(ctx: GuildPermissionContext): PermissionRole {
  // A guild always has @everyone; a context without it still has a floor to compare against.
  return roleIndex(ctx).get(ctx.guildId) ?? { id: ctx.guildId, position: 0, permissions: 0n };
}

function toMillis(value: string | number | Date): number {
  if (value instanceof Date) return value.getTime();
  if (typeof value === "number") return value;
  return /^[0-9]+$/.test(value) ? Number(value) : Date.parse(value);
}

/** True while the member's timeout lasts. An unparseable end is treated as no timeout. */
export function isTimedOut(member: PermissionMember, now: Now = Date.now()): boolean {
  const until = member.communicationDisabledUntil;
  if (until === null || until === undefined) return false;
  const end = toMillis(until);
  return Number.isFinite(end) && end > toMillis(now);
}

// Base permissions before the timeout: owner → all; @everyone OR member roles; ADMINISTRATOR → all.
function guildPermissions(ctx: GuildPermissionContext, member: PermissionMember): bigint {
  if (member.userId === ctx.ownerId) return ALL_PERMISSIONS;
  const index = roleIndex(ctx);
  let perms = everyoneRole(ctx).permissions;
  for (const roleId of member.roleIds) perms |= index.get(roleId)?.permissions ?? 0n;
  return (perms & ADMINISTRATOR) === ADMINISTRATOR ? ALL_PERMISSIONS : perms;
}

// Only called for members who are neither owner nor administrator: Discord cannot time those out,
// so a timeout on them (stale data) changes nothing.
function applyTimeout(perms: bigint, member: PermissionMember, now: Now): bigint {
  return isTimedOut(member, now) ? perms & TIMEOUT_ALLOWED_PERMISSIONS : perms;
}

/** The member's guild-wide permissions (Discord's compute_base_permissions), timeout applied. */
export function computeBasePermissions(
  ctx: GuildPermissionContext,
  member: PermissionMember,
  now: Now = Date.now(),
): bigint {
  const base = guildPermissions(ctx, member);
  return base === ALL_PERMISSIONS ? base : applyTimeout(base, member, now);
}

/**
 * The member's permissions in a channel (Discord's compute_overwrites): @everyone's overwrite, then the member's
 * role overwrites together (all denies, then all allows, so an allow on any role wins), then the member's own
 * overwrite. Administrators bypass overwrites. The timeout applies last, so no overwrite can lift it.
 * Implicit permissions (no VIEW_CHANNEL hides everything, and the like) are the caller's concern: they depend on the channel type.
 */
export function computeChannelPermissions(
  ctx: GuildPermissionContext,
  member: PermissionMember,
  overwrites: readonly PermissionOverwrite[],
  now: Now = Date.now(),
): bigint {
  const base = guildPermissions(ctx, member);
  if (base === ALL_PERMISSIONS) return ALL_PERMISSIONS;

  let perms = base;
  let everyone: PermissionOverwrite | undefined;
  let own: PermissionOverwrite | undefined;
  let roleDeny = 0n;
  let roleAllow = 0n;
  const memberRoles = new Set(member.roleIds);
  for (const overwrite of overwrites) {
    if (overwrite.type === 1) {
      if (overwrite.id === member.userId) own = overwrite;
    } else if (overwrite.id === ctx.guildId) {
      everyone = overwrite;
    } else if (memberRoles.has(overwrite.id)) {
      roleDeny |= overwrite.deny;
      roleAllow |= overwrite.allow;
    }
  }
  if (everyone) perms = (perms & ~everyone.deny) | everyone.allow;
  perms = (perms & ~roleDeny) | roleAllow;
  if (own) perms = (perms & ~own.deny) | own.allow;
  // ADMINISTRATOR is guild-wide only: an overwrite granting it would otherwise make hasPermission say yes to everything.
  return applyTimeout(perms & ~ADMINISTRATOR, member, now);
}

/** Base permissions, or channel permissions when the channel's overwrites are given. */
export function permissionsFor(
  ctx: GuildPermissionContext,
  member: PermissionMember,
  overwrites?: readonly PermissionOverwrite[] | null,
  now: Now = Date.now(),
): bigint {
  return overwrites
    ? computeChannelPermissions(ctx, member, overwrites, now)
    : computeBasePermissions(ctx, member, now);
}

// ---------------------------------------------------------------------------------------------------------------
// Role hierarchy

/**
 * Positive when `a` is above `b`, negative when below, 0 for the same role. Equal positions are broken by id:
 * the older role (lower snowflake) ranks higher, as in Discord's client and discord.js Role.comparePositions.
 */
export function compareRolePositions(a: RolePosition, b: RolePosition): number {
  if (a.position !== b.position) return a.position > b.position ? 1 : -1;
  const idA = BigInt(a.id);
  const idB = BigInt(b.id);
  return idA === idB ? 0 : idA < idB ? 1 : -1;
}

/** The member's highest role; @everyone when they have none above it. Unknown role ids are ignored. */
export function highestRole(ctx: GuildPermissionContext, memberRoleIds: readonly string[]): PermissionRole {
  const index = roleIndex(ctx);
  let highest = everyoneRole(ctx);
  for (const roleId of memberRoleIds) {
    const role = index.get(roleId);
    if (role && compareRolePositions(role, highest) > 0) highest = role;
  }
  return highest;
}

/**
 * Whether `actor` may edit, delete, assign or remove `role`: only roles strictly below their highest role,
 * whatever their permissions (ADMINISTRATOR included); the owner may manage any role.
 * Checks the hierarchy only: the caller checks MANAGE_ROLES.
 */
export function canManageRole(
  ctx: GuildPermissionContext,
  actor: PermissionMember,
  role: RolePosition,
): HierarchyVerdict {
  if (actor.userId === ctx.ownerId) return { ok: true };
  const order = compareRolePositions(role, highestRole(ctx, actor.roleIds));
  if (order < 0) return { ok: true };
  return { ok: false, reason: order === 0 ? "role is your highest role" : "role is above yours" };
}

/**
 * Whether `actor` may kick, ban, time out, rename or change the roles of `target`: only members whose highest
 * role is strictly below the actor's; the owner may act on anyone; nobody may act on the owner.
 * Checks the hierarchy only: the caller checks the operation's permission.
 */
export function canActOnMember(
  ctx: GuildPermissionContext,
  actor: PermissionMember,
  target: PermissionMember,
): HierarchyVerdict {
  if (target.userId === ctx.ownerId) return { ok: false, reason: "nobody can act on the server owner" };
  if (actor.userId === ctx.ownerId) return { ok: true };
  if (compareRolePositions(highestRole(ctx, target.roleIds), highestRole(ctx, actor.roleIds)) < 0) return { ok: true };
  return { ok: false, reason: "member's highest role is above or equal to yours" };
}

/** One entry of Modify Guild Role Positions: a role and the position asked for (null or absent: where it is). */
export interface RolePositionRequest {
  id: string;
  position?: number | null;
}

/** A role that a Modify Guild Role Positions request moves: from its rank now to the rank asked for. */
export interface RoleMove {
  id: string;
  /** Its rank now. */
  from: number;
  /** The rank asked for (at least 1). */
  to: number;
}

/**
 * The guild's roles but @everyone, in hierarchy order, lowest first: a role's rank is its index + 1, whatever gaps or
 * ties the stored positions have (ties by id, as compareRolePositions ranks them).
 */
export function rankedRoles(ctx: GuildPermissionContext): PermissionRole[] {
  return ctx.roles.filter((role) => role.id !== ctx.guildId).sort(compareRolePositions);
}

/**
 * The moves a Modify Guild Role Positions request makes: every listed role but @everyone whose position is given and
 * differs from its rank now moves to that rank (at least 1). A role listed where it already ranks does not move. Ids
 * that are not roles of the guild are left out: the API refuses those as invalid before judging anything.
 */
export function roleMoves(ctx: GuildPermissionContext, requests: readonly RolePositionRequest[]): RoleMove[] {
  const rank = new Map(rankedRoles(ctx).map((role, index) => [role.id, index + 1]));
  const moves: RoleMove[] = [];
  for (const request of requests) {
    const from = rank.get(request.id);
    if (from === undefined || request.position == null || request.position === from) continue;
    moves.push({ id: request.id, from, to: Math.max(1, request.position) });
  }
  return moves;
}

/**
 * Whether `actor` may reorder roles so: each role moved must rank below their highest role now, and must go to a rank
 * below it (a move to it or above would place the role at or above them). The owner may make any move; a member
 * without roles may make none. Checks the hierarchy only: the caller checks MANAGE_ROLES.
 */
export function canMoveRoles(
  ctx: GuildPermissionContext,
  actor: PermissionMember,
  requests: readonly RolePositionRequest[],
): HierarchyVerdict {
  if (actor.userId === ctx.ownerId) return { ok: true };
  const ranked = rankedRoles(ctx);
  const own = new Set(actor.roleIds);
  const top = ranked.reduce((highest, role, index) => (own.has(role.id) ? index + 1 : highest), 0);
  for (const move of roleMoves(ctx, requests)) {
    if (move.from >= top) return { ok: false, reason: "role is not below your highest role" };
    if (move.to >= top) return { ok: false, reason: "can't move a role to or above your highest role" };
  }
  return { ok: true };
}

// ---------------------------------------------------------------------------------------------------------------
// Explanation: the same computation, step by step, so a page can say which role or overwrite grants a permission and
// which denies it. The verdict is always the engine's own (computeBasePermissions / computeChannelPermissions); the
// steps attribute it, in the order the engine applies them.

/** Where a step of the computation comes from. */
export type PermissionSource =
  | { kind: "owner" }
  /** A role's guild-wide permissions (@everyone has the guild's id). */
  | { kind: "role"; roleId: string }
  /** An overwrite of the channel: @everyone's, a role's, or the member's own. */
  | { kind: "overwrite"; target: "everyone" | "role" | "member"; id: string }
  | { kind: "timeout" };

export interface PermissionStep {
  source: PermissionSource;
  /** Bits this step turns on. */
  allow: bigint;
  /** Bits this step turns off. */
  deny: bigint;
  /** Administrators and the owner skip the overwrite and timeout steps: they are listed, but change nothing. */
  bypassed: boolean;
}

export interface PermissionExplanation {
  /** The engine's result. */
  permissions: bigint;
  isOwner: boolean;
  /** The member holds ADMINISTRATOR through a role (every permission, overwrites bypassed). */
  isAdministrator: boolean;
  steps: PermissionStep[];
}

export interface FlagExplanation {
  granted: boolean;
  /** Steps that turn the flag on, in engine order. */
  grants: PermissionStep[];
  /** Steps that turn it off, in engine order. */
  denies: PermissionStep[];
  /** The step whose effect stands (the last one applied that touches the flag); null when none touches it. */
  decidedBy: PermissionStep | null;
}

/**
 * The member's permissions (in a channel when its overwrites are given) with the steps that produced them: the
 * roles' guild-wide permissions (@everyone first, then the member's roles, highest first), then @everyone's
 * overwrite, the member's role overwrites (denies, then allows), the member's own overwrite, and a timeout.
 */
export function explainPermissions(
  ctx: GuildPermissionContext,
  member: PermissionMember,
  overwrites?: readonly PermissionOverwrite[] | null,
  now: Now = Date.now(),
): PermissionExplanation {
  const permissions = permissionsFor(ctx, member, overwrites, now);
  const isOwner = member.userId === ctx.ownerId;
  const index = roleIndex(ctx);
  const roles = [
    everyoneRole(ctx),
    ...[...new Set(member.roleIds)]
      .filter((id) => id !== ctx.guildId)
      .map((id) => index.get(id))
      .filter((role): role is PermissionRole => role !== undefined)
      .sort((a, b) => compareRolePositions(b, a)),
  ];
  const isAdministrator = !isOwner && roles.some((role) => (role.permissions & ADMINISTRATOR) === ADMINISTRATOR);
  const bypassed = isOwner || isAdministrator;
  const steps: PermissionStep[] = [];
  if (isOwner) steps.push({ source: { kind: "owner" }, allow: ALL_PERMISSIONS, deny: 0n, bypassed: false });
  for (const role of roles) {
    const allow = (role.permissions & ADMINISTRATOR) === ADMINISTRATOR ? ALL_PERMISSIONS : role.permissions;
    steps.push({ source: { kind: "role", roleId: role.id }, allow, deny: 0n, bypassed: isOwner });
  }
  if (overwrites) {
    const memberRoles = new Set(member.roleIds);
    const everyone = overwrites.find((o) => o.type === 0 && o.id === ctx.guildId);
    const roleOverwrites = overwrites.filter((o) => o.type === 0 && o.id !== ctx.guildId && memberRoles.has(o.id));
    const own = overwrites.find((o) => o.type === 1 && o.id === member.userId);
    const overwriteStep = (
      o: PermissionOverwrite,
      target: "everyone" | "role" | "member",
      allow: bigint,
      deny: bigint,
    ) => steps.push({ source: { kind: "overwrite", target, id: o.id }, allow, deny, bypassed });
    if (everyone) overwriteStep(everyone, "everyone", everyone.allow, everyone.deny);
    // Role overwrites apply together: every deny first, then every allow (an allow on any role wins).
    for (const o of roleOverwrites) if (o.deny !== 0n) overwriteStep(o, "role", 0n, o.deny);
    for (const o of roleOverwrites) if (o.allow !== 0n) overwriteStep(o, "role", o.allow, 0n);
    if (own) overwriteStep(own, "member", own.allow, own.deny);
  }
  if (!bypassed && isTimedOut(member, now))
    steps.push({
      source: { kind: "timeout" },
      allow: 0n,
      deny: ALL_PERMISSIONS & ~TIMEOUT_ALLOWED_PERMISSIONS,
      bypassed,
    });
  return { permissions, isOwner, isAdministrator, steps };
}

/** One flag of an explanation: granted or not (the engine's verdict), what grants it, what denies it, what decided. */
export function explainFlag(explanation: PermissionExplanation, flag: bigint): FlagExplanation {
  const live = explanation.steps.filter((step) => !step.bypassed);
  const grants = live.filter((step) => (step.allow & flag) === flag);
  const denies = live.filter((step) => (step.deny & flag) !== 0n);
  let decidedBy: PermissionStep | null = null;
  for (const step of live) if ((step.allow & flag) === flag || (step.deny & flag) !== 0n) decidedBy = step;
  return { granted: hasPermission(explanation.permissions, flag), grants, denies, decidedBy };
}
