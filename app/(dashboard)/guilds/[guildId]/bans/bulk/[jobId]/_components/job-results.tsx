"use client";

// Every id of the job with who it is (avatar, name, the id to copy) and its result (banned, failed and why, skipped and
// why, not sent, unbanned), filterable by result and shown a page at a time: a job can hold thousands of ids, so
// names are looked up for the rows shown.
import { useMemo, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { UserChip } from "@/components/dashboard/user-chip";
import { useUserRefs } from "@/components/dashboard/use-user-refs";
import type { ItemState, JobItem } from "@/lib/dashboard/jobs/bulk-ban/types";
import { placeholderUser } from "@/lib/dashboard/users/user-ref";

const PAGE = 100;
const FILTERS = [
  { id: "all", label: "All", states: null },
  { id: "banned", label: "Banned", states: ["banned"] },
  { id: "failed", label: "Failed", states: ["failed"] },
  { id: "skipped", label: "Skipped", states: ["skipped"] },
  { id: "unsent", label: "Not sent", states: ["pending", "sending"] },
  { id: "unbanned", label: "Unbanned", states: ["unbanned"] },
] as const satisfies ReadonlyArray<{ id: string; label: string; states: readonly ItemState[] | null }>;

const RESULT: Record<ItemState, { label: string; tone: "neutral" | "blurple" | "danger" | "success" | "warning" }> = {
  pending: { label: "Not sent", tone: "neutral" },
  sending: { label: "Sent, no answer", tone: "warning" },
  banned: { label: "Banned", tone: "success" },
  failed: { label: "Failed", tone: "danger" },
  skipped: { label: "Skipped", tone: "neutral" },
  unbanned: { label: "Unbanned", tone: "blurple" },
};

export function JobResults({ guildId, items }: { guildId: string; items: JobItem[] }) {
  const [filter, setFilter] = useState<(typeof FILTERS)[number]["id"]>("all");
  const [shown, setShown] = useState(PAGE);
  const counts = useMemo(
    () =>
      new Map(
        FILTERS.map((f) => [
          f.id,
          f.states ? items.filter((i) => (f.states as readonly ItemState[]).includes(i.state)).length : items.length,
        ]),
      ),
    [items],
  );
  const active = FILTERS.find((f) => f.id === filter)!;
  const rows = useMemo(
    () => (active.states ? items.filter((i) => (active.states as readonly ItemState[]).includes(i.state)) : items),
    [items, active],
  );

  const visible = rows.slice(0, shown);
  const people = useUserRefs(
    guildId,
    visible.map((item) => item.userId),
  );

  return (
    <Card>
      <CardHeader title="Results per id" />
      <div role="group" aria-label="Show results" className="mb-3 flex flex-wrap gap-1.5">
        {FILTERS.map((f) => (
          <button
            key={f.id}
            type="button"
            aria-pressed={filter === f.id}
            onClick={() => {
              setFilter(f.id);
              setShown(PAGE);
            }}
            className={cn(
              "rounded-full px-3 py-1 text-sm ring-1 ring-inset ring-line hover:bg-surface-sunken",
              filter === f.id && "bg-blurple/15 text-blurple ring-blurple/40 dark:text-white",
            )}
          >
            {f.label} <span className="tabular-nums text-ink-muted">{counts.get(f.id)!.toLocaleString("en-US")}</span>
          </button>
        ))}
      </div>
      <div className="overflow-x-auto rounded-lg ring-1 ring-line">
        <table className="w-full min-w-[32rem] text-sm" aria-label="Results per id">
          <thead className="border-b border-line text-left text-xs uppercase tracking-wide text-ink-muted">
            <tr>
              <th scope="col" className="px-3 py-2 font-semibold">
                User
              </th>
              <th scope="col" className="px-3 py-2 font-semibold">
                Result
              </th>
              <th scope="col" className="px-3 py-2 font-semibold">
                Why
              </th>
            </tr>
          </thead>
          <tbody>
            {visible.map((item) => (
              <tr key={item.userId} data-user-id={item.userId} className="border-b border-line last:border-0">
                <td className="px-3 py-1.5">
                  <UserChip user={people[item.userId] ?? placeholderUser(item.userId)} size={24} />
                </td>
                <td className="px-3 py-1.5">
                  <Badge tone={RESULT[item.state].tone}>{RESULT[item.state].label}</Badge>
                </td>
                <td className="px-3 py-1.5 text-ink-muted">
                  {item.state === "sending" ? "checked with the API on resume" : (item.detail ?? "")}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {rows.length === 0 && <p className="p-4 text-center text-sm text-ink-muted">No ids here.</p>}
      </div>
      {rows.length > shown && (
        <div className="mt-3 flex items-center justify-between gap-2 text-sm text-ink-muted">
          <span>
            Showing {shown.toLocaleString("en-US")} of {rows.length.toLocaleString("en-US")}
          </span>
          <Button variant="secondary" size="sm" onClick={() => setShown((n) => n + PAGE * 5)}>
            Show more
          </Button>
        </div>
      )}
    </Card>
  );
}
