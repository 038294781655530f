"use client";

// Follows a target-users job while it is PROCESSING: polls the dashboard's job-status route (which asks the API with
// the moderator's token) until COMPLETED or FAILED, then calls onSettled once.
import { useEffect, useRef, useState } from "react";
import { InviteTargetUsersJobStatus as JobStatus } from "discord-api-types/v10";
import type { TargetUsersJob } from "@/lib/dashboard/actions/schemas/invites";

const POLL_MS = 600;

export function jobStatusUrl(guildId: string, code: string): string {
  return `/guilds/${guildId}/invites/${encodeURIComponent(code)}/target-users/job-status`;
}

export function useJobStatus(
  guildId: string,
  code: string,
  initial: TargetUsersJob | null,
  onSettled: (job: TargetUsersJob) => void,
) {
  const [job, setJob] = useState<TargetUsersJob | null>(initial);
  const [error, setError] = useState<string | null>(null);
  const settled = useRef(onSettled);
  useEffect(() => {
    settled.current = onSettled;
  });
  const processing = job?.status === JobStatus.Processing;

  useEffect(() => {
    if (!processing) return;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout>;
    const poll = async () => {
      try {
        const response = await fetch(jobStatusUrl(guildId, code), { cache: "no-store" });
        const body = (await response.json()) as TargetUsersJob | { message: string };
        if (cancelled) return;
        if (!response.ok) {
          setError("message" in body ? body.message : `HTTP ${response.status}`);
          return;
        }
        const next = body as TargetUsersJob;
        setError(null);
        setJob(next);
        if (next.status === JobStatus.Processing) timer = setTimeout(poll, POLL_MS);
        else settled.current(next);
      } catch {
        if (!cancelled) {
          setError("The job status could not be read; retrying.");
          timer = setTimeout(poll, POLL_MS * 4);
        }
      }
    };
    timer = setTimeout(poll, POLL_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [guildId, code, processing]);

  return { job, setJob, error };
}
