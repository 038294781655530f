// The moderator's own standing in a guild, for bot mode: Discord judges only the bot, so the dashboard applies the
// shared permission engine to the moderator's member before acting for them, and holds hierarchy questions to the
// bot's rank too (data/bot-standing.ts), so a refusal names its reason before the API is called.
import {
  ChannelType,
  OverwriteType,
  PermissionFlagsBits,
  type APIGuild,
  type APIGuildChannel,
  type APIGuildMember,
  type APIInvite,
  type APIRole,
} from "discord-api-types/v10";
import type { GuildApiClient } from "@/lib/api-client";
import {
  ALL_PERMISSIONS,
  canActOnMember,
  canManageRole,
  canMoveRoles,
  computeBasePermissions,
  computeChannelPermissions,
  describeMissing,
  hasPermission,
  permissionLabel,
  splitFlags,
  type GuildPermissionContext,
  type PermissionMember,
  type PermissionOverwrite,
  type RolePositionRequest,
} from "@/lib/discord/permissions";
import { judgeHierarchy, judgePermissions, refusalText, type OperationName } from "@/lib/discord/policies";
import { overwriteGrantableBits } from "@/lib/discord/channel-permissions";
import {
  botHeldPermissions,
  botVerdictOn,
  inBotWords,
  readBotMember,
  withBotVerdict,
} from "@/lib/dashboard/data/bot-standing";

const member = (
  m: Pick<APIGuildMember, "roles" | "communication_disabled_until">,
  userId: string,
): PermissionMember => ({
  userId,
  roleIds: m.roles,
  communicationDisabledUntil: m.communication_disabled_until ?? null,
});

/** The API's answer to a member still in membership screening: they hold no permissions (the owner excepted). */
const SCREENING = "members in screening hold no permissions";

/** Voice channels a member can be moved to (Modify Guild Member's channel_id). */
const VOICE_CHANNEL_TYPES: readonly number[] = [ChannelType.GuildVoice, ChannelType.GuildStageVoice];

const overwritesOf = (channel: APIGuildChannel): PermissionOverwrite[] =>
  (channel.permission_overwrites ?? []).map((o) => ({
    id: o.id,
    type: o.type === OverwriteType.Member ? (1 as const) : (0 as const),
    allow: BigInt(o.allow),
    deny: BigInt(o.deny),
  }));

export class ModeratorCheck {
  private constructor(
    private readonly api: GuildApiClient,
    readonly guildId: string,
    readonly guild: APIGuild,
    readonly context: GuildPermissionContext,
    readonly roles: readonly APIRole[],
    readonly self: PermissionMember,
    readonly permissions: bigint,
    /** Still in membership screening: the API then grants them nothing that needs a permission (the owner excepted). */
    readonly pending: boolean,
    /** In bot mode, the bot, whose rank Discord judges (bot-standing.ts); null in user mode. */
    readonly bot: PermissionMember | null,
  ) {}

  /** `userId`'s standing in the guild, read with `api` (the bot's client in bot mode, where the bot's is read too). */
  static async load(
    api: GuildApiClient,
    guildId: string,
    userId: string,
    mode: "user" | "bot",
  ): Promise<ModeratorCheck> {
    const [guild, me, bot] = await Promise.all([
      api.guilds.get(guildId),
      api.members.get(guildId, userId),
      mode === "bot" ? readBotMember(api, guildId) : null,
    ]);
    const context: GuildPermissionContext = {
      guildId: guild.id,
      ownerId: guild.owner_id,
      roles: guild.roles.map((r) => ({ id: r.id, position: r.position, permissions: BigInt(r.permissions) })),
    };
    const self = member(me, userId);
    const permissions = computeBasePermissions(context, self);
    return new ModeratorCheck(api, guildId, guild, context, guild.roles, self, permissions, Boolean(me.pending), bot);
  }

  get isOwner(): boolean {
    return this.self.userId === this.context.ownerId;
  }

  /** A member in screening holds nothing that needs a permission, as the API's checks say (the owner excepted). */
  private get screened(): boolean {
    return this.pending && !this.isOwner;
  }

  has(flag: bigint): boolean {
    return !this.screened && hasPermission(this.permissions, flag);
  }

