"use client";

import { forwardRef, type InputHTMLAttributes, type ReactNode } from "react";
import { cn } from "./cn";
import { DisabledReason } from "./card";

/** A checkbox styled as a switch: keyboard and form behaviour stay the native checkbox's. */
export const Switch = forwardRef<
  HTMLInputElement,
  Omit<InputHTMLAttributes<HTMLInputElement>, "type"> & {
    label: ReactNode;
    description?: ReactNode;
    reason?: string | null;
  }
>(function Switch({ label, description, reason, className, id, disabled, ...props }, ref) {
  return (
    <label
      htmlFor={id}
      className={cn(
        "flex items-start justify-between gap-4 py-2",
        disabled ? "cursor-not-allowed" : "cursor-pointer",
        className,
      )}
    >
      <span className="min-w-0">
        <span className="block text-sm font-medium">{label}</span>
        {description && <span className="block text-xs text-ink-muted">{description}</span>}
        {reason && <DisabledReason reason={reason} className="mt-0.5 flex" />}
      </span>
      <span className="relative mt-0.5 inline-flex shrink-0">
        <input
          ref={ref}
          id={id}
          type="checkbox"
          role="switch"
          disabled={disabled}
          className="peer sr-only"
          {...props}
        />
        <span
          aria-hidden
          className="h-6 w-10 rounded-full bg-line transition-colors peer-checked:bg-success peer-focus-visible:outline peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-blurple peer-disabled:opacity-50"
        />
        <span
          aria-hidden
          className="absolute left-1 top-1 size-4 rounded-full bg-white shadow transition-transform peer-checked:translate-x-4"
        />
      </span>
    </label>
  );
});
