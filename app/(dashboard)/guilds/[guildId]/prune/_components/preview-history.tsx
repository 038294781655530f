"use client";

// Earlier previews, with their age, and the outcome of the prune that ran on each, a page at a time; the Previewed
// header (and the Sort by select beside the table) sorts newest (the default) or oldest first, as the server reads
// them. A fresh unused preview can be picked
// up again.
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CardHeader } from "@/components/ui/card";
import { DataTable, type DataColumn, type ServerPage } from "@/components/data-table/data-table";
import { useUrlState } from "@/components/data-table/url-state";
import { SortSelect } from "@/components/data-table/sort-select";
import { DEFAULT_TIME_ORDER, TIME_SORT_OPTIONS, TIME_SORTS, type TimeOrder } from "@/lib/dashboard/list-params";

const PAGING_KEYS = ["cursor", "trail"] as const;
import { formatAge, formatCountdown } from "@/components/dashboard/durations";
import { useLocale } from "@/components/ui/locale";
import { formatExactTime } from "@/components/ui/relative-time";
import { previewState, type PrunePreviewView } from "@/lib/dashboard/actions/schemas/prune";

function Outcome({ preview, now, stale }: { preview: PrunePreviewView; now: number; stale: string[] }) {
  const state = previewState(preview, now);
  if (preview.runStatus === "success") {
    return (
      <span className="flex flex-col">
        <Badge tone="success">{preview.pruned === null ? "Pruned (not counted)" : `Pruned ${preview.pruned}`}</Badge>
        <span className="mt-0.5 text-xs text-ink-muted">
          by {preview.ranBy} {preview.ranAt ? formatAge(now - Date.parse(preview.ranAt)) : ""}
        </span>
      </span>
    );
  }
  if (preview.runStatus === "error")
    return (
      <Badge tone="danger" title={preview.runError ?? undefined}>
        Failed: {preview.runError}
      </Badge>
    );
  if (preview.runStatus === "running") return <Badge tone="warning">Running</Badge>;
  if (stale.length)
    return (
      <span className="flex flex-col">
        <Badge tone="warning">Out of date</Badge>
        <span className="mt-0.5 text-xs text-ink-muted">{stale.join("; ")}</span>
      </span>
    );
  if (state.kind === "fresh") return <Badge tone="blurple">Fresh for {formatCountdown(state.expiresAt - now)}</Badge>;
  return <Badge>Expired</Badge>;
}

/** The page of previews the server read, and how. */
export interface PreviewHistoryPage {
  previews: PrunePreviewView[];
  order: TimeOrder;
  /** The first page newest first: where a preview made just now goes. */
  showsNewest: boolean;
  pagination: ServerPage;
  hiddenColumns: readonly string[];
}

export function PreviewHistory({
  history,
  now,
  roleName,
  currentId,
  onUse,
  staleReasons,
  onRerun,
}: {
  history: PreviewHistoryPage;
  now: number;
  roleName: (id: string) => string;
  currentId: string | null;
  onUse: (preview: PrunePreviewView) => void;
  staleReasons: (preview: PrunePreviewView) => string[];
  onRerun: (preview: PrunePreviewView) => void;
}) {
  const locale = useLocale();
  const { pending } = useUrlState();
  const { previews } = history;
  const columns: DataColumn<PrunePreviewView>[] = [
    {
      id: "when",
      header: "Previewed",
      sort: TIME_SORTS,
      cell: ({ row }) => (
        <time
          dateTime={row.original.createdAt}
          title={formatExactTime(Date.parse(row.original.createdAt), locale, { seconds: true })}
          className="whitespace-nowrap"
        >
          {formatAge(now - Date.parse(row.original.createdAt))}
        </time>
      ),
    },
    { id: "who", header: "By", cell: ({ row }) => row.original.actorName },
    { id: "days", header: "Inactive", cell: ({ row }) => `${row.original.days} d` },
    {
      id: "roles",
      header: "Included roles",
      cell: ({ row }) =>
        row.original.roleIds.length ? (
          row.original.roleIds.map(roleName).join(", ")
        ) : (
          <span className="text-ink-muted">none</span>
        ),
    },
    {
      id: "count",
      header: "Count",
      cell: ({ row }) => <span className="font-semibold tabular-nums">{row.original.count}</span>,
    },
    {
      id: "outcome",
      header: "Outcome",
      cell: ({ row }) => <Outcome preview={row.original} now={now} stale={staleReasons(row.original)} />,
    },
    {
      id: "use",
      header: "Use",
      headerHidden: true,
      cell: ({ row }) =>
        row.original.runStatus === null && staleReasons(row.original).length ? (
          <Button
            size="sm"
            variant="secondary"
            onClick={() => onRerun(row.original)}
            aria-label={`Preview again: ${row.original.days} days, the same roles`}
          >
            Preview again
          </Button>
        ) : previewState(row.original, now).kind === "fresh" && row.original.id !== currentId ? (
          <Button
            size="sm"
            variant="secondary"
            onClick={() => onUse(row.original)}
            aria-label={`Use the preview of ${row.original.count} from ${formatAge(now - Date.parse(row.original.createdAt))}`}
          >
            Use
          </Button>
        ) : null,
    },
  ];
  return (
    <section aria-labelledby="prune-history-title">
      <CardHeader
        id="prune-history-title"
        title="Earlier previews"
        description="Every preview made here, with the prune that ran on each."
      />
      <DataTable
        id="prune-history"
        columns={columns}
        data={previews}
        getRowId={(p) => p.id}
        caption="Prune previews"
        emptyTitle="No previews yet"
        emptyText="Preview a prune above: the count and who asked for it are kept here."
        pagination={history.pagination}
        sorting={{ value: history.order, defaultValue: DEFAULT_TIME_ORDER, resets: PAGING_KEYS }}
        // The Previewed header's order in words, and on a phone (no header row there) the way to it.
        toolbar={
          <SortSelect
            id="prune-history-sort"
            value={history.order}
            options={TIME_SORT_OPTIONS}
            defaultValue={DEFAULT_TIME_ORDER}
            resets={PAGING_KEYS}
          />
        }
        hiddenColumns={history.hiddenColumns}
        selectedId={currentId}
        busy={pending}
      />
    </section>
  );
}
