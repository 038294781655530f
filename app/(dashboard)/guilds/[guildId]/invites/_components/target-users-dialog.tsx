"use client";

// One invite's target users: the current state of its list, a CSV upload (every bad line the API names is listed,
// nothing is saved until the file is clean), the job saving a good file followed to the end, and the current list as
// a download (through the dashboard, which holds the token).
import { useRef, useState, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { InviteTargetUsersJobStatus as JobStatus } from "discord-api-types/v10";
import { Button, buttonClasses } from "@/components/ui/button";
import { DisabledReason } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { Field, fieldProps } from "@/components/ui/field";
import { Icons } from "@/components/ui/icons";
import { Input } from "@/components/ui/input";
import { useAction } from "@/components/dashboard/use-action";
import { updateInviteTargetUsersAction } from "@/lib/dashboard/actions/invites";
import {
  countTargetUserLines,
  parseTargetUsersProblem,
  TARGET_USERS_FILE_MAX_BYTES,
} from "@/lib/dashboard/actions/schemas/invites";
import type { TargetUsersJob } from "@/lib/dashboard/actions/schemas/invites";
import type { InviteRow } from "@/lib/dashboard/data/invites";
import { useJobStatus } from "./use-job-status";
import { formatNumber, useLocale } from "@/components/ui/locale";
import { DataTable, type DataColumn } from "@/components/data-table/data-table";

const PENDING_JOB = (total: number): TargetUsersJob => ({
  status: JobStatus.Processing,
  total,
  processed: 0,
  completedAt: null,
  errorMessage: null,
});

export function TargetUsersDialog({
  guildId,
  invite,
  uploadBlocked,
  onClose,
}: {
  guildId: string;
  invite: InviteRow;
  uploadBlocked: string | null;
  onClose: () => void;
}) {
  const router = useRouter();
  const locale = useLocale();
  const {
    job,
    setJob,
    error: pollError,
  } = useJobStatus(guildId, invite.code, invite.targetUsers, () => router.refresh());
  const { run, pending } = useAction(updateInviteTargetUsersAction, { failure: "The target users were not saved" });
  const fileRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [problems, setProblems] = useState<string[]>([]);

  const pick = async (picked: File | undefined) => {
    setProblems([]);
    setFile(null);
    setFileError(null);
    if (!picked) return;
    if (picked.size > TARGET_USERS_FILE_MAX_BYTES) {
      setFileError(
        `At most ${Math.round(TARGET_USERS_FILE_MAX_BYTES / 1024)} KB (this file is ${Math.round(picked.size / 1024)} KB).`,
      );
      return;
    }
    setFile({ name: picked.name, text: await picked.text() });
  };

  const upload = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) {
      setFileError("Choose a CSV file first.");
      return;
    }
    const result = await run({ guildId, code: invite.code, csv: file.text, fileName: file.name });
    if (!result.ok) {
      const messages = result.fieldErrors.csv ?? [];
      // The API's answer (a code) names each bad line; the form's own check (no code) is about the file as a whole.
      if (result.code !== undefined && messages.length > 0) setProblems(messages);
      else if (messages.length > 0) setFileError(messages.join(" "));
      return;
    }
    setProblems([]);
    setFile(null);
    if (fileRef.current) fileRef.current.value = "";
    setJob(result.data.job ?? PENDING_JOB(countTargetUserLines(file.text)));
    if (result.data.job && result.data.job.status !== JobStatus.Processing) router.refresh();
  };

  return (
    <Dialog
      open
      onClose={onClose}
      dirty={file !== null}
      title={`Target users of ${invite.code}`}
      description="Only the users on this list can accept the invite. An empty list lets anyone with the link join."
      size="lg"
    >
      <div className="flex flex-col gap-5">
        <section
          aria-label="Current list"
          className="flex flex-col gap-3 rounded-lg bg-surface-raised p-4 ring-1 ring-line"
        >
          <JobSummary job={job} />
          {pollError && (
            <p role="alert" className="text-sm text-danger">
              {pollError}
            </p>
          )}
          <div>
            <a
              href={`/guilds/${guildId}/invites/${encodeURIComponent(invite.code)}/target-users`}
              download
              className={buttonClasses("secondary", "sm")}
            >
              <Icons.download className="size-4" /> Download current list
            </a>
          </div>
        </section>

        <form onSubmit={upload} noValidate aria-label="Upload target users" className="flex flex-col gap-3">
          <Field
            id="target-users-file"
            label="CSV file of user ids"
            hint={`One user id per line, optionally under a user_id header. It replaces the whole list. At most ${Math.round(TARGET_USERS_FILE_MAX_BYTES / 1024)} KB.`}
            error={fileError ?? undefined}
          >
            <Input
              ref={fileRef}
              type="file"
              accept=".csv,text/csv,text/plain"
              disabled={Boolean(uploadBlocked)}
              className="h-auto py-1.5 file:mr-3 file:rounded file:border-0 file:bg-surface-raised file:px-2 file:py-1 file:text-sm file:text-ink"
              {...fieldProps("target-users-file", fileError ?? undefined)}
              onChange={(e) => void pick(e.target.files?.[0])}
            />
          </Field>
          {file && (
            <p className="text-sm text-ink-muted">
              {file.name}: {formatNumber(countTargetUserLines(file.text), locale)} lines with a user id.
            </p>
          )}
          <div className="flex flex-wrap items-center justify-end gap-3">
            <DisabledReason reason={uploadBlocked} />
            <Button
              type="submit"
              pending={pending}
              disabled={Boolean(uploadBlocked) || job?.status === JobStatus.Processing}
            >
              Upload list
            </Button>
          </div>
        </form>

        {problems.length > 0 && <FileProblems problems={problems} />}
      </div>
    </Dialog>
  );
}

