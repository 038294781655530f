// The bulk-ban job as pages and the job runner see it. Pure, so client components can import it.

export type JobStatus = "ready" | "running" | "paused" | "cancelled" | "completed" | "undoing" | "undone";
/** "sending": claimed for a Bulk Guild Ban request whose answer has not been recorded yet. */
export type ItemState = "pending" | "sending" | "banned" | "failed" | "skipped" | "unbanned";

export interface JobItem {
  userId: string;
  state: ItemState;
  detail: string | null;
}

export type JobCounts = Record<ItemState, number> & { total: number };

export interface BulkBanJobView {
  id: string;
  guildId: string;
  actorId: string;
  actorName: string;
  reason: string | null;
  status: JobStatus;
  deleteMessageSeconds: number;
  invalid: string[];
  createdAt: string;
  updatedAt: string;
  counts: JobCounts;
  /** Ascending by user id. */
  items: JobItem[];
}

export type BulkBanJobSummary = Omit<BulkBanJobView, "items" | "invalid">;

export function countItems(items: ReadonlyArray<{ state: string }>): JobCounts {
  const counts: JobCounts = {
    total: items.length,
    pending: 0,
    sending: 0,
    banned: 0,
    failed: 0,
    skipped: 0,
    unbanned: 0,
  };
  for (const item of items) counts[item.state as ItemState]++;
  return counts;
}
