// The header row of the dashboard's hand-built tables (DataTable draws its own in the same style): column names,
// alignment and screen-reader-only names in one place, so every table's header reads and looks the same.
import { cn } from "./cn";

export interface HeadColumn {
  label: string;
  /** Numbers and actions line up on the right. */
  align?: "right";
  /** A name only screen readers hear, for a column whose cells explain themselves (an order handle). */
  srOnly?: boolean;
  /** A fixed width, as a Tailwind class. */
  width?: string;
}

/** `sticky`: the header stays in view while a scrolled box of rows moves under it. */
export function TableHead({ columns, sticky = false }: { columns: readonly HeadColumn[]; sticky?: boolean }) {
  return (
    <thead
      className={cn(
        "border-b border-line text-left text-xs uppercase tracking-wide text-ink-muted",
        sticky && "sticky top-0 bg-surface",
      )}
    >
      <tr>
        {columns.map((column) => (
          <th
            key={column.label}
            scope="col"
            className={cn("px-3 py-2 font-semibold", column.align === "right" && "text-right", column.width)}
          >
            {column.srOnly ? <span className="sr-only">{column.label}</span> : column.label}
          </th>
        ))}
      </tr>
    </thead>
  );
}
