// The cases list's filters as they travel in the URL (page, CSV export): ?types= (case types, comma-separated), moderator,
// member (user ids), from and to (dates), q (a case number or words); paging with ?before=<case number>&trail=.
import { CASE_TYPES, type CaseType } from "@/lib/dashboard/cases/derive";
import type { CaseFilter } from "@/lib/dashboard/cases/store";

type Params = Record<string, string | string[] | undefined> | URLSearchParams;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const ID = /^\d{1,20}$/;

const all = (params: Params, key: string): string[] => {
  const value = params instanceof URLSearchParams ? params.getAll(key) : params[key];
  return (Array.isArray(value) ? value : value === undefined ? [] : [value]).map((v) => v.trim()).filter(Boolean);
};
const one = (params: Params, key: string) => all(params, key)[0]?.slice(0, 200);

export function caseFilterFrom(params: Params): CaseFilter {
  const types = (one(params, "types") ?? "")
    .split(",")
    .filter((type): type is CaseType => (CASE_TYPES as readonly string[]).includes(type));
  const moderator = one(params, "moderator");
  const member = one(params, "member");
  const from = one(params, "from");
  const to = one(params, "to");
  return {
    types: types.length ? [...new Set(types)] : undefined,
    moderatorId: moderator && ID.test(moderator) ? moderator : undefined,
    targetId: member && ID.test(member) ? member : undefined,
    from: from && DATE.test(from) ? from : undefined,
    to: to && DATE.test(to) ? to : undefined,
    search: one(params, "q"),
  };
}

/** The paging keys a new filter clears: it starts again at the first page. */
export const CASE_PAGING_KEYS = ["before", "trail"] as const;

/** The filter as query parameters (the CSV link, the pager's links). */
export function caseFilterParams(filter: CaseFilter): URLSearchParams {
  const params = new URLSearchParams();
  if (filter.types?.length) params.set("types", filter.types.join(","));
  if (filter.moderatorId) params.set("moderator", filter.moderatorId);
  if (filter.targetId) params.set("member", filter.targetId);
  if (filter.from) params.set("from", filter.from);
  if (filter.to) params.set("to", filter.to);
  if (filter.search) params.set("q", filter.search);
  return params;
}
