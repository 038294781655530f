"use client";

// The "Columns" dropdown above a table: a checkbox per column the moderator may hide. The table saves the choice for
// this moderator (components/data-table/data-table.tsx).
import { Icons } from "@/components/ui/icons";
import { PopoverDetails } from "@/components/ui/popover-details";

export interface MenuColumn {
  id: string;
  name: string;
  visible: boolean;
  toggle: (visible: boolean) => void;
}

export function ColumnsMenu({ caption, columns }: { caption: string; columns: readonly MenuColumn[] }) {
  const hidden = columns.filter((column) => !column.visible).length;
  return (
    <PopoverDetails className="relative" data-testid="columns-menu">
      <summary className="flex h-9 cursor-pointer list-none items-center gap-2 rounded-md bg-surface-raised px-3 text-sm ring-1 ring-line hover:bg-surface-sunken">
        Columns{hidden ? ` (${hidden} hidden)` : ""}
        <Icons.chevronDown className="size-4 text-ink-muted" />
      </summary>
      <fieldset className="absolute right-0 z-20 mt-1 w-56 rounded-lg bg-surface p-2 shadow-xl ring-1 ring-line">
        <legend className="sr-only">Columns shown in {caption}</legend>
        {columns.map((column) => (
          <label
            key={column.id}
            className="flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-sm hover:bg-surface-sunken"
          >
            <input
              type="checkbox"
              className="size-4 accent-blurple"
              checked={column.visible}
              onChange={(event) => column.toggle(event.target.checked)}
            />
            {column.name}
          </label>
        ))}
      </fieldset>
    </PopoverDetails>
  );
}
