// Who may receive a dispatch, as Discord decides it: the event's rule in the policy table (DISPATCH_POLICIES in
// lib/discord/policies.ts): its intent (the session's check), then the permissions it needs, any of its alternatives,
// in the guild or in the event's channel, for the session's user, computed by the one permission engine. A thread is
// seen through its parent's overwrites, and a private thread only by its members and by Manage Threads in the parent
// (maySeeThread, as List Active Guild Threads judges it); an invite through its channel's overwrites.
import { maySeeThread } from "@/lib/discord/channel-permissions";
import {
  computeBasePermissions,
  computeChannelPermissions,
  type GuildPermissionContext,
  type PermissionOverwrite,
} from "@/lib/discord/permissions";
import { DISPATCH_POLICIES, meetsRequirement } from "@/lib/discord/policies";
import { parseOverwrites, permissionContextOf, toPermissionMember, type OverwriteJson } from "../guards";
import { findGuild } from "../store/guilds";
import { memberRoleIds } from "../store/member-roles";
import { findMember } from "../store/members";
import { listGuildRoles } from "../store/roles";
import { findThreadMember } from "../store/channels";
import { channelOverwritesJson } from "../store/gateway-outbox";
import type { GatewayDispatch } from "../events";
import type { MaybePromise } from "../maybe-promise";

interface EventData {
  id?: string;
  type?: number;
  channel_id?: string;
  parent_id?: string | null;
  permission_overwrites?: OverwriteJson[];
}

/**
 * One outbox event being delivered: its parsed data and, computed on first need and shared by every recipient, the
 * guild's permission context and the overwrites of the channel it concerns.
 */
export class EventAudience {
  private context: GuildPermissionContext | null | undefined;
  private overwrites: PermissionOverwrite[] | null | undefined;
  private readonly verdicts = new Map<bigint, boolean>();
  /** Every member may see it (a guild event needing no permission): nobody needs judging. */
  private readonly open: boolean;

  constructor(
    readonly guildId: bigint,
    readonly type: GatewayDispatch,
    readonly data: EventData,
  ) {
    const rule = DISPATCH_POLICIES[type];
    this.open = rule.scope === "guild" && rule.permissions.length === 0;
  }

  /**
   * Whether `userId`, a member of the guild, holds what this event needs (its intent is the session's check): at
   * once when the event is open to every member or the user was judged for it already (every session of a bot's
   * shards), after the store's reads otherwise.
   */
  admits(userId: bigint): MaybePromise<boolean> {
    if (this.open) return true;
    return this.verdicts.get(userId) ?? this.judged(userId);
  }

  private async judged(userId: bigint): Promise<boolean> {
    const verdict = await this.judge(userId);
    this.verdicts.set(userId, verdict);
    return verdict;
  }

  private async judge(userId: bigint): Promise<boolean> {
    const rule = DISPATCH_POLICIES[this.type];
    const context = await this.permissionContext();
    const member = await findMember(this.guildId, userId);
    if (!context || !member) return false;
    const subject = toPermissionMember(member, await memberRoleIds(this.guildId, userId));
    if (rule.scope !== "channel" && rule.scope !== "thread")
      return meetsRequirement(computeBasePermissions(context, subject), rule.permissions);
    const overwrites = await this.channelOverwrites();
    const permissions =
      overwrites === null
        ? computeBasePermissions(context, subject)
        : computeChannelPermissions(context, subject, overwrites);
    if (!meetsRequirement(permissions, rule.permissions)) return false;
    if (rule.scope !== "thread" || this.data.type === undefined || this.data.id === undefined) return true;
    // Thread members outlive a deleted thread's row, so THREAD_DELETE still reaches a private thread's members.
    const isMember = (await findThreadMember(BigInt(this.data.id), userId)) !== undefined;
    return maySeeThread({ type: this.data.type }, permissions, isMember);
  }

  private async permissionContext(): Promise<GuildPermissionContext | null> {
    if (this.context === undefined) {
      const guild = await findGuild(this.guildId);
      this.context = guild ? permissionContextOf(guild, await listGuildRoles(this.guildId)) : null;
    }
    return this.context;
  }

  /** The overwrites that decide who sees the event's channel; null when there are none to apply. */
  private async channelOverwrites(): Promise<PermissionOverwrite[] | null> {
    if (this.overwrites === undefined) {
      const rule = DISPATCH_POLICIES[this.type];
      if (rule.scope === "channel" && this.data.permission_overwrites) {
        // CHANNEL_* carry the channel itself (after the change, or as it was when deleted).
        this.overwrites = this.data.permission_overwrites.map((o) => ({
          id: o.id,
          type: o.type,
          allow: BigInt(o.allow),
          deny: BigInt(o.deny),
        }));
      } else {
        const channelId = rule.scope === "thread" ? this.data.parent_id : this.data.channel_id;
        const json = channelId ? await channelOverwritesJson(BigInt(channelId)) : undefined;
        this.overwrites = json === undefined ? null : parseOverwrites(json);
      }
    }
    return this.overwrites;
  }
}
