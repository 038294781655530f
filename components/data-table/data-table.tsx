"use client";

// The one table of the dashboard, on TanStack Table (v9) and driven by the server: the server sorts, filters and
// pages; the table keeps the sort in the URL (a header's button, aria-sort), selects rows (checkboxes, shift-click for
// a range, TanStack's own range selection), hides the columns the moderator chose to hide (remembered per moderator,
// lib/dashboard/table-preferences.ts), pins its first column and its header while the rows scroll, and on a phone
// draws each row as a card whose cells carry their column's name, so nothing needs sideways scrolling.
// Cells are drawn by calling the page's renderers, not mounted as components: the pages' column definitions are inline
// functions, new on every render, so as components every re-render remounted every cell, and the focused button of
// a row (the one a dialog returns the focus to) was lost. Renderers therefore must not call hooks.
import { useMemo, useState, type HTMLAttributes, type ReactNode } from "react";
import Link from "next/link";
import {
  columnPinningFeature,
  columnVisibilityFeature,
  functionalUpdate,
  rowSelectionFeature,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type ColumnDef,
  type ColumnVisibilityState,
  type RowData,
  type RowSelectionState,
  type SortingState,
  type Updater,
} from "@tanstack/react-table";
import { cn } from "@/components/ui/cn";
import { buttonClasses } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/card";
import { useUrlState } from "./url-state";
import { ColumnsMenu } from "./columns-menu";
import { HIDEABLE_COLUMNS, type TableId } from "@/lib/dashboard/table-columns";
import { saveTableColumnsAction } from "@/lib/dashboard/actions/table-preferences";

const features = tableFeatures({
  rowSortingFeature,
  rowSelectionFeature,
  columnVisibilityFeature,
  columnPinningFeature,
});

/** What a cell renderer is given: its row, with the row's id (getRowId) and position on the page. */
export interface CellContext<Row> {
  row: { id: string; index: number; original: Row };
}

/** The URL values a sortable column's header switches between (what the server knows how to sort by). */
export interface ColumnSort {
  ascending: string;
  descending: string;
  /** The first click sorts descending (newest, most used first). */
  descendingFirst?: boolean;
}

export interface DataColumn<Row> {
  id: string;
  /** The column's name: its header, its label on a phone's card and in the Columns menu. */
  header: string;
  /** Only screen readers hear the header (a row's actions); the phone card shows no label either. */
  headerHidden?: boolean;
  cell: (context: CellContext<Row>) => ReactNode;
  /** Width in pixels; unset, the column takes what its content needs. */
  size?: number;
  sort?: ColumnSort;
  /** Numbers line up on the right. */
  align?: "right";
}

export interface ServerPage {
  /** 1-based page number, for display. */
  page: number;
  previousHref: string | null;
  nextHref: string | null;
  /** e.g. "Showing 1-50" */
  summary?: string;
}

/** The server's sort as it stands in the URL. */
export interface UrlSorting {
  value: string;
  /** The value the page sorts by when the URL names none (kept out of the URL). */
  defaultValue: string;
  /** Default "sort". */
  param?: string;
  /** URL keys a new sort clears (paging cursors). */
  resets?: readonly string[];
}

export interface RowSelection<Row> {
  selected: ReadonlySet<string>;
  onChange: (next: ReadonlySet<string>) => void;
  /** A row's name in its checkbox's label ("Select ada_fox"). */
  rowLabel: (row: Row) => string;
  /** What the rows are, for the header's checkbox ("Select every member on this page"). */
  noun: string;
  canSelect?: (row: Row) => boolean;
}

export interface DataTableProps<Row> {
  /** Which table, for the columns the moderator hides (lib/dashboard/table-columns.ts). */
  id: TableId;
  columns: DataColumn<Row>[];
  data: Row[];
  getRowId: (row: Row) => string;
  caption: string;
  emptyTitle: string;
  emptyText?: ReactNode;
  /** The server's paging; a table that shows every row has none. */
  pagination?: ServerPage;
  sorting?: UrlSorting;
  selection?: RowSelection<Row>;
  /** The columns this moderator hid, as saved. */
  hiddenColumns?: readonly string[];
  /** Drawn on the left of the table's toolbar (filters' summary, bulk actions). */
  toolbar?: ReactNode;
  /** Marks the row that is open in a side panel. */
  selectedId?: string | null;
  busy?: boolean;
  rowClassName?: (row: Row) => string | undefined;
  /** Extra attributes of a row's <tr> (data-* for tests, drag handlers). */
  rowProps?: (row: Row) => HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string>;
  /**
   * A short table in a narrow place (a dialog's list): as wide as its container instead of at least 40rem, and at
   * most 16rem tall, its rows scrolling under the header.
   */
  compact?: boolean;
}

