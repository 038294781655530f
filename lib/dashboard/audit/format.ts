// Pure helpers over audit history entries (CSV export, before/after diffs), safe for client components.
import { csvLine } from "@/lib/dashboard/csv";
import { actionLabel } from "./sentences";

export interface AuditEntryView {
  id: string;
  createdAt: string;
  actorId: string;
  actorName: string;
  action: string;
  targetType: string | null;
  targetId: string | null;
  targetName: string | null;
  reason: string | null;
  request: unknown;
  before: unknown;
  after: unknown;
  status: string;
  httpStatus: number | null;
  error: string | null;
  /** "dashboard", or "guild-log" when imported from the guild's own audit log. */
  source: string;
  /** The guild audit log entry this row shows, when known. */
  auditLogId: string | null;
  actorBot: boolean;
}

const CSV_COLUMNS = [
  "time",
  "actor_id",
  "actor_name",
  "action",
  "target_type",
  "target_id",
  "target_name",
  "reason",
  "status",
  "http_status",
  "error",
  "request",
  "before",
  "after",
  "source",
  "audit_log_id",
  "summary",
] as const;

/**
 * The history as CSV; `summary` gives each entry's sentence (the page's words) when the caller has them. The action
 * is the filter menu's label ("Ban"), as the page says it; the stored operation name stays in the database.
 */
export function auditEntriesToCsv(
  entries: readonly AuditEntryView[],
  summary: (entry: AuditEntryView) => string = () => "",
): string {
  let csv = csvLine(CSV_COLUMNS);
  for (const e of entries) {
    csv += csvLine([
      e.createdAt,
      e.actorId,
      e.actorName,
      actionLabel(e.action),
      e.targetType,
      e.targetId,
      e.targetName,
      e.reason,
      e.status,
      e.httpStatus,
      e.error,
      e.request,
      e.before,
      e.after,
      e.source,
      e.auditLogId,
      summary(e),
    ]);
  }
  return csv;
}

export interface DiffRow {
  field: string;
  before: unknown;
  after: unknown;
}

/** Field-by-field differences between two snapshots (top-level keys; nested values compared as JSON). */
export function diffSnapshots(before: unknown, after: unknown): DiffRow[] {
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === "object" && v !== null && !Array.isArray(v);
  if (!isObject(before) && !isObject(after)) {
    return JSON.stringify(before) === JSON.stringify(after)
      ? []
      : [{ field: "value", before: before ?? null, after: after ?? null }];
  }
  const b = isObject(before) ? before : {};
  const a = isObject(after) ? after : {};
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return keys
    .filter((key) => JSON.stringify(b[key]) !== JSON.stringify(a[key]))
    .map((key) => ({ field: key, before: key in b ? b[key] : null, after: key in a ? a[key] : null }));
}
