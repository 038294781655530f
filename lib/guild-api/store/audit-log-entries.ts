// The audit_log_entries table: one entry per audited operation, written in the operation's transaction.
import { sql } from "./db";
import { dialect } from "./dialect";

export interface AuditLogEntryRow {
  id: bigint;
  guild_id: bigint;
  user_id: bigint | null;
  action_type: bigint;
  target_id: string | null;
  reason: string | null;
  changes: string | null;
  options: string | null;
}

export async function insertAuditLogEntry(entry: AuditLogEntryRow): Promise<void> {
  // Appended: bulk actions' entries go as a few multi-row INSERTs on PostgreSQL.
  await sql.append(
    "INSERT INTO audit_log_entries (id, guild_id, user_id, action_type, target_id, reason, changes, options) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    entry.id,
    entry.guild_id,
    entry.user_id,
    entry.action_type,
    entry.target_id,
    entry.reason,
    entry.changes,
    entry.options,
  );
}

export interface AuditLogFilter {
  guild_id: bigint;
  user_id: bigint | null;
  action_type: number | null;
  target_id: string | null;
  /** Exclusive bounds on the entry id. */
  before: bigint;
  after: bigint;
  limit: number;
}

// PostgreSQL needs each optional filter's type (a bare `@x IS NULL` leaves it undetermined), hence the casts; SQLite
// keeps its text as it was, so its plan and speed do not change. Chosen per call: the engine is known once the store
// is opened, not when this module is imported.
const auditFilter = () =>
  dialect({
    sqlite: `guild_id = @guild_id AND (@user_id IS NULL OR user_id = @user_id) AND (@action_type IS NULL OR action_type = @action_type)
  AND (@target_id IS NULL OR target_id = @target_id) AND id < @before AND id > @after`,
    postgresql: `guild_id = @guild_id AND (CAST(@user_id AS BIGINT) IS NULL OR user_id = @user_id)
  AND (CAST(@action_type AS INTEGER) IS NULL OR action_type = @action_type)
  AND (CAST(@target_id AS TEXT) IS NULL OR target_id = @target_id) AND id < @before AND id > @after`,
  });

/** The matching entries nearest `before`, newest first. */
export async function listAuditLogEntriesNewestFirst(filter: AuditLogFilter): Promise<AuditLogEntryRow[]> {
  return (await sql.all(
    `SELECT * FROM audit_log_entries WHERE ${auditFilter()} ORDER BY id DESC LIMIT @limit`,
    filter,
  )) as AuditLogEntryRow[];
}

/** The matching entries nearest `after`, oldest first. */
export async function listAuditLogEntriesOldestFirst(filter: AuditLogFilter): Promise<AuditLogEntryRow[]> {
  return (await sql.all(
    `SELECT * FROM audit_log_entries WHERE ${auditFilter()} ORDER BY id ASC LIMIT @limit`,
    filter,
  )) as AuditLogEntryRow[];
}