function JobSummary({ job }: { job: TargetUsersJob | null }) {
  const locale = useLocale();
  if (!job) return <p className="text-sm text-ink-muted">The state of the list could not be read.</p>;
  const percent = job.total === 0 ? 100 : Math.round((job.processed / job.total) * 100);
  const count = (n: number) => `${formatNumber(n, locale)} user${n === 1 ? "" : "s"}`;
  return (
    <div className="flex flex-col gap-2" aria-live="polite">
      {job.status === JobStatus.Unspecified && <p className="text-sm">No list: anyone with the link can join.</p>}
      {job.status === JobStatus.Processing && (
        <p className="text-sm font-medium">
          Saving the list: {formatNumber(job.processed, locale)} of {count(job.total)}…
        </p>
      )}
      {job.status === JobStatus.Completed && (
        <p className="text-sm font-medium text-success">
          Completed:{" "}
          {job.total === 0
            ? "the list is empty, anyone with the link can join."
            : `${count(job.total)} can accept this invite.`}
        </p>
      )}
      {job.status === JobStatus.Failed && (
        <p role="alert" className="text-sm font-medium text-danger">
          Failed: {job.errorMessage ?? "the list could not be saved."}
        </p>
      )}
      {job.status !== JobStatus.Unspecified && (
        <div
          role="progressbar"
          aria-label="Target users saved"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          aria-valuetext={`${percent}%`}
          className="h-2 overflow-hidden rounded-full bg-surface-sunken ring-1 ring-inset ring-line"
        >
          <div
            className={`h-full transition-[width] ${job.status === JobStatus.Failed ? "bg-danger" : job.status === JobStatus.Completed ? "bg-success" : "bg-blurple"}`}
            style={{ width: `${percent}%` }}
          />
        </div>
      )}
    </div>
  );
}

interface FileProblem {
  key: string;
  line: number | null;
  problem: string;
}

const PROBLEM_COLUMNS: DataColumn<FileProblem>[] = [
  {
    id: "line",
    header: "Line",
    size: 80,
    cell: ({ row }) => <span className="tabular-nums">{row.original.line ?? "—"}</span>,
  },
  { id: "problem", header: "Problem", cell: ({ row }) => <span className="break-all">{row.original.problem}</span> },
];

function FileProblems({ problems }: { problems: string[] }) {
  const rows = problems.map((message, i): FileProblem => ({ key: String(i), ...parseTargetUsersProblem(message) }));
  return (
    <section aria-label="Problems in the file" className="rounded-lg border border-danger/40 bg-danger/10 p-4">
      <p role="alert" className="mb-3 text-sm font-semibold text-danger">
        Nothing was saved: {problems.length} line{problems.length === 1 ? "" : "s"} need
        {problems.length === 1 ? "s" : ""} fixing.
      </p>
      <DataTable
        id="target-user-problems"
        compact
        columns={PROBLEM_COLUMNS}
        data={rows}
        getRowId={(row) => row.key}
        caption="Bad lines in the file"
        emptyTitle="No bad lines"
      />
    </section>
  );
}
