// The guild's own audit log entries (Get Guild Audit Log) in the history's terms: each action type as the operation
// the dashboard records for the same change, what kind of thing its target is, and its changes as before/after
// snapshots. Pure.
import { AuditLogEvent, type APIAuditLogChange, type APIAuditLogEntry } from "discord-api-types/v10";

interface EventInfo {
  action: string;
  target: "user" | "channel" | "role" | "guild" | "invite" | "integration" | "thread" | "other" | null;
}

const E = AuditLogEvent;
const EVENTS: Partial<Record<AuditLogEvent, EventInfo>> = {
  [E.GuildUpdate]: { action: "Modify Guild", target: "guild" },
  [E.ChannelCreate]: { action: "Create Guild Channel", target: "channel" },
  [E.ChannelUpdate]: { action: "Modify Channel", target: "channel" },
  [E.ChannelDelete]: { action: "Delete Channel", target: "channel" },
  [E.ChannelOverwriteCreate]: { action: "Edit Channel Permissions", target: "channel" },
  [E.ChannelOverwriteUpdate]: { action: "Edit Channel Permissions", target: "channel" },
  [E.ChannelOverwriteDelete]: { action: "Delete Channel Permission", target: "channel" },
  [E.MemberKick]: { action: "Remove Guild Member", target: "user" },
  [E.MemberPrune]: { action: "Begin Guild Prune", target: null },
  [E.MemberBanAdd]: { action: "Create Guild Ban", target: "user" },
  [E.MemberBanRemove]: { action: "Remove Guild Ban", target: "user" },
  [E.MemberUpdate]: { action: "Modify Guild Member", target: "user" },
  [E.MemberRoleUpdate]: { action: "Modify Guild Member Roles", target: "user" },
  [E.MemberMove]: { action: "Move Voice Member", target: null },
  [E.MemberDisconnect]: { action: "Disconnect Voice Member", target: null },
  [E.BotAdd]: { action: "Add Bot", target: "user" },
  [E.RoleCreate]: { action: "Create Guild Role", target: "role" },
  [E.RoleUpdate]: { action: "Modify Guild Role", target: "role" },
  [E.RoleDelete]: { action: "Delete Guild Role", target: "role" },
  [E.InviteCreate]: { action: "Create Channel Invite", target: "invite" },
  [E.InviteUpdate]: { action: "Modify Invite", target: "invite" },
  [E.InviteDelete]: { action: "Delete Invite", target: "invite" },
  [E.WebhookCreate]: { action: "Create Webhook", target: "other" },
  [E.WebhookUpdate]: { action: "Modify Webhook", target: "other" },
  [E.WebhookDelete]: { action: "Delete Webhook", target: "other" },
  [E.EmojiCreate]: { action: "Create Emoji", target: "other" },
  [E.EmojiUpdate]: { action: "Modify Emoji", target: "other" },
  [E.EmojiDelete]: { action: "Delete Emoji", target: "other" },
  [E.MessageDelete]: { action: "Delete Message", target: "user" },
  [E.MessageBulkDelete]: { action: "Bulk Delete Messages", target: "channel" },
  [E.MessagePin]: { action: "Pin Message", target: "user" },
  [E.MessageUnpin]: { action: "Unpin Message", target: "user" },
  [E.IntegrationCreate]: { action: "Create Integration", target: "integration" },
  [E.IntegrationUpdate]: { action: "Modify Integration", target: "integration" },
  [E.IntegrationDelete]: { action: "Delete Guild Integration", target: "integration" },
  [E.ThreadCreate]: { action: "Create Thread", target: "thread" },
  [E.ThreadUpdate]: { action: "Modify Thread", target: "thread" },
  [E.ThreadDelete]: { action: "Delete Thread", target: "thread" },
  [E.OnboardingCreate]: { action: "Modify Guild Onboarding", target: null },
  [E.OnboardingUpdate]: { action: "Modify Guild Onboarding", target: null },
  [E.AutoModerationRuleCreate]: { action: "Create Auto Moderation Rule", target: "other" },
  [E.AutoModerationRuleUpdate]: { action: "Modify Auto Moderation Rule", target: "other" },
  [E.AutoModerationRuleDelete]: { action: "Delete Auto Moderation Rule", target: "other" },
};

/** "AutoModerationRuleCreate" → "Auto moderation rule create", for action types without an entry above. */
const wordsOf = (name: string) => {
  const words = name.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

export function eventInfo(actionType: number): EventInfo {
  return (
    EVENTS[actionType as AuditLogEvent] ?? {
      action: AuditLogEvent[actionType] ? wordsOf(AuditLogEvent[actionType]) : `Audit log action ${actionType}`,
      target: "other",
    }
  );
}

/** A change list as the before and after snapshots the history keeps (keys absent on the side they were absent). */
export function changesToSnapshots(changes: readonly APIAuditLogChange[] | undefined): {
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
} {
  if (!changes?.length) return { before: null, after: null };
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const change of changes) {
    if (change.old_value !== undefined) before[change.key] = change.old_value;
    if (change.new_value !== undefined) after[change.key] = change.new_value;
  }
  return { before, after };
}

/** The nicknames a member entry's changes name (the old and the new), for the history's Target filter. */
export function nicknamesIn(entry: Pick<APIAuditLogEntry, "changes">): string[] {
  return (entry.changes ?? [])
    .filter((c) => c.key === "nick")
    .flatMap((c) => [c.old_value, c.new_value])
    .filter((value): value is string => typeof value === "string" && value !== "");
}

/** The name a deleted or created thing carried, from its changes (a deleted role's name is only there). */
export function nameFromChanges(entry: Pick<APIAuditLogEntry, "changes">): string | null {
  const change = entry.changes?.find((c) => c.key === "name" || c.key === "code");
  const value = change?.new_value ?? change?.old_value;
  return typeof value === "string" ? value : null;
}
