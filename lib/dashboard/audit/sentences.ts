// An audit history entry as one sentence a moderator reads at a glance: who did what to what, the changed fields in
// words, and why ("mod banned bob — reason: spam"; "admin changed #general: slowmode off → 10 s"). Dashboard entries
// and entries imported from the guild's own audit log read alike. Pure, so client components and tests use it.
import { changePhrase, describeChanges, formatSeconds, NO_NAMES, type AuditNames, type ChangeLine } from "./fields";
import type { AuditEntryView } from "./format";

export type TargetKind = "user" | "channel" | "role" | "guild" | "invite" | "integration" | "thread" | "job" | "other";

export interface ActionInfo {
  /** The filter menu's name for it. */
  label: string;
  /** Past tense, before the target ("banned" bob). */
  did: string;
  /** Infinitive for failures ("tried to ban" bob). */
  do: string;
  /** The target is part of the phrase only when the action is about one. */
  target: boolean;
}

const act = (label: string, did: string, doing: string, target = true): ActionInfo => ({
  label,
  did,
  do: doing,
  target,
});

/** Every action the history records, by its operation name (dashboard entries and imported ones alike). */
export const ACTIONS: Record<string, ActionInfo> = {
  "Create Guild Ban": act("Ban", "banned", "ban"),
  "Remove Guild Ban": act("Unban", "unbanned", "unban"),
  "Remove Guild Member": act("Kick", "kicked", "kick"),
  "Modify Guild Member": act("Member edit", "changed", "change"),
  "Modify Guild Member Roles": act("Member roles", "changed the roles of", "change the roles of"),
  "Move Voice Member": act("Voice move", "moved", "move", false),
  "Disconnect Voice Member": act("Voice disconnect", "disconnected", "disconnect", false),
  "Add Bot": act("Bot added", "added the bot", "add the bot"),
  "Preview prune": act("Prune preview", "previewed a prune", "preview a prune", false),
  // Recorded under the operation's name before previews got their own.
  "Get Guild Prune Count": act("Prune preview", "previewed a prune", "preview a prune", false),
  "Begin Guild Prune": act("Prune", "pruned", "prune", false),
  "Modify Guild": act("Server settings", "changed", "change"),
  "Create Guild Channel": act("Channel created", "created", "create"),
  "Modify Channel": act("Channel edit", "changed", "change"),
  "Delete/Close Channel": act("Channel deleted", "deleted", "delete"),
  // Recorded under this name before the dashboard used the operation's own.
  "Delete Channel": act("Channel deleted", "deleted", "delete"),
  "Modify Guild Channel Positions": act("Channel order", "reordered the channels", "reorder the channels", false),
  "Edit Channel Permissions": act("Channel permissions", "changed permissions in", "change permissions in"),
  "Delete Channel Permission": act(
    "Channel permissions",
    "removed a permission overwrite in",
    "remove a permission overwrite in",
  ),
  "Create Guild Role": act("Role created", "created the role", "create the role"),
  "Modify Guild Role": act("Role edit", "changed the role", "change the role"),
  "Delete Guild Role": act("Role deleted", "deleted the role", "delete the role"),
  "Modify Guild Role Positions": act("Role order", "reordered the roles", "reorder the roles", false),
  "Create Channel Invite": act("Invite created", "created the invite", "create an invite", true),
  "Modify Invite": act("Invite edit", "changed the invite", "change the invite"),
  "Delete Invite": act("Invite deleted", "deleted the invite", "delete the invite"),
  // Filed only when refused as a whole: each invite it deletes is a Delete Invite entry of its own.
  "Bulk delete invites": act("Invite deleted", "deleted invites in bulk", "delete invites in bulk", false),
  "Update Target Users": act("Invite audience", "changed who may use the invite", "change who may use the invite"),
  "Create Integration": act("Integration added", "added the integration", "add the integration"),
  "Modify Integration": act("Integration edit", "changed the integration", "change the integration"),
  "Delete Guild Integration": act("Integration removed", "removed the integration", "remove the integration"),
  "Create Thread": act("Thread created", "created the thread", "create the thread"),
  "Modify Thread": act("Thread edit", "changed the thread", "change the thread"),
  "Delete Thread": act("Thread deleted", "deleted the thread", "delete the thread"),
  "Create Guild Emoji": act("Emoji uploaded", "uploaded the emoji", "upload the emoji"),
  "Modify Guild Emoji": act("Emoji edit", "changed the emoji", "change the emoji"),
  "Delete Guild Emoji": act("Emoji deleted", "deleted the emoji", "delete the emoji"),
  "Create Guild Sticker": act("Sticker uploaded", "uploaded the sticker", "upload the sticker"),
  "Modify Guild Sticker": act("Sticker edit", "changed the sticker", "change the sticker"),
  "Delete Guild Sticker": act("Sticker deleted", "deleted the sticker", "delete the sticker"),
  "Create Guild Soundboard Sound": act("Sound uploaded", "uploaded the sound", "upload the sound"),
  "Modify Guild Soundboard Sound": act("Sound edit", "changed the sound", "change the sound"),
  "Delete Guild Soundboard Sound": act("Sound deleted", "deleted the sound", "delete the sound"),
  "Modify Guild Widget": act("Widget", "changed the widget", "change the widget", false),
  "Modify Guild Welcome Screen": act(
    "Welcome screen",
    "changed the welcome screen",
    "change the welcome screen",
    false,
  ),
  "Modify Guild Onboarding": act("Onboarding", "changed onboarding", "change onboarding", false),
  "Modify Guild Incident Actions": act("Safety", "changed the safety actions", "change the safety actions", false),
  "Create Guild Scheduled Event": act("Event scheduled", "scheduled the event", "schedule the event"),
  "Modify Guild Scheduled Event": act("Event changed", "changed the event", "change the event"),
  "Delete Guild Scheduled Event": act("Event deleted", "deleted the event", "delete the event"),
  "Create Auto Moderation Rule": act("AutoMod rule created", "created the AutoMod rule", "create the AutoMod rule"),
  "Modify Auto Moderation Rule": act("AutoMod rule edit", "changed the AutoMod rule", "change the AutoMod rule"),
  "Delete Auto Moderation Rule": act("AutoMod rule deleted", "deleted the AutoMod rule", "delete the AutoMod rule"),
  "Prepare bulk ban": act("Bulk ban", "prepared a bulk ban", "prepare a bulk ban", false),
  "Start bulk ban": act("Bulk ban", "started a bulk ban", "start a bulk ban", false),
  "Pause bulk ban": act("Bulk ban", "paused a bulk ban", "pause a bulk ban", false),
  "Cancel bulk ban": act("Bulk ban", "cancelled a bulk ban", "cancel a bulk ban", false),
  "Bulk Guild Ban": act("Bulk ban", "bulk-banned", "bulk-ban", false),
  "Undo bulk ban": act("Bulk ban", "undid part of a bulk ban", "undo a bulk ban", false),
  "Prepare bulk member action": act("Bulk action", "prepared a bulk action", "prepare a bulk action", false),
  "Start bulk member action": act("Bulk action", "started a bulk action", "start a bulk action", false),
  "Pause bulk member action": act("Bulk action", "paused a bulk action", "pause a bulk action", false),
  "Cancel bulk member action": act("Bulk action", "cancelled a bulk action", "cancel a bulk action", false),
  "Bulk add role": act("Bulk action", "added a role to members", "add a role to members", false),
  "Bulk remove role": act("Bulk action", "removed a role from members", "remove a role from members", false),
  "Bulk timeout": act("Bulk action", "timed out members", "time out members", false),
  "Bulk remove timeout": act("Bulk action", "removed members' timeouts", "remove members' timeouts", false),
  "Bulk kick": act("Bulk action", "kicked members", "kick members", false),
  // Cases (issue #32): the member panel's warnings and notes, reasons edited, the escalation rules, ban appeals.
  "Warn member": act("Warning", "warned", "warn"),
  "Add note": act("Note", "added a note on", "add a note on"),
  "Edit case reason": act("Case reason", "changed the reason of", "change the reason of"),
  "Save escalation rules": act(
    "Escalation rules",
    "changed the escalation rules",
    "change the escalation rules",
    false,
  ),
  "Save appeal settings": act("Appeal settings", "changed the appeal form", "change the appeal form", false),
  "Accept ban appeal": act("Ban appeal", "accepted the ban appeal of", "accept the ban appeal of"),
  "Reject ban appeal": act("Ban appeal", "rejected the ban appeal of", "reject the ban appeal of"),
  "Create Emoji": act("Emoji", "added the emoji", "add the emoji"),
  "Modify Emoji": act("Emoji", "changed the emoji", "change the emoji"),
  "Delete Emoji": act("Emoji", "deleted the emoji", "delete the emoji"),
  "Create Webhook": act("Webhook", "created the webhook", "create the webhook"),
  "Modify Webhook": act("Webhook", "changed the webhook", "change the webhook"),
  "Delete Webhook": act("Webhook", "deleted the webhook", "delete the webhook"),
  "Delete Message": act("Messages", "deleted messages of", "delete messages of"),
  "Bulk Delete Messages": act("Messages", "bulk-deleted messages in", "bulk-delete messages in"),
  "Pin Message": act("Messages", "pinned a message of", "pin a message of"),
  "Unpin Message": act("Messages", "unpinned a message of", "unpin a message of"),
};