  /**
   * Why the moderator may not perform `operation` (setting `fields` of its body), from the one policy table, or null.
   * Discord judges only the bot, so the dashboard holds the moderator to the rule the built-in API would apply.
   */
  may(operation: OperationName, fields: readonly string[] = [], extra: { isInviter?: boolean } = {}): string | null {
    return refusalText(
      judgePermissions(operation, {
        permissions: this.permissions,
        isOwner: this.isOwner,
        pending: this.pending,
        fields,
        ...extra,
      }),
    );
  }

  /**
   * `may`, then the operation's hierarchy rule against the target member (when they are in the guild). Acting on
   * yourself is not acting on a member (Modify Guild Member's rule); kicks and bans use `mayRemove`. In bot mode the
   * bot makes the call, so the operation's rule is applied to the bot as well, also when the target is yourself.
   */
  async mayActOn(operation: OperationName, userId: string, fields: readonly string[] = []): Promise<string | null> {
    const refusal = this.may(operation, fields);
    if (refusal) return refusal;
    const target = userId === this.self.userId ? this.self : await this.targetPermissionMember(userId);
    if (!target) return null; // not a member: the API answers for itself (bans of non-members are allowed)
    return (
      refusalText(judgeHierarchy(operation, { context: this.context, self: this.self, targetMember: target })) ??
      this.botRefusal(operation, target)
    );
  }

  /**
   * Why the bot, making the call in bot mode, may not perform `operation` on `target` under the operation's hierarchy
   * rule (judgeHierarchy: the bot acting on itself is not acting on a member), in the bot's words; null in user mode.
   */
  botRefusal(operation: OperationName, target: PermissionMember): string | null {
    if (!this.bot) return null;
    const verdict = judgeHierarchy(operation, { context: this.context, self: this.bot, targetMember: target });
    return verdict.ok ? null : inBotWords(verdict.message);
  }

  /** The moderator's verdict on acting on a member (none on themselves), then the bot's (bot mode). */
  private memberVerdict(target: PermissionMember) {
    const own =
      target.userId === this.self.userId ? { ok: true as const } : canActOnMember(this.context, this.self, target);
    return withBotVerdict(own, () => botVerdictOn(this.context, this.bot, target));
  }

  /** The target as the permission engine sees them, or null when they are not in the guild. */
  private async targetPermissionMember(userId: string): Promise<PermissionMember | null> {
    const target = await this.targetMember(userId);
    return target && member(target, userId);
  }

  /**
   * Kick (Remove Guild Member) or ban (Create Guild Ban): `may`, then nobody removes themselves or the owner, and a
   * member must rank below the moderator. Non-members have no rank (a ban by id); the API answers for them.
   */
  async mayRemove(operation: "Remove Guild Member" | "Create Guild Ban", userId: string): Promise<string | null> {
    const refusal = this.may(operation);
    if (refusal) return refusal;
    if (userId === this.context.ownerId) return "nobody can act on the server owner";
    if (userId === this.self.userId) return "you can't do this to yourself";
    const target = await this.targetMember(userId);
    if (!target) return null;
    const verdict = this.memberVerdict(member(target, userId));
    return verdict.ok ? null : verdict.reason;
  }

  /**
   * Setting or ending a timeout (Modify Guild Member's communication_disabled_until): Timeout Members, never on
   * yourself, the owner or an administrator, and only on members below the moderator.
   */
  async mayTimeOut(userId: string): Promise<string | null> {
    const refusal = this.may("Modify Guild Member", ["communication_disabled_until"]);
    if (refusal) return refusal;
    if (userId === this.self.userId) return "nobody can time themselves out";
    const target = await this.targetMember(userId);
    if (!target) return null; // not a member: the API answers 404
    const targetMember = member(target, userId);
    if (userId === this.context.ownerId) return "nobody can act on the server owner";
    if (hasPermission(computeBasePermissions(this.context, targetMember), PermissionFlagsBits.Administrator))
      return "administrators can't be timed out";
    return (
      refusalText(judgeHierarchy("Modify Guild Member", { context: this.context, self: this.self, targetMember })) ??
      this.botRefusal("Modify Guild Member", targetMember)
    );
  }

  /** "needs Ban Members" when a flag is missing, else null. */
  missing(...flags: bigint[]): string | null {
    const required = flags.reduce((a, b) => a | b, 0n);
    if (this.screened && required !== 0n) return SCREENING;
    return describeMissing(this.permissions, required);
  }

