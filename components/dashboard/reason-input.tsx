"use client";

// The one-line reason box of a save bar or a quick action: sent as X-Audit-Log-Reason, so it is held to Discord's
// length limit here rather than refused by the API.
import { Input } from "@/components/ui/input";
import { AUDIT_LOG_REASON_MAX } from "@/lib/discord/limits";

export function ReasonInput({ label, placeholder = "Reason (optional)", value, onChange, className, disabled }: {
  /** The accessible name (the box shows only its placeholder). */
  label: string;
  placeholder?: string;
  value: string;
  onChange: (value: string) => void;
  className?: string;
  disabled?: boolean;
}) {
  return <Input aria-label={label} placeholder={placeholder} value={value} onChange={(e) => onChange(e.target.value)} maxLength={AUDIT_LOG_REASON_MAX} className={className} disabled={disabled} />;
}
