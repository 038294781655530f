// A bulk job's per-member results as the job pages list them, for every kind of job (bulk ban, and the members
// page's role, timeout and kick jobs share the BulkBanItem table): filtered by outcome and read a page at a time from
// the server, so a job of 10,000 or 25,000 members is listed whole. The filter and the page live in the URL
// (?result=failed&page=3). Pure, so client components can import it.

export const JOB_RESULT_FILTERS = ["all", "done", "failed", "skipped", "unsent", "unbanned"] as const;
export type JobResultFilter = (typeof JOB_RESULT_FILTERS)[number];

/** The item states each filter shows ("done" is "banned" in a ban job); null: every state. */
export const JOB_RESULT_STATES: Record<JobResultFilter, readonly string[] | null> = {
  all: null,
  done: ["done", "banned"],
  failed: ["failed"],
  skipped: ["skipped"],
  unsent: ["pending", "sending"],
  unbanned: ["unbanned"],
};

export const JOB_RESULTS_PAGE_SIZE = 100;

export interface JobResultRow {
  userId: string;
  /** The member's name when the job was prepared (members-page jobs), else null. */
  name: string | null;
  state: string;
  detail: string | null;
}

export interface JobResultsPage {
  filter: JobResultFilter;
  /** 1-based. */
  page: number;
  pageCount: number;
  /** How many results each filter holds. */
  counts: Record<JobResultFilter, number>;
  rows: JobResultRow[];
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** The results' URL state, read leniently: anything unknown is the first page of every result. */
export function parseJobResultsQuery(query: { result?: string | string[]; page?: string | string[] }): {
  filter: JobResultFilter;
  page: number;
} {
  const result = first(query.result);
  const filter = (JOB_RESULT_FILTERS as readonly string[]).includes(result ?? "") ? (result as JobResultFilter) : "all";
  const page = Number(first(query.page));
  return { filter, page: Number.isSafeInteger(page) && page >= 1 ? page : 1 };
}

/** Counts by filter from counts by item state. */
export function countsByFilter(byState: Readonly<Record<string, number>>): Record<JobResultFilter, number> {
  const sum = (states: readonly string[] | null) =>
    states
      ? states.reduce((total, state) => total + (byState[state] ?? 0), 0)
      : Object.values(byState).reduce((a, b) => a + b, 0);
  return Object.fromEntries(JOB_RESULT_FILTERS.map((f) => [f, sum(JOB_RESULT_STATES[f])])) as Record<
    JobResultFilter,
    number
  >;
}
