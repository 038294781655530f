// The audit history's filters and order, as they travel in the URL (page, CSV export): the filters as their own keys,
// the order as ?sort=oldest (newest first, the default, stays out of the URL).
import type { AuditFilter } from "@/lib/dashboard/audit/history";
import { timeOrderOf, type TimeOrder } from "@/lib/dashboard/list-params";

type Params = Record<string, string | string[] | undefined> | URLSearchParams;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A history entry's id (a cuid) or a guild audit-log entry's (a snowflake). */
const ENTRY_ID = /^[a-z0-9]{1,40}$/;

export function auditFilterFrom(params: Params): AuditFilter {
  const get = (key: string) => {
    const value = params instanceof URLSearchParams ? params.get(key) : params[key];
    const one = Array.isArray(value) ? value[0] : value;
    return one?.trim() ? one.trim().slice(0, 200) : undefined;
  };
  const status = get("status");
  const source = get("source");
  return {
    actor: get("actor"),
    action: get("action"),
    target: get("target"),
    from: DATE.test(get("from") ?? "") ? get("from") : undefined,
    to: DATE.test(get("to") ?? "") ? get("to") : undefined,
    status: status === "success" || status === "error" ? status : undefined,
    q: get("q"),
    source: source === "dashboard" || source === "guild-log" ? source : undefined,
    entry: ENTRY_ID.test(get("entry") ?? "") ? get("entry") : undefined,
  };
}

/** The paging keys a new filter or sort clears: it starts again at the first page. */
export const AUDIT_PAGING_KEYS = ["cursor", "trail"] as const;

export const auditOrderFrom = (params: Params): TimeOrder =>
  timeOrderOf(params instanceof URLSearchParams ? params.get("sort") : params.sort);

export function auditFilterQuery(filter: AuditFilter): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) if (value) params.set(key, value);
  return params.toString();
}