const SELECT_COLUMN = "select";

/**
 * The header whose button asked for a new sort, until the table shows that sort: the page may draw a new table for it
 * (a Suspense boundary keyed by the sort), which would leave the keyboard on the page's body; the new table's header
 * takes the focus back.
 */
let sortFocus: { table: TableId; column: string; value: string } | null = null;
const serverSorted = () => null;

const ariaSort = (direction: false | "asc" | "desc") =>
  direction === "asc" ? "ascending" : direction === "desc" ? "descending" : undefined;

/** The sorting state the URL's sort value stands for: the column whose header sorts that way. */
function sortingOf<Row>(columns: readonly DataColumn<Row>[], value: string | undefined): SortingState {
  for (const column of columns) {
    if (column.sort?.ascending === value) return [{ id: column.id, desc: false }];
    if (column.sort?.descending === value) return [{ id: column.id, desc: true }];
  }
  return [];
}

const toRecord = (ids: Iterable<string>): RowSelectionState => {
  const record: RowSelectionState = {};
  for (const id of ids) record[id] = true;
  return record;
};

export function DataTable<Row extends RowData>({
  id: tableId,
  columns,
  data,
  getRowId,
  caption,
  emptyTitle,
  emptyText,
  pagination,
  sorting: urlSorting,
  selection,
  hiddenColumns = [],
  toolbar,
  selectedId,
  busy,
  rowClassName,
  rowProps,
  compact = false,
}: DataTableProps<Row>) {
  const url = useUrlState();
  const [columnVisibility, setColumnVisibility] = useState<ColumnVisibilityState>(() =>
    Object.fromEntries(hiddenColumns.map((column) => [column, false])),
  );
  const hideable: readonly string[] = HIDEABLE_COLUMNS[tableId];
  // A page may pass a new selection object on every render; the columns change only when there is or isn't one.
  const selectable = Boolean(selection);
  const byId = useMemo(() => new Map(columns.map((column) => [column.id, column])), [columns]);

  const columnDefs = useMemo<ColumnDef<typeof features, Row>[]>(() => {
    const defs: ColumnDef<typeof features, Row>[] = columns.map((column) => ({
      id: column.id,
      header: column.header,
      // TanStack sorts only columns with a value; the server sorts here, so the value is never read.
      accessorFn: column.sort ? serverSorted : undefined,
      enableSorting: Boolean(column.sort),
      sortDescFirst: column.sort?.descendingFirst ?? false,
      enableHiding: hideable.includes(column.id),
    }));
    if (selectable) defs.unshift({ id: SELECT_COLUMN, header: "", enableSorting: false, enableHiding: false });
    return defs;
  }, [columns, hideable, selectable]);

  const sortingState = useMemo(() => sortingOf(columns, urlSorting?.value), [columns, urlSorting?.value]);
  const rowSelection = useMemo(() => toRecord(selection?.selected ?? []), [selection?.selected]);
  const firstColumn = columns[0]?.id;
  const columnPinning = useMemo(
    () => ({ start: [...(selectable ? [SELECT_COLUMN] : []), ...(firstColumn ? [firstColumn] : [])], end: [] }),
    [selectable, firstColumn],
  );

  const table = useTable({
    features,
    columns: columnDefs,
    data,
    getRowId: (row: Row) => getRowId(row),
    manualSorting: true,
    enableMultiSort: false,
    enableSortingRemoval: false,
    enableRowSelection: selection ? (row) => selection.canSelect?.(row.original) ?? true : false,
    state: { sorting: sortingState, rowSelection, columnVisibility, columnPinning },
    onSortingChange: (updater: Updater<SortingState>) => {
      if (!urlSorting) return;
      const [next] = functionalUpdate(updater, sortingState);
      const sort = next && byId.get(next.id)?.sort;
      if (!sort) return;
      const value = next.desc ? sort.descending : sort.ascending;
      sortFocus = { table: tableId, column: next.id, value };
      url.set({
        [urlSorting.param ?? "sort"]: value === urlSorting.defaultValue ? null : value,
        ...Object.fromEntries((urlSorting.resets ?? []).map((key) => [key, null])),
      });
    },
    onRowSelectionChange: (updater: Updater<RowSelectionState>) => {
      if (!selection) return;
      const next = functionalUpdate(updater, rowSelection);
      selection.onChange(new Set(Object.keys(next).filter((key) => next[key])));
    },
    onColumnVisibilityChange: (updater: Updater<ColumnVisibilityState>) => {
      const next = functionalUpdate(updater, columnVisibility);
      setColumnVisibility(next);
      const hidden = Object.keys(next).filter((key) => next[key] === false);
      // Remembered for the next visit; a failed save costs only that, the choice still holds on this page.
      void saveTableColumnsAction({ table: tableId, hidden }).catch(() => undefined);
    },
  });

  const pinnedCount = columnPinning.start.length;
  // The pinned columns (the selection's and the first) stay at the frame's left edge while it scrolls sideways.
  const pinnedLeft = (index: number) =>
    index < pinnedCount ? cn("sm:sticky", index === 0 || !selection ? "sm:left-0" : "sm:left-11") : undefined;
  const pinnedCell = (index: number) =>
    index < pinnedCount ? cn(pinnedLeft(index), "sm:z-[1] sm:bg-surface-raised") : undefined;
  const rows = table.getRowModel().rows;
  const headers = table.getHeaderGroups()[0]?.headers ?? [];
  const menuColumns = columns
    .filter((column) => hideable.includes(column.id))
    .map((column) => ({
      id: column.id,
      name: column.header,
      visible: table.getColumn(column.id)?.getIsVisible() ?? true,
      toggle: (on: boolean) => table.getColumn(column.id)?.toggleVisibility(on),
    }));

  return (
    <div className="flex flex-col gap-3">
      {(toolbar || menuColumns.length > 0) && (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div className="min-w-0 flex-1">{toolbar}</div>
          {menuColumns.length > 0 && <ColumnsMenu caption={caption} columns={menuColumns} />}
        </div>
      )}
      <div
        className={cn(
          "relative rounded-lg transition-opacity sm:overflow-auto sm:bg-surface-raised sm:ring-1 sm:ring-line",
          compact ? "sm:max-h-64" : "sm:max-h-[calc(100dvh-9rem)]",
          busy && "opacity-60",
        )}
        aria-busy={busy || undefined}
        data-table={tableId}
      >
        <table role="table" className={cn("w-full text-sm max-sm:block", !compact && "sm:min-w-[40rem]")}>
          <caption className="sr-only">{caption}</caption>
          <thead role="rowgroup" className="text-left text-xs uppercase tracking-wide text-ink-muted max-sm:sr-only">
            <tr role="row">
              {headers.map((header, index) => {
                const column = byId.get(header.column.id);
                const direction = header.column.getIsSorted();
                return (
                  <th
                    key={header.id}
                    role="columnheader"
                    scope="col"
                    data-column={header.column.id}
                    aria-sort={column?.sort ? (ariaSort(direction) ?? "none") : undefined}
                    className={cn(
                      "sticky top-0 z-[2] border-b border-line bg-surface-raised px-3 py-2 font-semibold",
                      index < pinnedCount && "z-[3]",
                      pinnedLeft(index),
                      column?.align === "right" && "text-right",
                      header.column.id === SELECT_COLUMN && "w-11",
                    )}
                    style={{ width: column?.size }}
                  >
                    {header.column.id === SELECT_COLUMN && selection ? (
                      <input
                        type="checkbox"
                        className="size-4 accent-blurple"
                        aria-label={`Select every ${selection.noun} on this page`}
                        checked={table.getIsAllPageRowsSelected()}
                        ref={(box) => {
                          if (box) box.indeterminate = table.getIsSomePageRowsSelected();
                        }}
                        onChange={table.getToggleAllPageRowsSelectedHandler()}
                        disabled={rows.length === 0}
                      />
                    ) : column?.headerHidden ? (
                      <span className="sr-only">{column.header}</span>
                    ) : column?.sort && urlSorting ? (
                      <button
                        type="button"
                        onClick={header.column.getToggleSortingHandler()}
                        ref={(button) => {
                          if (
                            button &&
                            sortFocus?.table === tableId &&
                            sortFocus.column === header.column.id &&
                            sortFocus.value === urlSorting.value
                          ) {
                            sortFocus = null;
                            if (document.activeElement !== button) button.focus({ preventScroll: true });
                          }
                        }}
                        className="-mx-1 inline-flex items-center gap-1 rounded px-1 uppercase tracking-wide hover:text-ink"
                      >
                        {column.header}
                        <SortArrow direction={direction} />
                      </button>
                    ) : (
                      column?.header
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody role="rowgroup" className="max-sm:flex max-sm:flex-col max-sm:gap-2">
            {rows.map((row) => {
              const original = row.original;
              const context = { row: { id: row.id, index: row.index, original } };
              return (
                <tr
                  key={row.id}
                  role="row"
                  // The row whose panel is open; selection is the checkbox's (aria-selected belongs to grids only).
                  aria-current={selectedId === row.id || undefined}
                  {...rowProps?.(original)}
                  className={cn(
                    "border-b border-line last:border-0 hover:bg-surface-sunken/60 aria-[current=true]:bg-blurple/10",
                    "max-sm:flex max-sm:flex-wrap max-sm:items-center max-sm:gap-x-2 max-sm:rounded-lg max-sm:border-0 max-sm:bg-surface-raised max-sm:p-3 max-sm:ring-1 max-sm:ring-line",
                    rowClassName?.(original),
                  )}
                >
                  {row.getVisibleCells().map((cell, index) => {
                    const columnId = cell.column.id;
                    if (columnId === SELECT_COLUMN && selection)
                      return (
                        <td key={cell.id} role="cell" className={cn("px-3 py-2 max-sm:p-0", pinnedCell(index))}>
                          <input
                            type="checkbox"
                            className="size-4 accent-blurple"
                            aria-label={`Select ${selection.rowLabel(original)}`}
                            checked={row.getIsSelected()}
                            disabled={!row.getCanSelect()}
                            onChange={row.getToggleSelectedHandler()}
                          />
                        </td>
                      );
                    const column = byId.get(columnId)!;
                    const primary = columnId === firstColumn;
                    return (
                      <td
                        key={cell.id}
                        role="cell"
                        data-label={primary || column.headerHidden ? undefined : column.header}
                        className={cn(
                          "px-3 py-2 align-middle",
                          column.align === "right" && "sm:text-right",
                          pinnedCell(index),
                          primary
                            ? "max-sm:min-w-0 max-sm:flex-1 max-sm:p-0"
                            : "max-sm:flex max-sm:basis-full max-sm:items-start max-sm:gap-2 max-sm:px-0 max-sm:pb-0 max-sm:pt-1.5",
                          // On a phone's card the column's name stands before its value; cells without one take the width.
                          !primary &&
                            !column.headerHidden &&
                            "max-sm:before:w-28 max-sm:before:shrink-0 max-sm:before:text-xs max-sm:before:font-medium max-sm:before:text-ink-muted max-sm:before:content-[attr(data-label)]",
                        )}
                      >
                        {column.cell(context)}
                      </td>
                    );
                  })}
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
      {pagination && <Pager pagination={pagination} />}
    </div>
  );
}

function SortArrow({ direction }: { direction: false | "asc" | "desc" }) {
  return (
    <span aria-hidden className={cn("text-[0.7rem]", !direction && "opacity-30")}>
      {direction === "desc" ? "▼" : "▲"}
    </span>
  );
}

function Pager({ pagination }: { pagination: ServerPage }) {
  const link = (href: string | null, rel: "prev" | "next", label: string) =>
    href ? (
      <Link prefetch={false} href={href} scroll={false} className={buttonClasses("secondary", "sm")} rel={rel}>
        {label}
      </Link>
    ) : (
      <span aria-disabled="true" className={cn(buttonClasses("secondary", "sm"), "pointer-events-none opacity-50")}>
        {label}
      </span>
    );
  return (
    <nav aria-label="Pages" className="flex flex-wrap items-center justify-between gap-2 text-sm">
      <span className="text-ink-muted">
        Page {pagination.page}
        {pagination.summary ? ` · ${pagination.summary}` : ""}
      </span>
      <span className="flex gap-2">
        {link(pagination.previousHref, "prev", "← Previous")}
        {link(pagination.nextHref, "next", "Next →")}
      </span>
    </nav>
  );
}
