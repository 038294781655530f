// The moderator's own standing in a guild, for bot mode: Discord judges only the bot, so the dashboard applies the
// shared permission engine to the moderator's member before acting for them.
import {
  OverwriteType,
  PermissionFlagsBits,
  type APIGuild,
  type APIGuildMember,
  type APIInvite,
  type APIRole,
} from "discord-api-types/v10";
import type { GuildApiClient } from "@/lib/api-client";
import {
  canActOnMember,
  canManageRole,
  computeBasePermissions,
  computeChannelPermissions,
  describeMissing,
  hasPermission,
  type GuildPermissionContext,
  type PermissionMember,
} from "@/lib/discord/permissions";
import { judgeHierarchy, judgePermissions, refusalText, type OperationName } from "@/lib/discord/policies";
import { overwriteGrantableBits } from "@/lib/discord/channel-permissions";

const member = (
  m: Pick<APIGuildMember, "roles" | "communication_disabled_until">,
  userId: string,
): PermissionMember => ({
  userId,
  roleIds: m.roles,
  communicationDisabledUntil: m.communication_disabled_until ?? null,
});

export class ModeratorCheck {
  private constructor(
    private readonly api: GuildApiClient,
    readonly guildId: string,
    readonly guild: APIGuild,
    readonly context: GuildPermissionContext,
    readonly roles: readonly APIRole[],
    readonly self: PermissionMember,
    readonly permissions: bigint,
  ) {}

  static async load(api: GuildApiClient, guildId: string, userId: string): Promise<ModeratorCheck> {
    const [guild, me] = await Promise.all([api.guilds.get(guildId), api.members.get(guildId, userId)]);
    const context: GuildPermissionContext = {
      guildId: guild.id,
      ownerId: guild.owner_id,
      roles: guild.roles.map((r) => ({ id: r.id, position: r.position, permissions: BigInt(r.permissions) })),
    };
    const self = member(me, userId);
    return new ModeratorCheck(api, guildId, guild, context, guild.roles, self, computeBasePermissions(context, self));
  }

  get isOwner(): boolean {
    return this.self.userId === this.context.ownerId;
  }

  has(flag: bigint): boolean {
    return hasPermission(this.permissions, flag);
  }

  /**
   * Why the moderator may not perform `operation` (setting `fields` of its body), from the one policy table, or null.
   * Discord judges only the bot, so the dashboard holds the moderator to the rule the built-in API would apply.
   */
  may(operation: OperationName, fields: readonly string[] = [], extra: { isInviter?: boolean } = {}): string | null {
    return refusalText(
      judgePermissions(operation, { permissions: this.permissions, isOwner: this.isOwner, fields, ...extra }),
    );
  }

  /** `may`, then the operation's hierarchy rule against the target member (when they are in the guild). */
  async mayActOn(operation: OperationName, userId: string, fields: readonly string[] = []): Promise<string | null> {
    const refusal = this.may(operation, fields);
    if (refusal || userId === this.self.userId) return refusal;
    const target = await this.targetMember(userId);
    if (!target) return null; // not a member: the API answers for itself (bans of non-members are allowed)
    return refusalText(
      judgeHierarchy(operation, { context: this.context, self: this.self, targetMember: member(target, userId) }),
    );
  }

  /** "needs Ban Members" when a flag is missing, else null. */
  missing(...flags: bigint[]): string | null {
    return describeMissing(
      this.permissions,
      flags.reduce((a, b) => a | b, 0n),
    );
  }

  /** The target member, or null when they are not in the guild. */
  targetMember(userId: string): Promise<APIGuildMember | null> {
    return this.api.members.get(this.guildId, userId).catch(() => null);
  }

  /** Why the moderator may not act on this member (kick, ban, time out, rename, change roles), or null. */
  async memberBlock(userId: string): Promise<string | null> {
    if (userId === this.self.userId) return null;
    const target = await this.targetMember(userId);
    if (!target) return null; // not a member: the API answers for itself (bans of non-members are allowed)
    const verdict = canActOnMember(this.context, this.self, member(target, userId));
    return verdict.ok ? null : verdict.reason;
  }

  /** Why the moderator may not edit, delete, assign or remove this role, or null. */
  roleBlock(roleId: string): string | null {
    const role = this.context.roles.find((r) => r.id === roleId);
    if (!role) return null;
    const verdict = canManageRole(this.context, this.self, role);
    return verdict.ok ? null : `${this.roles.find((r) => r.id === roleId)?.name ?? "role"}: ${verdict.reason}`;
  }

  /** Why the moderator lacks `flags` in one of this guild's channels (its overwrites applied), or null. */
  async channelMissing(channelId: string, ...flags: bigint[]): Promise<string | null> {
    const channel = (await this.api.channels.list(this.guildId)).find((c) => c.id === channelId);
    if (!channel) return "that channel is not in this server";
    const overwrites = ("permission_overwrites" in channel ? (channel.permission_overwrites ?? []) : []).map((o) => ({
      id: o.id,
      type: o.type === OverwriteType.Member ? (1 as const) : (0 as const),
      allow: BigInt(o.allow),
      deny: BigInt(o.deny),
    }));
    const missing = describeMissing(
      computeChannelPermissions(this.context, this.self, overwrites),
      flags.reduce((a, b) => a | b, 0n),
    );
    return missing && `${missing} in #${channel.name ?? channelId}`;
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
    const channel = (await this.api.channels.list(this.guildId)).find((c) => c.id === channelId);
    if (!channel) return "that channel is not in this server";
    const current = ("permission_overwrites" in channel ? (channel.permission_overwrites ?? []) : []).map((o) => ({
      id: o.id,
      type: o.type === OverwriteType.Member ? (1 as const) : (0 as const),
      allow: BigInt(o.allow),
      deny: BigInt(o.deny),
    }));
    const before = new Map(current.map((o) => [o.id, o]));
    let changed = 0n;
    for (const o of next) {
      const old = before.get(o.id);
      changed |= ((old?.allow ?? 0n) ^ BigInt(o.allow)) | ((old?.deny ?? 0n) ^ BigInt(o.deny));
    }
    if (replaceAll) for (const o of current) if (!next.some((n) => n.id === o.id)) changed |= o.allow | o.deny;
    const missing = describeMissing(overwriteGrantableBits(this.context, this.self, current), changed);
    return missing && `you can't change permissions you don't have in #${channel.name ?? channelId} (${missing})`;
  }

  /** Granting permissions one does not hold is refused (unless administrator or owner). */
  grantBlock(permissions: bigint): string | null {
    if (this.isOwner || this.has(PermissionFlagsBits.Administrator)) return null;
    const extra = permissions & ~this.permissions;
    return extra === 0n
      ? null
      : `you can't grant permissions you don't have (${describeMissing(this.permissions, extra)})`;
  }
}

/** The first refusal among several checks. */
export function firstRefusal(...reasons: Array<string | null | undefined>): string | null {
  return reasons.find((r): r is string => Boolean(r)) ?? null;
}
