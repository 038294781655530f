"use client";

// A table's "Sort by" select: the same URL value its column headers set, in words ("Account age: newest accounts
// first"), and the way to sort on a phone, where the rows are cards and the headers are for screen readers only.
import { Select } from "@/components/ui/input";
import { useUrlState } from "./url-state";

export interface SortOption {
  key: string;
  label: string;
}

export function SortSelect({
  id,
  value,
  options,
  defaultValue,
  param = "sort",
  resets = [],
}: {
  id: string;
  /** The sort the page shows (as the server parsed it). */
  value: string;
  options: readonly SortOption[];
  /** Kept out of the URL. */
  defaultValue: string;
  /** Default "sort". */
  param?: string;
  /** URL keys a new sort clears (paging cursors). */
  resets?: readonly string[];
}) {
  const { set } = useUrlState();
  return (
    <div className="flex flex-col gap-1 text-sm font-medium max-sm:flex-1">
      <label htmlFor={id}>Sort by</label>
      <Select
        id={id}
        value={value}
        onChange={(event) =>
          set({
            [param]: event.target.value === defaultValue ? null : event.target.value,
            ...Object.fromEntries(resets.map((key) => [key, null])),
          })
        }
        // As wide as its longest choice on a wide screen ("Account age: newest accounts first"); full width on a phone.
        className="w-full sm:w-auto"
      >
        {options.map((option) => (
          <option key={option.key} value={option.key}>
            {option.label}
          </option>
        ))}
      </Select>
    </div>
  );
}
