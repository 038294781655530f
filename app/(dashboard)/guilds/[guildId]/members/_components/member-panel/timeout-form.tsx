"use client";

// Timeout: a preset (up to 1 year) or a custom end (the browser's local time, up to 5 years), with a reason; or, while
// timed out, removing it. Past Discord's 28 days the API holds the cap and this dashboard renews it until the end.
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Button } from "@/components/ui/button";
import { fieldProps } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { ReasonInput } from "@/components/dashboard/reason-input";
import { applyFieldErrors, useAction } from "@/components/dashboard/use-action";
import { setMemberTimeoutAction } from "@/lib/dashboard/actions/members";
import {
  LONG_TIMEOUT_PRESETS,
  TIMEOUT_PRESETS,
  TimeoutFormSchema,
  timeoutUntil,
  type TimeoutFormValues,
} from "@/lib/dashboard/actions/schemas/members";
import { DURATION_MAX_MS } from "@/lib/moderation/durations";
import { ActionErrors, PanelSection, type PanelFormProps } from "./panel-section";
import { useReportDirty } from "./use-dirty-forms";
import { formatExactTime } from "@/components/ui/relative-time";
import { useLocale } from "@/components/ui/locale";

const PILL =
  "cursor-pointer rounded-full px-3 py-1 text-xs ring-1 ring-line has-[:checked]:bg-blurple has-[:checked]:text-white has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-blurple";

export function TimeoutForm({ timeoutUntil: current, ...props }: PanelFormProps & { timeoutUntil: string | null }) {
  const { register, handleSubmit, setError, setValue, watch, formState } = useForm<TimeoutFormValues>({
    resolver: zodResolver(TimeoutFormSchema),
    defaultValues: { preset: String(TIMEOUT_PRESETS[1].ms), custom: "", reason: "" },
  });
  useReportDirty(formState.isDirty, props.onDirtyChange);
  const locale = useLocale();
  const action = useAction(setMemberTimeoutAction, { failure: "Couldn't change the timeout" });
  const disabled = Boolean(props.blocked);
  const base = { guildId: props.guildId, userId: props.userId };
  const submit = handleSubmit(async (values) => {
    const until = current ? null : timeoutUntil(values);
    const result = await action.run({ ...base, until, reason: values.reason || undefined });
    if (!result.ok) applyFieldErrors(setError, result.fieldErrors, ["reason"]);
  });
  // Only bounds the date picker: reading the clock while rendering is harmless here.
  const maxCustom = new Date(Date.now() + DURATION_MAX_MS - 60_000);
  const localMax = new Date(maxCustom.getTime() - maxCustom.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
  const customError = formState.errors.custom?.message;

  return (
    <PanelSection title="Timeout" reason={props.blocked}>
      {current ? (
        <form className="flex flex-wrap items-center gap-3" onSubmit={submit}>
          <p className="text-sm">
            Timed out until <strong>{formatExactTime(Date.parse(current), locale)}</strong>.
          </p>
          <ReasonInput
            label="Reason for removing the timeout"
            value={watch("reason") ?? ""}
            onChange={(text) => setValue("reason", text, { shouldDirty: true })}
            className="h-9 max-w-56"
            disabled={disabled}
          />
          <Button type="submit" variant="secondary" pending={action.pending} disabled={disabled}>
            Remove timeout
          </Button>
        </form>
      ) : (
        <form className="flex flex-col gap-3" onSubmit={submit}>
          <fieldset disabled={disabled} className="flex flex-wrap gap-1.5">
            <legend className="sr-only">Duration</legend>
            {[...TIMEOUT_PRESETS, ...LONG_TIMEOUT_PRESETS].map((p) => (
              <label key={p.ms} className={PILL}>
                <input type="radio" value={String(p.ms)} className="sr-only" {...register("preset")} />
                {p.label}
              </label>
            ))}
            <label className={PILL}>
              <input type="radio" value="custom" className="sr-only" {...register("preset")} />
              Custom
            </label>
          </fieldset>
          {watch("preset") === "custom" && (
            <label className="flex flex-col gap-1 text-sm">
              Until (your local time, at most 5 years from now; past 28 days this dashboard renews it)
              <Input
                type="datetime-local"
                max={localMax}
                {...fieldProps("member-timeout-custom", customError)}
                {...register("custom")}
                className="max-w-xs"
                disabled={disabled}
              />
              {customError && (
                <span id="member-timeout-custom-error" role="alert" className="text-xs font-medium text-danger">
                  {customError}
                </span>
              )}
            </label>
          )}
          <div className="flex flex-wrap gap-2">
            <ReasonInput
              label="Reason for the timeout"
              value={watch("reason") ?? ""}
              onChange={(text) => setValue("reason", text, { shouldDirty: true })}
              className="h-10 max-w-xs flex-1"
              disabled={disabled}
            />
            <Button type="submit" variant="secondary" pending={action.pending} disabled={disabled}>
              Time out
            </Button>
          </div>
        </form>
      )}
      <ActionErrors message={formState.errors.root?.server?.message ?? formState.errors.reason?.message} />
    </PanelSection>
  );
}