  /** "needs A or B" unless the moderator holds at least one of the flags, else null. */
  missingAny(...flags: bigint[]): string | null {
    if (flags.some((flag) => this.has(flag))) return null;
    if (this.screened) return SCREENING;
    return `needs ${flags.map((flag) => splitFlags(flag).map(permissionLabel).join(" and ")).join(" or ")}`;
  }

  /** The target member, or null when they are not in the guild. */
  targetMember(userId: string): Promise<APIGuildMember | null> {
    return this.api.members.get(this.guildId, userId).catch(() => null);
  }

  /** Why the moderator may not act on this member (kick, ban, time out, rename, change roles), or null. */
  async memberBlock(userId: string): Promise<string | null> {
    const target = userId === this.self.userId ? this.self : await this.targetPermissionMember(userId);
    if (!target) return null; // not a member: the API answers for itself (bans of non-members are allowed)
    const verdict = this.memberVerdict(target);
    return verdict.ok ? null : verdict.reason;
  }

  /** Why the moderator may not edit, delete, assign or remove this role, or null. */
  roleBlock(roleId: string): string | null {
    const role = this.context.roles.find((r) => r.id === roleId);
    if (!role) return null;
    const verdict = withBotVerdict(canManageRole(this.context, this.self, role), () =>
      this.bot ? canManageRole(this.context, this.bot, role) : null,
    );
    return verdict.ok ? null : `${this.roles.find((r) => r.id === roleId)?.name ?? "role"}: ${verdict.reason}`;
  }

  /**
   * Why the moderator may not give a member this role or take it from them, or null: managed roles (a bot's, an
   * integration's) are never assigned by hand, not even by the owner; others must be below the moderator.
   */
  assignRoleBlock(roleId: string): string | null {
    const role = this.roles.find((r) => r.id === roleId);
    if (!role) return null; // not a role of the guild: the API answers for itself
    if (role.managed) return `${role.name}: managed by an integration, nobody assigns it by hand`;
    return this.roleBlock(roleId);
  }

  /**
   * Why the moderator may not reorder roles so (Modify Guild Role Positions), or null: the API's own rule
   * (canMoveRoles), judged on where each role goes as well as where it is.
   */
  moveBlock(positions: readonly RolePositionRequest[]): string | null {
    const judge = (requests: readonly RolePositionRequest[]) =>
      withBotVerdict(canMoveRoles(this.context, this.self, requests), () =>
        this.bot ? canMoveRoles(this.context, this.bot, requests) : null,
      );
    const verdict = judge(positions);
    if (verdict.ok) return null;
    // Each move is judged on its own: the first role refused alone is the one refused in the whole request.
    const refused = positions.find((p) => !judge([p]).ok);
    const name = refused && this.roles.find((r) => r.id === refused.id)?.name;
    return name ? `${name}: ${verdict.reason}` : verdict.reason;
  }

  /** One of this guild's channels (no threads), or undefined. */
  private async guildChannel(channelId: string): Promise<APIGuildChannel | undefined> {
    return (await this.api.channels.list(this.guildId)).find((c) => c.id === channelId) as APIGuildChannel | undefined;
  }

  /** Why the moderator lacks `flags` in one of this guild's channels (its overwrites applied), or null. */
  async channelMissing(channelId: string, ...flags: bigint[]): Promise<string | null> {
    const channel = await this.guildChannel(channelId);
    if (!channel) return "that channel is not in this server";
    const required = flags.reduce((a, b) => a | b, 0n);
    if (this.screened && required !== 0n) return SCREENING;
    const missing = describeMissing(
      computeChannelPermissions(this.context, this.self, overwritesOf(channel)),
      required,
    );
    return missing && `${missing} in #${channel.name ?? channelId}`;
  }

  /**
   * Why the moderator may not move a member into this channel (Modify Guild Member's channel_id), or null: View Channel
   * and Connect there. A channel that is not a voice or stage channel of the guild is the API's to refuse (400).
   */
  async voiceMoveBlock(channelId: string): Promise<string | null> {
    const channel = await this.guildChannel(channelId);
    if (!channel || !VOICE_CHANNEL_TYPES.includes(channel.type)) return null;
    return this.channelMissing(channelId, PermissionFlagsBits.ViewChannel, PermissionFlagsBits.Connect);
  }

