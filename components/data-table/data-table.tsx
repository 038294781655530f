"use client";

// The one generic server-paged table: it renders the rows the server sent for the current page through the page's
// column definitions (the server pages, sorts and filters), paging controls are links carrying the cursor in the
// URL, and rows are keyboard-reachable (the primary cell should hold a link or button).
// The rows are drawn straight from the columns. TanStack Table drew them until measured: its row model (a row and a
// cell object per value, each with a few dozen closures, for paging, sorting and filtering it was told not to do)
// was a quarter of what the members page allocated per render (1.4 of 5.7 MB), and the young generation's
// collections that allocation sets off are paid by whichever request is running, a next page's first byte too.
import type { ReactNode } from "react";
import Link from "next/link";
import { cn } from "@/components/ui/cn";
import { buttonClasses } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/card";

/** What a cell renderer is given: its row, with the row's id (getRowId) and position on the page. */
export interface CellContext<Row> {
  row: { id: string; index: number; original: Row };
}

/**
 * A column: its header and what each row shows in it. Renderers are called as functions, not mounted as components:
 * the pages' column definitions are inline functions, new on every render, so as components every re-render
 * remounted every cell, and the focused button of a row (the one a dialog returns the focus to) was lost.
 * Renderers therefore must not call hooks.
 */
export interface DataColumn<Row> {
  id: string;
  header: ReactNode | (() => ReactNode);
  cell: (context: CellContext<Row>) => ReactNode;
  /** Width in pixels; unset, the column takes what its content needs. */
  size?: number;
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
  columns: DataColumn<Row>[];
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
            <tr>
              {columns.map((column, index) => (
                <th
                  key={column.id}
                  scope="col"
                  className={cn("px-3 py-2 font-semibold", index === 0 && STICKY_FIRST)}
                  style={{ width: column.size }}
                >
                  {typeof column.header === "function" ? column.header() : column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data.map((original, rowIndex) => {
              const row = { id: getRowId(original), index: rowIndex, original };
              return (
                <tr
                  key={row.id}
                  aria-selected={selectedId === row.id || undefined}
                  className={cn(
                    "border-b border-line last:border-0 hover:bg-surface-sunken/60 aria-selected:bg-blurple/10",
                    rowClassName?.(original),
                  )}
                >
                  {columns.map((column, index) => (
                    <td key={column.id} className={cn("px-3 py-2 align-middle", index === 0 && STICKY_FIRST)}>
                      {column.cell({ row })}
                    </td>
                  ))}
                </tr>
              );
            })}
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
