"use client";

// The "Columns" dropdown above a table: a checkbox per column the moderator may hide. The table saves the choice for
// this moderator (components/data-table/data-table.tsx).
import { CheckboxMenu } from "@/components/ui/checkbox-menu";

export interface MenuColumn {
  id: string;
  name: string;
  visible: boolean;
  toggle: (visible: boolean) => void;
}

export function ColumnsMenu({ caption, columns }: { caption: string; columns: readonly MenuColumn[] }) {
  const hidden = columns.filter((column) => !column.visible).length;
  return (
    <CheckboxMenu
      data-testid="columns-menu"
      summary={`Columns${hidden ? ` (${hidden} hidden)` : ""}`}
      legend={`Columns shown in ${caption}`}
      items={columns.map((column) => ({ id: column.id, label: column.name, checked: column.visible }))}
      onChange={(id, visible) => columns.find((column) => column.id === id)?.toggle(visible)}
      summaryClassName="h-9"
      panelClassName="right-0 w-56"
    />
  );
}