/**
 * Actions that remove something: what their entries carry is what was removed (a kicked member's roles, a deleted
 * role's settings), shown in the details, not changes to put in the sentence.
 */
const REMOVALS = new Set([
  "Remove Guild Member",
  "Create Guild Ban",
  "Remove Guild Ban",
  "Delete/Close Channel",
  "Delete Channel",
  "Delete Channel Permission",
  "Delete Guild Role",
  "Delete Invite",
  "Delete Guild Integration",
  "Delete Thread",
  "Delete Emoji",
  "Delete Webhook",
  "Delete Auto Moderation Rule",
]);

/** The filter menu's name for an action. */
export function actionLabel(action: string): string {
  return ACTIONS[action]?.label ?? action;
}

/** How a target is written in a sentence: people by name, channels with #, the server as "the server". */
export function targetPhrase(entry: AuditEntryView, names: AuditNames): string {
  const id = entry.targetId;
  const kind = entry.targetType;
  if (kind === "guild") return "the server";
  if (kind === "bulk-ban-job") return "a bulk-ban job";
  const known =
    id === null
      ? undefined
      : kind === "channel" || kind === "thread"
        ? names.channel(id)
        : kind === "role"
          ? names.role(id)
          : kind === "user" || kind === "member"
            ? names.user(id)
            : undefined;
  const name = known ?? entry.targetName ?? id ?? "something";
  if (kind === "channel") return `#${name}`;
  if (kind === "thread") return `thread ${name}`;
  if (kind === "invite") return name;
  return name;
}

