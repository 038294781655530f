// What every bulk job's page reads first (bulk ban; the members page's role, timeout and kick jobs): whether the
// moderator may see its section, the job (404 when it is not a job of this kind in this guild), and the page of
// per-member results its URL asks for (?result=&page=), with the results table's columns this moderator hid.
import "server-only";
import { notFound } from "next/navigation";
import type { OperationName } from "@/lib/discord/policies";
import { getGuildViewer, refusal } from "@/lib/dashboard/data/viewer";
import { getJobResultsPage } from "./result-pages";
import { parseJobResultsQuery, type JobResultsPage } from "./results";
import { getHiddenColumns } from "@/lib/dashboard/table-preferences";

export interface JobPageProps {
  params: Promise<{ guildId: string; jobId: string }>;
  searchParams: Promise<{ result?: string | string[]; page?: string | string[] }>;
}

const JOB_ID = /^[a-z0-9]{1,40}$/;

export async function loadJobPage<J extends { id: string }>(
  { params, searchParams }: JobPageProps,
  section: OperationName,
  getJob: (guildId: string, jobId: string) => Promise<J | null>,
): Promise<
  | { guildId: string; blocked: string }
  | { guildId: string; blocked: null; job: J; results: JobResultsPage; hiddenColumns: string[] }
> {
  const { guildId, jobId } = await params;
  const viewer = await getGuildViewer(guildId);
  const blocked = refusal(viewer, section);
  if (blocked) return { guildId, blocked };
  const job = JOB_ID.test(jobId) ? await getJob(guildId, jobId) : null;
  if (!job) notFound();
  const { filter, page } = parseJobResultsQuery(await searchParams);
  const [results, hiddenColumns] = await Promise.all([
    getJobResultsPage(guildId, job.id, filter, page),
    getHiddenColumns(viewer.session.actor.id, "job-results"),
  ]);
  return { guildId, blocked: null, job, results, hiddenColumns };
}
