"use client";

// The one generic server-paged table: TanStack Table v8 renders the rows the server sent for the current page
// (manual pagination, no client-side sorting or filtering), paging controls are links carrying the cursor in the
// URL, and rows are keyboard-reachable (the primary cell should hold a link or button).
import type { ReactNode } from "react";
import Link from "next/link";
import { getCoreRowModel, useReactTable, type ColumnDef } from "@tanstack/react-table";
import { cn } from "@/components/ui/cn";
import { buttonClasses } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/card";

/**
 * A header or cell renderer's output. Called as a function, not mounted as a component as TanStack's flexRender
 * does: the pages' column definitions are inline functions, new on every render, so as components every re-render
 * remounted every cell, and the focused button of a row (the one a dialog returns the focus to) was lost.
 * Renderers therefore must not call hooks.
 */
function render<Context>(renderer: ReactNode | ((context: Context) => ReactNode) | undefined, context: Context) {
  return typeof renderer === "function" ? renderer(context) : renderer;
}

/** On a narrow screen the table scrolls sideways inside its frame while its first column (what a row is) stays. */
const STICKY_FIRST = "sticky left-0 z-[1] bg-surface-raised";

export interface ServerPage {
  /** 1-based page number, for display. */
  page: number;
  previousHref: string | null;
  nextHref: string | null;
  /** e.g. "Showing 1-50" */
  summary?: string;
}

export interface DataTableProps<Row> {
  columns: ColumnDef<Row, unknown>[];
  data: Row[];
  getRowId: (row: Row) => string;
  pagination: ServerPage;
  caption: string;
  emptyTitle: string;
  emptyText?: string;
  /** Marks the row that is open in a side panel. */
  selectedId?: string | null;
  busy?: boolean;
  rowClassName?: (row: Row) => string | undefined;
}

export function DataTable<Row>({
  columns,
  data,
  getRowId,
  pagination,
  caption,
  emptyTitle,
  emptyText,
  selectedId,
  busy,
  rowClassName,
}: DataTableProps<Row>) {
  const table = useReactTable({
    data,
    columns,
    getRowId,
    getCoreRowModel: getCoreRowModel(),
    manualPagination: true,
    manualFiltering: true,
    manualSorting: true,
  });

  return (
    <div className="flex flex-col gap-3">
      <div
        className={cn(
          "relative overflow-x-auto rounded-lg bg-surface-raised ring-1 ring-line transition-opacity",
          busy && "opacity-60",
        )}
        aria-busy={busy || undefined}
      >
        <table className="w-full min-w-[44rem] text-sm">
          <caption className="sr-only">{caption}</caption>
          <thead className="border-b border-line text-left text-xs uppercase tracking-wide text-ink-muted">
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header, index) => (
                  <th
                    key={header.id}
                    scope="col"
                    className={cn("px-3 py-2 font-semibold", index === 0 && STICKY_FIRST)}
                    style={{ width: header.column.columnDef.size !== 150 ? header.column.columnDef.size : undefined }}
                  >
                    {header.isPlaceholder ? null : render(header.column.columnDef.header, header.getContext())}
                  </th>
                ))}
              </tr>
            ))}
          </thead>
          <tbody>
            {table.getRowModel().rows.map((row) => (
              <tr
                key={row.id}
                aria-selected={selectedId === row.id || undefined}
                className={cn(
                  "border-b border-line last:border-0 hover:bg-surface-sunken/60 aria-selected:bg-blurple/10",
                  rowClassName?.(row.original),
                )}
              >
                {row.getVisibleCells().map((cell, index) => (
                  <td key={cell.id} className={cn("px-3 py-2 align-middle", index === 0 && STICKY_FIRST)}>
                    {render(cell.column.columnDef.cell, cell.getContext())}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        {data.length === 0 && (
          <div className="p-4">
            <EmptyState title={emptyTitle}>{emptyText}</EmptyState>
          </div>
        )}
      </div>
      <nav aria-label="Pages" className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <span className="text-ink-muted">
          Page {pagination.page}
          {pagination.summary ? ` · ${pagination.summary}` : ""}
        </span>
        <span className="flex gap-2">
          {pagination.previousHref ? (
            <Link href={pagination.previousHref} scroll={false} className={buttonClasses("secondary", "sm")} rel="prev">
              ← Previous
            </Link>
          ) : (
            <span
              aria-disabled="true"
              className={cn(buttonClasses("secondary", "sm"), "pointer-events-none opacity-50")}
            >
              ← Previous
            </span>
          )}
          {pagination.nextHref ? (
            <Link href={pagination.nextHref} scroll={false} className={buttonClasses("secondary", "sm")} rel="next">
              Next →
            </Link>
          ) : (
            <span
              aria-disabled="true"
              className={cn(buttonClasses("secondary", "sm"), "pointer-events-none opacity-50")}
            >
              Next →
            </span>
          )}
        </span>
      </nav>
    </div>
  );
}
