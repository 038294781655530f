"use client";

// A name edited where it is shown: Enter or leaving the field saves it, Escape puts it back. The same zod schema as
// the server action says what a name may be.
import { useState } from "react";
import type { ZodType } from "zod";
import { cn } from "@/components/ui/cn";

export function InlineName({
  value,
  label,
  schema,
  disabled,
  prefix,
  onSave,
}: {
  value: string;
  /** The field's accessible name ("Name of :party_blob:"). */
  label: string;
  schema: ZodType<string>;
  disabled?: boolean;
  prefix?: string;
  onSave: (name: string) => Promise<boolean>;
}) {
  const [draft, setDraft] = useState(value);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const save = async () => {
    if (draft === value || saving) return;
    const parsed = schema.safeParse(draft);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? "Not a valid name.");
      return;
    }
    setError(null);
    setSaving(true);
    const saved = await onSave(parsed.data);
    setSaving(false);
    if (!saved) setDraft(value);
  };

  return (
    <div className="min-w-0">
      <div className="flex items-center">
        {prefix && <span className="text-sm text-ink-muted">{prefix}</span>}
        <input
          aria-label={label}
          value={draft}
          disabled={disabled || saving}
          aria-invalid={error ? true : undefined}
          onChange={(event) => setDraft(event.target.value)}
          onBlur={save}
          onKeyDown={(event) => {
            if (event.key === "Enter") {
              event.preventDefault();
              void save();
            } else if (event.key === "Escape") {
              setDraft(value);
              setError(null);
            }
          }}
          className={cn(
            "w-full min-w-0 rounded border border-transparent bg-transparent px-1 py-0.5 text-sm font-medium",
            "hover:border-line focus:border-blurple focus:outline-none disabled:cursor-not-allowed",
            error && "border-danger",
          )}
        />
      </div>
      {error && (
        <p role="alert" className="px-1 text-xs text-danger-ink">
          {error}
        </p>
      )}
    </div>
  );
}
