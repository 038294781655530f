// A picker for one of Discord's guild levels (verification, explicit image filter, notifications): the options'
// names, and the chosen one's meaning as the field's hint. The settings form registers it with react-hook-form; the
// safety page's quick levels control it with state; both pass the select's own props through.
import { forwardRef, type SelectHTMLAttributes } from "react";
import { Field, fieldProps } from "@/components/ui/field";
import { Select } from "@/components/ui/input";

export interface LevelOption {
  value: number;
  label: string;
  meaning: string;
}

interface LevelSelectProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, "id"> {
  id: string;
  label: string;
  options: readonly LevelOption[];
  /** The chosen level, for the hint (the select itself may be uncontrolled). */
  current: number;
  error?: string | string[];
}

export const LevelSelect = forwardRef<HTMLSelectElement, LevelSelectProps>(function LevelSelect(
  { id, label, options, current, error, ...selectProps },
  ref,
) {
  return (
    <Field id={id} label={label} hint={options.find((o) => o.value === Number(current))?.meaning} error={error}>
      <Select {...fieldProps(id, error)} {...selectProps} ref={ref}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </Select>
    </Field>
  );
});
