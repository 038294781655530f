"use client";

// How long a ban lasts (issue #32): Permanent, a preset from 1 hour to 1 year, or Custom (an amount of minutes, hours,
// days or weeks, down to one minute). A controlled field: the form keeps the value as DurationSchema takes it
// ("permanent", a preset's key, or {amount, unit}) and the server checks it again.
import { useState } from "react";
import { Field, fieldProps } from "@/components/ui/field";
import { Input, Select } from "@/components/ui/input";
import {
  DURATION_PRESETS,
  DURATION_UNITS,
  DurationSchema,
  durationMs,
  formatDuration,
  type DurationFormValue,
  type DurationUnit,
} from "@/lib/moderation/durations";

const UNIT_LABELS: Record<DurationUnit, string> = { minutes: "minutes", hours: "hours", days: "days", weeks: "weeks" };

export function BanLengthField({
  id,
  value,
  onChange,
  error,
}: {
  id: string;
  value: DurationFormValue;
  onChange: (value: DurationFormValue) => void;
  error?: string;
}) {
  const custom = typeof value === "object";
  const [amount, setAmount] = useState(custom ? String(value.amount) : "1");
  const [unit, setUnit] = useState<DurationUnit>(custom ? value.unit : "days");
  const choice = custom ? "custom" : value;
  const parsed = DurationSchema.safeParse(value);
  const ms = parsed.success ? durationMs(parsed.data) : null;
  return (
    <Field
      id={id}
      label="Ban length"
      error={error}
      hint={
        !parsed.success
          ? "A whole number, at least 1."
          : ms === null
            ? "Until someone unbans them."
            : `This dashboard unbans them after ${formatDuration(ms)}.`
      }
    >
      <div className="flex flex-wrap gap-2">
        <Select
          {...fieldProps(id, error)}
          value={choice}
          onChange={(e) => {
            const next = e.target.value;
            if (next === "custom") onChange({ amount: Number(amount) || 1, unit });
            else onChange(next as DurationFormValue);
          }}
          className="max-w-56"
        >
          <option value="permanent">Permanent</option>
          {DURATION_PRESETS.map((preset) => (
            <option key={preset.key} value={preset.key}>
              {preset.label}
            </option>
          ))}
          <option value="custom">Custom…</option>
        </Select>
        {custom && (
          <>
            <Input
              aria-label="Custom length"
              inputMode="numeric"
              value={amount}
              onChange={(e) => {
                setAmount(e.target.value);
                onChange({ amount: Number(e.target.value), unit });
              }}
              className="w-24"
            />
            <Select
              aria-label="Unit"
              value={unit}
              onChange={(e) => {
                const next = e.target.value as DurationUnit;
                setUnit(next);
                onChange({ amount: Number(amount), unit: next });
              }}
              className="w-32"
            >
              {(Object.keys(DURATION_UNITS) as DurationUnit[]).map((u) => (
                <option key={u} value={u}>
                  {UNIT_LABELS[u]}
                </option>
              ))}
            </Select>
          </>
        )}
      </div>
    </Field>
  );
}