/** "1,234 members" in the reader's locale (the server's own when none is given: CSV exports, tests). */
const pluralIn = (locale: string | undefined) => (n: number, word: string) =>
  `${new Intl.NumberFormat(locale).format(n)} ${word}${n === 1 ? "" : "s"}`;
const num = (v: unknown): number | null => (v === null || v === undefined || v === "" ? null : Number(v));
const field = (v: unknown, key: string): unknown =>
  typeof v === "object" && v !== null ? (v as Record<string, unknown>)[key] : undefined;

/**
 * What a few actions did, told better than as field changes (`what` carries its own leading separator; `untargeted`:
 * the target is said by `what`).
 */
function specialPhrase(
  entry: AuditEntryView,
  locale: string | undefined,
): { what?: string; lines?: ChangeLine[]; untargeted?: boolean } | null {
  const plural = pluralIn(locale);
  const request = entry.request;
  const after = entry.after;
  const userIds = field(request, "user_ids");
  if (entry.targetType === "bulk-ban-job" && Array.isArray(userIds))
    return { what: ` ${plural(userIds.length, "user")} (a bulk-ban job)`, lines: [], untargeted: true };
  switch (entry.action) {
    case "Preview prune":
    case "Get Guild Prune Count": {
      const count = num(field(after, "pruned"));
      const days = num(field(request, "days"));
      const roles = field(request, "include_roles");
      const withRoles = Array.isArray(roles) && roles.length ? ` (with ${plural(roles.length, "included role")})` : "";
      return {
        what: `: ${count === null ? "members" : plural(count, "member")} inactive for ${days ?? "?"} days${withRoles}`,
        lines: [],
      };
    }
    case "Begin Guild Prune": {
      const pruned = num(field(after, "pruned")) ?? num(field(request, "members_removed"));
      const days = num(field(request, "days")) ?? num(field(request, "delete_member_days"));
      return {
        what: ` ${pruned === null ? "members (not counted)" : plural(pruned, "member")} inactive for ${days ?? "?"} days`,
        lines: [],
      };
    }
    case "Bulk Guild Ban": {
      const banned = field(after, "banned_users");
      const ids = field(request, "user_ids");
      const n = Array.isArray(banned) ? banned.length : Array.isArray(ids) ? ids.length : null;
      return { what: ` ${n === null ? "users" : plural(n, "user")}`, lines: [] };
    }
    case "Move Voice Member":
    case "Disconnect Voice Member": {
      const n = num(field(request, "count"));
      return { what: ` ${n === null ? "members" : plural(n, "member")}`, lines: [] };
    }
    default:
      return null;
  }
}

