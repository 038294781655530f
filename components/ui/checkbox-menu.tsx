"use client";

// A dropdown of checkboxes (a summary that opens a floating list, closing as a menu does): the members' Roles filter
// and a table's Columns menu.
import type { ReactNode } from "react";
import { cn } from "./cn";
import { Icons } from "./icons";
import { PopoverDetails } from "./popover-details";

export interface CheckboxMenuItem {
  id: string;
  label: ReactNode;
  checked: boolean;
  /** The box cannot be ticked (a list at its limit). */
  disabled?: boolean;
}

export function CheckboxMenu({
  summary,
  legend,
  items,
  onChange,
  summaryClassName,
  panelClassName,
  "data-testid": testId,
}: {
  summary: ReactNode;
  /** What the list is, for screen readers. */
  legend: string;
  items: readonly CheckboxMenuItem[];
  onChange: (id: string, checked: boolean) => void;
  /** The summary's height ("h-10"). */
  summaryClassName: string;
  /** The panel's width, alignment and scrolling. */
  panelClassName: string;
  "data-testid"?: string;
}) {
  return (
    <PopoverDetails className="relative" data-testid={testId}>
      <summary
        className={cn(
          "flex cursor-pointer list-none items-center gap-2 rounded-md bg-surface-raised px-3 text-sm ring-1 ring-line hover:bg-surface-sunken",
          summaryClassName,
        )}
      >
        {summary}
        <Icons.chevronDown className="size-4 text-ink-muted" />
      </summary>
      <fieldset
        className={cn("absolute z-20 mt-1 rounded-lg bg-surface p-2 shadow-xl ring-1 ring-line", panelClassName)}
      >
        <legend className="sr-only">{legend}</legend>
        {items.map((item) => (
          <label
            key={item.id}
            className={cn(
              "flex items-center gap-2 rounded px-2 py-1.5 text-sm",
              item.disabled ? "cursor-not-allowed opacity-60" : "cursor-pointer hover:bg-surface-sunken",
            )}
          >
            <input
              type="checkbox"
              className="size-4 accent-blurple"
              checked={item.checked}
              disabled={item.disabled}
              onChange={(event) => onChange(item.id, event.target.checked)}
            />
            {item.label}
          </label>
        ))}
      </fieldset>
    </PopoverDetails>
  );
}
