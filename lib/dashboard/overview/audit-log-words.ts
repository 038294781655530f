// The guild's audit log (Get Guild Audit Log) in plain words, as Discord's own audit log reads: "mod banned ada",
// "admin pruned 12 members inactive for 7 days". Pure: the overview page and its tests call it with the API's answer.
import { AuditLogEvent, type APIAuditLogEntry, type APIUser } from "discord-api-types/v10";

/** What the overview calls moderation: actions on members. */
export const MODERATION_EVENTS: ReadonlySet<AuditLogEvent> = new Set([
  AuditLogEvent.MemberKick,
  AuditLogEvent.MemberPrune,
  AuditLogEvent.MemberBanAdd,
  AuditLogEvent.MemberBanRemove,
  AuditLogEvent.MemberUpdate,
  AuditLogEvent.MemberRoleUpdate,
  AuditLogEvent.MemberMove,
  AuditLogEvent.MemberDisconnect,
]);

/** Members who left through a moderator, by event: one for a kick or ban, the count a prune removed. */
export function membersRemoved(entry: Pick<APIAuditLogEntry, "action_type" | "options">): number {
  switch (entry.action_type) {
    case AuditLogEvent.MemberKick:
    case AuditLogEvent.MemberBanAdd:
      return 1;
    case AuditLogEvent.MemberPrune:
      return Number(entry.options?.members_removed ?? 0);
    default:
      return 0;
  }
}

export interface Names {
  user(id: string | null | undefined): string;
  role(id: string): string;
  channel(id: string | null | undefined): string;
}

export function namesFrom(
  users: readonly Pick<APIUser, "id" | "username" | "global_name">[],
  roles: ReadonlyArray<{ id: string; name: string }>,
  channels: ReadonlyArray<{ id: string; name: string }>,
): Names {
  const userNames = new Map(users.map((u) => [u.id, u.global_name || u.username]));
  const roleNames = new Map(roles.map((r) => [r.id, r.name]));
  const channelNames = new Map(channels.map((c) => [c.id, c.name]));
  return {
    user: (id) => (id ? (userNames.get(id) ?? "someone who left") : "someone"),
    role: (id) => roleNames.get(id) ?? "a deleted role",
    channel: (id) => (id && channelNames.has(id) ? `#${channelNames.get(id)}` : "a deleted channel"),
  };
}

function change(entry: APIAuditLogEntry, key: string) {
  return entry.changes?.find((c) => c.key === key);
}

function rolesNamed(entry: APIAuditLogEntry, key: "$add" | "$remove"): string[] {
  const value = change(entry, key)?.new_value as Array<{ id: string; name?: string }> | undefined;
  return (value ?? []).map((role) => role.name ?? role.id);
}

/** One sentence for the entry; the actor first, as Discord writes it. */
export function describeAuditLogEntry(entry: APIAuditLogEntry, names: Names, locale: string): string {
  const count = new Intl.NumberFormat(locale);
  const plural = (n: number, one: string) => `${count.format(n)} ${n === 1 ? one : `${one}s`}`;
  const actor = names.user(entry.user_id);
  const target = names.user(entry.target_id);
  const created = (kind: string) => {
    const name = change(entry, "name")?.new_value ?? change(entry, "name")?.old_value;
    return typeof name === "string" ? `${kind} ${kind === "channel" ? `#${name}` : name}` : `a ${kind}`;
  };
  switch (entry.action_type) {
    case AuditLogEvent.MemberKick:
      return `${actor} kicked ${target}`;
    case AuditLogEvent.MemberBanAdd:
      return `${actor} banned ${target}`;
    case AuditLogEvent.MemberBanRemove:
      return `${actor} unbanned ${target}`;
    case AuditLogEvent.MemberPrune: {
      const removed = Number(entry.options?.members_removed ?? 0);
      const days = Number(entry.options?.delete_member_days ?? 0);
      return `${actor} pruned ${plural(removed, "member")}${days ? ` inactive for ${plural(days, "day")}` : ""}`;
    }
    case AuditLogEvent.MemberUpdate: {
      const timeout = change(entry, "communication_disabled_until");
      if (timeout)
        return timeout.new_value ? `${actor} timed out ${target}` : `${actor} removed the timeout of ${target}`;
      const nick = change(entry, "nick");
      if (nick)
        return nick.new_value
          ? `${actor} changed the nickname of ${target}`
          : `${actor} reset the nickname of ${target}`;
      return `${actor} updated ${target}`;
    }
    case AuditLogEvent.MemberRoleUpdate: {
      const added = rolesNamed(entry, "$add");
      const removed = rolesNamed(entry, "$remove");
      const parts = [
        added.length ? `gave ${target} ${added.join(", ")}` : "",
        removed.length ? `took ${removed.join(", ")} from ${target}` : "",
      ].filter(Boolean);
      return `${actor} ${parts.join(" and ") || `changed the roles of ${target}`}`;
    }
    case AuditLogEvent.MemberMove:
      return `${actor} moved ${plural(Number(entry.options?.count ?? 1), "member")} to ${names.channel(entry.options?.channel_id)}`;
    case AuditLogEvent.MemberDisconnect:
      return `${actor} disconnected ${plural(Number(entry.options?.count ?? 1), "member")} from voice`;
    case AuditLogEvent.GuildUpdate:
      return `${actor} changed the server settings`;
    case AuditLogEvent.ChannelCreate:
      return `${actor} created ${created("channel")}`;
    case AuditLogEvent.ChannelUpdate:
      return `${actor} edited ${names.channel(entry.target_id)}`;
    case AuditLogEvent.ChannelDelete:
      return `${actor} deleted ${created("channel")}`;
    case AuditLogEvent.ChannelOverwriteCreate:
    case AuditLogEvent.ChannelOverwriteUpdate:
    case AuditLogEvent.ChannelOverwriteDelete:
      return `${actor} changed the permissions of ${names.channel(entry.target_id)}`;
    case AuditLogEvent.RoleCreate:
      return `${actor} created ${created("role")}`;
    case AuditLogEvent.RoleUpdate:
      return `${actor} edited the role ${names.role(entry.target_id ?? "")}`;
    case AuditLogEvent.RoleDelete:
      return `${actor} deleted ${created("role")}`;
    case AuditLogEvent.InviteCreate:
      return `${actor} created an invite`;
    case AuditLogEvent.InviteDelete:
      return `${actor} deleted an invite`;
    case AuditLogEvent.BotAdd:
      return `${actor} added the bot ${target}`;
    case AuditLogEvent.IntegrationCreate:
      return `${actor} added an integration`;
    case AuditLogEvent.IntegrationDelete:
      return `${actor} removed an integration`;
    case AuditLogEvent.OnboardingCreate:
    case AuditLogEvent.OnboardingUpdate:
      return `${actor} changed onboarding`;
    case AuditLogEvent.ThreadUpdate:
      return `${actor} edited a thread`;
    case AuditLogEvent.ThreadDelete:
      return `${actor} deleted a thread`;
    default:
      return `${actor} made a change (${AuditLogEvent[entry.action_type] ?? `action ${entry.action_type}`})`;
  }
}
