// Reads one page of a bulk job's per-member results (any kind of job) from the dashboard's tables: the counts by
// outcome, and the page's rows in user-id order, of a job of the guild named (another guild's job id matches
// nothing). Server-side only (Prisma).
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
  guildId: string,
  jobId: string,
  filter: JobResultFilter,
  page: number,
  pageSize = JOB_RESULTS_PAGE_SIZE,
): Promise<JobResultsPage> {
  // The items of this guild's job only (any kind: the page has read the job with its own kind's getter).
  const items = { jobId, job: { guildId } };
  const groups = await prisma.bulkBanItem.groupBy({ by: ["state"], where: items, _count: { _all: true } });
  const counts = countsByFilter(Object.fromEntries(groups.map((g) => [g.state, g._count._all])));
  const pageCount = Math.max(1, Math.ceil(counts[filter] / pageSize));
  const shown = Math.min(page, pageCount);
  const states = JOB_RESULT_STATES[filter];
  const rows: JobResultRow[] = await prisma.bulkBanItem.findMany({
    where: { ...items, ...(states ? { state: { in: [...states] } } : {}) },
    select: { userId: true, name: true, state: true, detail: true },
    orderBy: { userId: "asc" },
    skip: (shown - 1) * pageSize,
    take: pageSize,
  });
  return { filter, page: shown, pageCount, counts, rows };
}
