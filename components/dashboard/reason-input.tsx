"use client";

// Reason inputs: sent as X-Audit-Log-Reason, so they are held to Discord's
// length limit here rather than refused by the API.
import { Field, fieldProps } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { AUDIT_LOG_REASON_MAX } from "@/lib/discord/limits";

/** The reason box of a settings page's save bar: the change's reason, written to the guild's audit log. */
export const AUDIT_LOG_REASON_PROPS = {
  label: "Reason (audit log)",
  placeholder: "Reason (optional, goes to the audit log)",
} as const;

export function ReasonInput({
  label,
  placeholder = "Reason (optional)",
  value,
  onChange,
  className,
  disabled,
}: {
  /** The accessible name (the box shows only its placeholder). */
  label: string;
  placeholder?: string;
  value: string;
  onChange: (value: string) => void;
  className?: string;
  disabled?: boolean;
}) {
  return (
    <Input
      aria-label={label}
      placeholder={placeholder}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      maxLength={AUDIT_LOG_REASON_MAX}
      className={className}
      disabled={disabled}
    />
  );
}

/** The labelled reason field of a dialog or form, with its hint and error. */
export function ReasonField({
  id,
  label,
  hint,
  error,
  value,
  onChange,
  autoFocus,
  disabled,
}: {
  id: string;
  label: string;
  hint: string;
  error?: string | string[];
  value: string;
  onChange: (value: string) => void;
  autoFocus?: boolean;
  disabled?: boolean;
}) {
  return (
    <Field id={id} label={label} hint={hint} error={error}>
      <Input
        {...fieldProps(id, error)}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        maxLength={AUDIT_LOG_REASON_MAX}
        autoFocus={autoFocus}
        disabled={disabled}
      />
    </Field>
  );
}

/** The reason box inside an UnsavedChangesBar: it shares the bar's row with the title and the buttons. */
export function SaveBarReason({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <ReasonInput
      {...AUDIT_LOG_REASON_PROPS}
      value={value}
      onChange={onChange}
      className="h-9 w-full max-w-xs sm:w-auto sm:flex-1"
    />
  );
}
