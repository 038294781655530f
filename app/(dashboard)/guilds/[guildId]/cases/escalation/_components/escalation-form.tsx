"use client";

// The server's escalation rules as rows (warnings, within days, action, and a timeout's length), added and removed,
// saved as a whole and checked by the schema the server uses.
import { useFieldArray, useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/input";
import { applyFieldErrors, useAction } from "@/components/dashboard/use-action";
import { saveEscalationRulesAction } from "@/lib/dashboard/actions/cases";
import { ESCALATION_RULES_MAX, describeRule, type EscalationAction } from "@/lib/dashboard/cases/escalation";

interface RuleRow {
  warnings: number;
  withinDays: number;
  action: EscalationAction;
  durationSeconds: number | null;
}

const TIMEOUT_LENGTHS = [
  { label: "1 hour", seconds: 3_600 },
  { label: "1 day", seconds: 86_400 },
  { label: "1 week", seconds: 7 * 86_400 },
  { label: "28 days", seconds: 28 * 86_400 },
];

export function EscalationForm({
  guildId,
  defaults,
  disabledReason,
}: {
  guildId: string;
  defaults: RuleRow[];
  /** Why the moderator may not change the rules ("needs Moderate Members"), or null. */
  disabledReason: string | null;
}) {
  const { register, handleSubmit, control, watch, setError, formState, reset } = useForm<{ rules: RuleRow[] }>({
    defaultValues: { rules: defaults },
  });
  const rules = useFieldArray({ control, name: "rules" });
  const save = useAction(saveEscalationRulesAction, { failure: "Couldn't save the rules" });
  const values = watch("rules");
  return (
    <form
      aria-label="Escalation rules"
      className="flex max-w-3xl flex-col gap-3"
      onSubmit={handleSubmit(async ({ rules: rows }) => {
        const input = rows.map((row) => ({
          warnings: Number(row.warnings),
          withinDays: Number(row.withinDays),
          action: row.action,
          durationSeconds: row.action === "timeout" ? Number(row.durationSeconds) : null,
        }));
        const result = await save.run({ guildId, rules: input });
        if (result.ok) reset({ rules: input });
        else applyFieldErrors(setError, result.fieldErrors);
      })}
    >
      {disabledReason && (
        <p role="note" className="text-sm text-ink-muted">
          You can read these rules; changing them {disabledReason}.
        </p>
      )}
      <fieldset disabled={disabledReason !== null} className="flex flex-col gap-3">
        {rules.fields.length === 0 && (
          <p className="text-sm text-ink-muted">No rules: warnings never propose anything.</p>
        )}
        {rules.fields.map((field, i) => (
          <fieldset key={field.id} className="flex flex-wrap items-end gap-2 rounded-lg p-3 ring-1 ring-line">
            <legend className="sr-only">Rule {i + 1}</legend>
            <label className="flex flex-col gap-1 text-sm font-medium">
              Warnings
              <Input type="number" min={1} max={100} className="w-24" {...register(`rules.${i}.warnings` as const)} />
            </label>
            <label className="flex flex-col gap-1 text-sm font-medium">
              Within (days)
              <Input type="number" min={1} max={365} className="w-24" {...register(`rules.${i}.withinDays` as const)} />
            </label>
            <label className="flex flex-col gap-1 text-sm font-medium">
              Then
              <Select {...register(`rules.${i}.action` as const)}>
                <option value="timeout">Time out</option>
                <option value="kick">Kick</option>
                <option value="ban">Ban</option>
              </Select>
            </label>
            {values[i]?.action === "timeout" && (
              <label className="flex flex-col gap-1 text-sm font-medium">
                For
                <Select {...register(`rules.${i}.durationSeconds` as const)}>
                  {TIMEOUT_LENGTHS.map((length) => (
                    <option key={length.seconds} value={length.seconds}>
                      {length.label}
                    </option>
                  ))}
                </Select>
              </label>
            )}
            <Button variant="ghost" size="sm" onClick={() => rules.remove(i)} aria-label={`Remove rule ${i + 1}`}>
              Remove
            </Button>
            {values[i] && (
              <p className="basis-full text-xs text-ink-muted">
                {describeRule({
                  warnings: Number(values[i].warnings) || 0,
                  withinDays: Number(values[i].withinDays) || 0,
                  action: values[i].action,
                  durationSeconds: Number(values[i].durationSeconds) || null,
                })}
              </p>
            )}
          </fieldset>
        ))}
        {formState.errors.root?.server?.message && (
          <p role="alert" className="text-xs font-medium text-danger">
            {formState.errors.root.server.message}
          </p>
        )}
        <div className="flex gap-2">
          <Button
            variant="secondary"
            onClick={() => rules.append({ warnings: 3, withinDays: 30, action: "timeout", durationSeconds: 86_400 })}
            disabled={rules.fields.length >= ESCALATION_RULES_MAX}
          >
            Add a rule
          </Button>
          <Button type="submit" pending={save.pending} disabled={!formState.isDirty}>
            Save rules
          </Button>
        </div>
      </fieldset>
    </form>
  );
}
