"use client";

// A list typed one entry per line (keywords, regex patterns, allowed words): a live counter against Discord's limit
// ("312 / 1,000") and every entry the item schema refuses flagged as it is typed, with the schema's (or the regex
// engine's) message; errors the API sent for an entry ("keyword_filter.3") are shown beside it too.
import { useId, useMemo, useState } from "react";
import type { z } from "zod";
import { cn } from "@/components/ui/cn";
import { Textarea } from "@/components/ui/input";
import { formatNumber, useLocale } from "@/components/ui/locale";

/** What the form holds for a list field's errors: a message for the list, and one per entry by index. */
export type ListErrors = { message?: string } & Partial<Record<number, { message?: string } | undefined>>;

/** The non-empty lines; trimmed unless the entries keep their spaces (regex patterns). */
export function parseLines(text: string, trim = true): string[] {
  return text
    .split("\n")
    .map((line) => (trim ? line.trim() : line.replace(/\r$/, "")))
    .filter((line) => line.trim() !== "");
}

const shorten = (text: string, max = 40) => ([...text].length > max ? `${[...text].slice(0, max).join("")}…` : text);

export function ListField({
  id,
  label,
  hint,
  value,
  onChange,
  max,
  itemSchema,
  errors,
  trim = true,
  rows = 4,
  disabled,
  placeholder,
}: {
  id: string;
  label: string;
  hint: string;
  value: readonly string[];
  onChange: (next: string[]) => void;
  max: number;
  itemSchema: z.ZodType<string>;
  /** The form's errors for this list (the resolver's, and the API's mapped onto it). */
  errors?: ListErrors;
  trim?: boolean;
  rows?: number;
  disabled?: boolean;
  placeholder?: string;
}) {
  const locale = useLocale();
  const counterId = useId();
  // The text as typed (blank lines and all); the form holds the entries.
  const [text, setText] = useState(() => value.join("\n"));
  const problems = useMemo(() => {
    const found: Array<{ index: number; entry: string; message: string }> = [];
    value.forEach((entry, index) => {
      const parsed = itemSchema.safeParse(entry);
      const message = parsed.success ? errors?.[index]?.message : parsed.error.issues[0]?.message;
      if (message) found.push({ index, entry, message });
    });
    return found;
  }, [value, itemSchema, errors]);
  const over = value.length > max;
  const listMessage = errors?.message;
  const invalid = over || problems.length > 0 || Boolean(listMessage);

  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <div className="flex items-baseline justify-between gap-3">
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        <span
          id={counterId}
          data-testid={`${id}-count`}
          className={cn("text-xs tabular-nums", over ? "font-semibold text-danger" : "text-ink-muted")}
        >
          {formatNumber(value.length, locale)} / {formatNumber(max, locale)}
        </span>
      </div>
      <Textarea
        id={id}
        value={text}
        rows={rows}
        disabled={disabled}
        placeholder={placeholder}
        spellCheck={false}
        aria-invalid={invalid || undefined}
        aria-describedby={`${counterId} ${id}-hint ${id}-error`}
        className="font-mono text-[13px]"
        onChange={(event) => {
          setText(event.target.value);
          onChange(parseLines(event.target.value, trim));
        }}
      />
      <p id={`${id}-hint`} className="text-xs text-ink-muted">
        {hint}
      </p>
      <div id={`${id}-error`} aria-live="polite" className="flex flex-col gap-0.5 text-xs font-medium text-danger">
        {over && (
          <p>
            {formatNumber(value.length - max, locale)} too many: at most {formatNumber(max, locale)}.
          </p>
        )}
        {listMessage && !over && <p>{listMessage}</p>}
        {problems.length > 0 && (
          <ul className="flex flex-col gap-0.5" data-testid={`${id}-problems`}>
            {problems.slice(0, 5).map((problem) => (
              <li key={problem.index}>
                <span className="font-mono">“{shorten(problem.entry)}”</span>: {problem.message}
              </li>
            ))}
            {problems.length > 5 && <li>and {formatNumber(problems.length - 5, locale)} more</li>}
          </ul>
        )}
      </div>
    </div>
  );
}
