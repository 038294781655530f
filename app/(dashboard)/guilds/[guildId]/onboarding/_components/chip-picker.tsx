"use client";

// A keyboard-friendly multi-select: the chosen items as removable chips, and a select to add one more.
import { Select } from "@/components/ui/input";

export interface ChipItem {
  id: string;
  label: string;
}

export function ChipPicker({
  id,
  label,
  items,
  value,
  onChange,
  error,
}: {
  id: string;
  label: string;
  items: readonly ChipItem[];
  value: readonly string[];
  onChange: (ids: string[]) => void;
  error?: string;
}) {
  const byId = new Map(items.map((item) => [item.id, item]));
  const rest = items.filter((item) => !value.includes(item.id));
  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <span id={`${id}-label`} className="text-sm font-medium">
        {label}
      </span>
      {value.length > 0 && (
        <ul aria-labelledby={`${id}-label`} className="flex flex-wrap gap-1.5">
          {value.map((itemId) => (
            <li
              key={itemId}
              className="inline-flex items-center gap-1 rounded-full bg-surface-sunken py-0.5 pl-2.5 pr-1 text-xs ring-1 ring-line"
            >
              {byId.get(itemId)?.label ?? `unknown (${itemId})`}
              <button
                type="button"
                aria-label={`Remove ${byId.get(itemId)?.label ?? itemId} from ${label}`}
                onClick={() => onChange(value.filter((v) => v !== itemId))}
                className="rounded-full px-1 text-ink-muted hover:bg-line hover:text-ink"
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <Select
        id={id}
        aria-label={`Add to ${label}`}
        aria-invalid={Boolean(error) || undefined}
        value=""
        disabled={rest.length === 0}
        onChange={(e) => e.target.value && onChange([...value, e.target.value])}
        className="h-9"
      >
        <option value="">{rest.length === 0 ? "Nothing more to add" : `Add to ${label.toLowerCase()}…`}</option>
        {rest.map((item) => (
          <option key={item.id} value={item.id}>
            {item.label}
          </option>
        ))}
      </Select>
      {error && (
        <p role="alert" className="text-xs font-medium text-danger">
          {error}
        </p>
      )}
    </div>
  );
}
