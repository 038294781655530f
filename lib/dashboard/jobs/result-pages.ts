// Reads one page of a bulk job's per-member results (any kind of job) from the dashboard's tables: the counts by
// outcome, and the page's rows in user-id order. Server-side only (Prisma).
import { prisma } from "@/lib/dashboard/db";
import {
  countsByFilter,
  JOB_RESULT_STATES,
  JOB_RESULTS_PAGE_SIZE,
  type JobResultFilter,
  type JobResultRow,
  type JobResultsPage,
} from "./results";

export async function getJobResultsPage(
  jobId: string,
  filter: JobResultFilter,
  page: number,
  pageSize = JOB_RESULTS_PAGE_SIZE,
): Promise<JobResultsPage> {
  const groups = await prisma.bulkBanItem.groupBy({ by: ["state"], where: { jobId }, _count: { _all: true } });
  const counts = countsByFilter(Object.fromEntries(groups.map((g) => [g.state, g._count._all])));
  const pageCount = Math.max(1, Math.ceil(counts[filter] / pageSize));
  const shown = Math.min(page, pageCount);
  const states = JOB_RESULT_STATES[filter];
  const rows: JobResultRow[] = await prisma.bulkBanItem.findMany({
    where: { jobId, ...(states ? { state: { in: [...states] } } : {}) },
    select: { userId: true, name: true, state: true, detail: true },
    orderBy: { userId: "asc" },
    skip: (shown - 1) * pageSize,
    take: pageSize,
  });
  return { filter, page: shown, pageCount, counts, rows };
}
