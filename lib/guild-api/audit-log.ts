// The guild's own audit log (GET /guilds/{id}/audit-logs): one entry per audited operation, written in
// the operation's transaction with the decoded X-Audit-Log-Reason, and dispatched as GUILD_AUDIT_LOG_ENTRY_CREATE.
import { AuditLogEvent } from "discord-api-types/v10";
import { newSnowflake } from "@/lib/discord/snowflake";
import { emitEvent } from "./events";
import { serializeAuditLogEntry } from "./serializers/guilds";
import { insertAuditLogEntry, type AuditLogEntryRow } from "./store/audit-log-entries";

export { AuditLogEvent };

export interface AuditChange {
  key: string;
  old_value?: unknown;
  new_value?: unknown;
}

export interface AuditEntryInput {
  guildId: bigint;
  userId: bigint | null;
  actionType: AuditLogEvent;
  targetId?: bigint | string | null;
  reason?: string | null;
  changes?: AuditChange[];
  options?: Record<string, string>;
}

export async function writeAuditLog(entry: AuditEntryInput): Promise<bigint> {
  const row: AuditLogEntryRow = {
    id: newSnowflake(),
    guild_id: entry.guildId,
    user_id: entry.userId,
    action_type: BigInt(entry.actionType),
    target_id: entry.targetId == null ? null : String(entry.targetId),
    reason: entry.reason ?? null,
    changes: entry.changes?.length ? JSON.stringify(entry.changes) : null,
    options: entry.options ? JSON.stringify(entry.options) : null,
  };
  await insertAuditLogEntry(row);
  await emitEvent(entry.guildId, "GUILD_AUDIT_LOG_ENTRY_CREATE", {
    ...serializeAuditLogEntry(row),
    guild_id: String(entry.guildId),
  });
  return row.id;
}

/** Who an operation acts for: the guild it runs in and the caller's identity (a GuildAccess satisfies it). */
export interface AuditActor {
  readonly guildId: bigint;
  readonly caller: { readonly userId: bigint | null };
}

/** An entry in the actor's guild, made by its caller: the common case, a moderator's own change. */
export function auditByCaller(actor: AuditActor, entry: Omit<AuditEntryInput, "guildId" | "userId">): Promise<bigint> {
  return writeAuditLog({ guildId: actor.guildId, userId: actor.caller.userId, ...entry });
}

/** A GUILD_UPDATE entry for the guild's own settings, written only when something changed; true when it was. */
export async function auditGuildUpdate(
  actor: AuditActor,
  reason: string | null,
  changes: AuditChange[],
): Promise<boolean> {
  if (changes.length === 0) return false;
  await auditByCaller(actor, { actionType: AuditLogEvent.GuildUpdate, targetId: actor.guildId, reason, changes });
  return true;
}

/** Changes between two wire objects, for the keys that differ. */
export function diffChanges(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  keys = Object.keys(after),
): AuditChange[] {
  const changes: AuditChange[] = [];
  for (const key of keys) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key]))
      changes.push({ key, old_value: before[key], new_value: after[key] });
  }
  return changes;
}
