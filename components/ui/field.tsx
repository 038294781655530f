import type { ReactNode } from "react";
import { cn } from "./cn";

/**
 * A labelled form field: label, optional hint, the control, and its error right below it. The control must carry
 * id={id}, aria-invalid and aria-describedby={`${id}-error ${id}-hint`} (see fieldProps) so assistive tech reads both.
 */
export function Field({
  id,
  label,
  hint,
  error,
  children,
  className,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | string[];
  children: ReactNode;
  className?: string;
}) {
  const messages = error === undefined ? [] : Array.isArray(error) ? error : [error];
  return (
    <div className={cn("flex min-w-0 flex-col gap-1.5", className)}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {children}
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-ink-muted">
          {hint}
        </p>
      )}
      {messages.length > 0 && (
        <p id={`${id}-error`} role="alert" className="text-xs font-medium text-danger">
          {messages.join(" ")}
        </p>
      )}
    </div>
  );
}

export function fieldProps(id: string, error?: string | string[]) {
  const invalid = error !== undefined && (!Array.isArray(error) || error.length > 0);
  return { id, "aria-invalid": invalid || undefined, "aria-describedby": `${id}-hint ${id}-error` };
}
