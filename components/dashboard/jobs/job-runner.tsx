"use client";

// The one runner of every bulk job (bulk ban; the members page's role, timeout and kick jobs). It drives a job from
// the browser, one chunk after another, the next only after the last has answered; what a chunk is (ids the page
// picks for Bulk Guild Ban, or members the server picks) is the job kind's `JobMode`. A rate limit the API client
// did not wait out by itself is waited out here before the next chunk. Pausing stops calling (the chunk in flight
// finishes); a reload resumes from the job as the server stored it. After each chunk the page is refreshed, so its
// results list (server-paged) shows what the chunk did.
import { useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { useToast } from "@/components/ui/toast";
import { JobProgress } from "@/components/dashboard/job-progress";
import { JobStatusBadge } from "@/components/dashboard/jobs/job-status";
import type { JobStatus } from "@/lib/dashboard/jobs/bulk-ban/types";

export interface RunnerJob {
  id: string;
  status: JobStatus;
  reason: string | null;
  counts: { total: number; skipped: number; pending: number; sending: number };
}

type Variant = "primary" | "danger" | "secondary";

/** One way of driving a job: sending it (every kind), or undoing a bulk ban. */
export interface JobMode<J extends RunnerJob> {
  id: string;
  /** Whether its button is offered (nothing is being driven). */
  available(job: J): boolean;
  button(job: J): string;
  variant: Variant;
  /** Asked before it begins, or null to begin at once (resuming). */
  confirm(job: J): { title: string; description: string; button: string } | null;
  /** The progress bar's label while it runs. */
  working: string;
  /** Starts (or resumes): the job as it now stands, or null when refused (the action's toast said why). */
  begin(job: J): Promise<J | null>;
  /** One chunk: the job after it and how long a rate limit asks to wait (seconds), or null when refused. */
  step(job: J): Promise<{ job: J; retryAfter?: number | null } | null>;
  /** Whether there is more to drive. */
  more(job: J): boolean;
  /** The toast once it has finished, or null. */
  finished(job: J): { title: string; text: string } | null;
}

type Control = () => Promise<{ ok: boolean }>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function JobRunner<J extends RunnerJob>({
  job: stored,
  modes,
  pause,
  cancel,
  summary,
  progress,
  progressId,
  pausePending,
  cancelPending,
  children,
}: {
  job: J;
  /** The first mode sends the job; Pause stops it. */
  modes: ReadonlyArray<JobMode<J>>;
  pause: Control;
  cancel: Control;
  /** "437 ids: 430 to send, 7 skipped". */
  summary(job: J): React.ReactNode;
  progress(job: J): {
    processed: number;
    toSend: number;
    stats: Array<{ label: string; value: number; tone?: string }>;
  };
  progressId: string;
  pausePending?: boolean;
  cancelPending?: boolean;
  /** Notes under the progress bar, given the job and whether it is being driven. */
  children?: (job: J, driving: boolean) => React.ReactNode;
}) {
  const router = useRouter();
  const toast = useToast();
  const [job, setJob] = useState(stored);
  const [seen, setSeen] = useState(stored);
  const [driving, setDriving] = useState<string | null>(null);
  const [waiting, setWaiting] = useState<number | null>(null);
  const [confirming, setConfirming] = useState<JobMode<J> | null>(null);
  const stop = useRef(false);
  // While driving, the runner's own copy is the truth; otherwise the server's latest render is.
  if (stored !== seen && !driving) {
    setSeen(stored);
    setJob(stored);
  }

  async function drive(mode: JobMode<J>) {
    stop.current = false;
    setDriving(mode.id);
    let current = await mode.begin(job);
    if (current) {
      setJob(current);
      while (!stop.current && mode.more(current)) {
        const result = await mode.step(current);
        if (!result) break;
        current = result.job;
        setJob(current);
        router.refresh();
        if (result.retryAfter) {
          // Rate limited for longer than the client waits by itself: wait, then carry on.
          setWaiting(result.retryAfter);
          await sleep(result.retryAfter * 1000);
          setWaiting(null);
        }
      }
      const done = mode.finished(current);
      if (done) toast.success(done.title, done.text);
    }
    setDriving(null);
    router.refresh();
  }

  async function stopWith(control: Control, status: JobStatus) {
    stop.current = true;
    const result = await control();
    if (result.ok) setJob((j) => ({ ...j, status }));
  }

  const [send] = modes;
  const interrupted = job.status === "running" && !driving;
  const canCancel = ["ready", "running", "paused"].includes(job.status);
  const active = modes.find((m) => m.id === driving);
  const { processed, toSend, stats } = progress(job);
  const ask = confirming?.confirm(job);

  return (
    <>
      <Card>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div className="flex items-center gap-2">
            <JobStatusBadge status={job.status} label={interrupted ? "Interrupted" : undefined} />
            <span className="text-sm text-ink-muted" data-testid="job-summary">
              {summary(job)}
            </span>
          </div>
          <div className="flex flex-wrap gap-2">
            {!driving &&
              modes
                .filter((mode) => mode.available(job))
                .map((mode) => (
                  <Button
                    key={mode.id}
                    variant={mode.variant}
                    onClick={() => (mode.confirm(job) ? setConfirming(mode) : void drive(mode))}
                  >
                    {mode.button(job)}
                  </Button>
                ))}
            {(driving === send.id || interrupted) && (
              <Button variant="secondary" onClick={() => void stopWith(pause, "paused")} pending={pausePending}>
                {driving ? "Pause" : "Mark paused"}
              </Button>
            )}
            {canCancel && (
              <Button variant="ghost" onClick={() => void stopWith(cancel, "cancelled")} pending={cancelPending}>
                Cancel job
              </Button>
            )}
          </div>
        </div>

        <div className="mt-5">
          <JobProgress
            id={progressId}
            label={waiting ? `Rate limited: waiting ${Math.ceil(waiting)} s…` : active ? active.working : "Progress"}
            processed={processed}
            toSend={toSend}
            stats={stats}
          />
          {children?.(job, driving !== null)}
        </div>
      </Card>

      <Dialog
        open={ask != null}
        onClose={() => setConfirming(null)}
        size="sm"
        title={ask?.title ?? ""}
        description={ask?.description}
        footer={
          <>
            <Button variant="ghost" onClick={() => setConfirming(null)}>
              Back
            </Button>
            <Button
              variant={confirming?.variant ?? "primary"}
              onClick={() => {
                const mode = confirming!;
                setConfirming(null);
                void drive(mode);
              }}
            >
              {ask?.button}
            </Button>
          </>
        }
      >
        <p className="text-sm">Reason sent with every request: {job.reason ?? "none"}.</p>
      </Dialog>
    </>
  );
}