  /** One of this guild's invites, or null when it is gone or belongs to another guild (a bot token reaches every guild). */
  async guildInvite(code: string): Promise<APIInvite | null> {
    const invite = await this.api.invites.get(code).catch(() => null);
    return invite?.guild?.id === this.guildId ? invite : null;
  }

  /**
   * Why the moderator may not set these overwrites in one of this guild's channels, or null: only bits that change
   * count, judged against what Discord lets them set there (overwriteGrantableBits). `replaceAll`: the list replaces
   * the channel's, so overwrites left out are removed too.
   */
  async overwriteBlock(
    channelId: string,
    next: ReadonlyArray<{ id: string; allow: string; deny: string }>,
    replaceAll: boolean,
  ): Promise<string | null> {
    const channel = await this.guildChannel(channelId);
    if (!channel) return "that channel is not in this server";
    const current = overwritesOf(channel);
    const before = new Map(current.map((o) => [o.id, o]));
    let changed = 0n;
    for (const o of next) {
      const old = before.get(o.id);
      // The API drops bits no permission uses before judging the change.
      const [allow, deny] = [BigInt(o.allow) & ALL_PERMISSIONS, BigInt(o.deny) & ALL_PERMISSIONS];
      changed |= ((old?.allow ?? 0n) ^ allow) | ((old?.deny ?? 0n) ^ deny);
    }
    if (replaceAll) for (const o of current) if (!next.some((n) => n.id === o.id)) changed |= o.allow | o.deny;
    const missing = describeMissing(overwriteGrantableBits(this.context, this.self, current), changed);
    return missing && `you can't change permissions you don't have in #${channel.name ?? channelId} (${missing})`;
  }

  /**
   * Granting or taking away permissions one does not hold is refused (unless administrator or owner): a role's
   * permissions going from `before` (0 for a new role) to `permissions`, only the bits that change judged, as the API
   * does (bits no permission uses are dropped first).
   */
  grantBlock(permissions: bigint, before = 0n): string | null {
    const changed = before ^ (permissions & ALL_PERMISSIONS);
    if (!this.isOwner && !this.has(PermissionFlagsBits.Administrator)) {
      const extra = changed & ~this.permissions;
      if (extra !== 0n)
        return `you can't grant permissions you don't have (${describeMissing(this.permissions, extra)})`;
    }
    // Bot mode: the bot makes the change, and Discord holds it to the same rule.
    const bot = this.botPermissions;
    const botExtra = bot === null ? 0n : changed & ~bot;
    return botExtra === 0n
      ? null
      : `the bot can't grant permissions it doesn't have (${describeMissing(bot!, botExtra)}): give its role those first`;
  }

  /** In bot mode, the bot's permissions in the server (every one for an administrator); null in user mode. */
  private get botPermissions(): bigint | null {
    return this.bot && botHeldPermissions(this.context, this.bot);
  }

  /**
   * The overwrites of a channel being created (Create Guild Channel's permission_overwrites), or null: unless an
   * administrator (or the owner), only bits the moderator holds in the server, and never Manage Permissions.
   */
  newOverwritesBlock(overwrites: ReadonlyArray<{ allow?: string | null; deny?: string | null }>): string | null {
    if (this.has(PermissionFlagsBits.Administrator)) return null;
    const bits = overwrites.reduce((all, o) => all | BigInt(o.allow ?? 0) | BigInt(o.deny ?? 0), 0n);
    const extra = bits & ~this.permissions & ~PermissionFlagsBits.ManageRoles;
    if (extra !== 0n)
      return `you can't set permissions you don't have in a new channel (${describeMissing(this.permissions, extra) ?? "unknown permission bits"})`;
    if ((bits & PermissionFlagsBits.ManageRoles) !== 0n)
      return "only administrators can set Manage Permissions in a new channel";
    const bot = this.botPermissions;
    const botExtra = bot === null || bot === ALL_PERMISSIONS ? 0n : bits & ~bot;
    return botExtra === 0n
      ? null
      : `the bot can't set permissions it doesn't have in a new channel (${describeMissing(bot!, botExtra)})`;
  }
}

/** The first refusal among several checks. */
export function firstRefusal(...reasons: Array<string | null | undefined>): string | null {
  return reasons.find((r): r is string => Boolean(r)) ?? null;
}