export interface AuditSentence {
  /** The whole sentence, for screen readers, search and the CSV. */
  text: string;
  actor: string;
  /** The sentence without the actor and the reason. */
  predicate: string;
  changes: ChangeLine[];
  /** Where it was done: this dashboard, a bot, or another client (Discord's own, a script). */
  source: string;
}

/** Where an entry came from, in words. */
export function sourceLabel(entry: Pick<AuditEntryView, "source" | "actorBot" | "actorName">): string {
  if (entry.source !== "guild-log") return "Guildhall dashboard";
  return entry.actorBot ? `bot ${entry.actorName}` : "another client";
}

/** The entry as a sentence, with its changes in words. */
export function describeEntry(entry: AuditEntryView, names: AuditNames = NO_NAMES, locale?: string): AuditSentence {
  const info = ACTIONS[entry.action] ?? act(entry.action, `did “${entry.action}” on`, `do “${entry.action}” on`);
  const actor = names.user(entry.actorId) ?? entry.actorName;
  const special = specialPhrase(entry, locale);
  const changes = special?.lines ?? describeChanges(entry.before, entry.after, names);
  const target =
    info.target && !special?.untargeted && (entry.targetId || entry.targetName || entry.targetType === "guild");
  const object = target ? ` ${targetPhrase(entry, names)}` : "";
  const what = special?.what ?? "";
  const told = REMOVALS.has(entry.action) ? [] : changes;
  const summary = told.slice(0, 3).map(changePhrase).join("; ");
  const more = told.length > 3 ? `; and ${told.length - 3} more` : "";
  const detail = summary ? `: ${summary}${more}` : "";
  const predicate =
    entry.status === "error"
      ? `tried to ${info.do}${object}${what} — failed${entry.error ? `: ${entry.error}` : ""}`
      : `${info.did}${object}${what}${detail}`;
  const reason = entry.reason ? ` — reason: ${entry.reason}` : "";
  return {
    text: `${actor} ${predicate}${reason}`,
    actor,
    predicate,
    changes,
    source: sourceLabel(entry),
  };
}

export { formatSeconds };
