import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { JobStatus } from "@/lib/dashboard/jobs/bulk-ban/types";

const LOOK: Record<JobStatus, { label: string; tone: BadgeTone }> = {
  ready: { label: "Ready", tone: "neutral" },
  running: { label: "Running", tone: "blurple" },
  paused: { label: "Paused", tone: "warning" },
  cancelled: { label: "Cancelled", tone: "neutral" },
  completed: { label: "Completed", tone: "success" },
  undoing: { label: "Undoing", tone: "warning" },
  undone: { label: "Undone", tone: "neutral" },
};

export function JobStatusBadge({ status, label }: { status: JobStatus; label?: string }) {
  return <Badge tone={LOOK[status].tone}>{label ?? LOOK[status].label}</Badge>;
}
