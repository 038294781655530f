"use client";

// Modify Guild Widget: on or off, and the channel the Join button invites to.
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useUnsavedChanges } from "@/components/dashboard/unsaved-changes";
import { zodResolver } from "@hookform/resolvers/zod";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { Field, fieldProps } from "@/components/ui/field";
import { Select } from "@/components/ui/input";
import { Switch } from "@/components/ui/switch";
import { applyFieldErrors, useAction } from "@/components/dashboard/use-action";
import { modifyGuildWidgetAction } from "@/lib/dashboard/actions/widget";
import { WidgetSettingsSchema, type WidgetSettingsValues } from "@/lib/dashboard/actions/schemas/widget";
import { AUDIT_LOG_REASON_PROPS, ReasonInput } from "@/components/dashboard/reason-input";

export function WidgetSettingsForm({
  guildId,
  defaults,
  channels,
}: {
  guildId: string;
  defaults: WidgetSettingsValues;
  channels: Array<{ id: string; label: string }>;
}) {
  const form = useForm<WidgetSettingsValues>({ resolver: zodResolver(WidgetSettingsSchema), defaultValues: defaults });
  const { register, handleSubmit, setError, reset, formState } = form;
  const [reason, setReason] = useState("");
  useUnsavedChanges(formState.isDirty);
  const { run, pending } = useAction(modifyGuildWidgetAction, { failure: "Couldn't save the widget settings" });

  const onSubmit = handleSubmit(async (values) => {
    const result = await run({ guildId, reason: reason || undefined, ...values });
    if (result.ok) {
      reset({ enabled: result.data.enabled, channel_id: result.data.channel_id ?? null });
      setReason("");
    } else applyFieldErrors(setError, result.fieldErrors, ["enabled", "channel_id"]);
  });

  return (
    <Card>
      <CardHeader
        title="Widget settings"
        description="The widget shows who is online and lets visitors join from any website."
      />
      <form onSubmit={onSubmit} noValidate aria-label="Widget settings" className="flex flex-col gap-4">
        {formState.errors.root?.server && (
          <p role="alert" className="rounded-md border border-danger/40 bg-danger/10 p-3 text-sm">
            {formState.errors.root.server.message}
          </p>
        )}
        <Switch
          id="widget-enabled"
          label="Enable server widget"
          description="The widget's data, its images and the embed stop loading when off."
          {...register("enabled")}
        />
        <Field
          id="channel_id"
          label="Invite channel"
          hint="The Join button creates an invite to this channel. No channel: no Join button."
          error={formState.errors.channel_id?.message}
        >
          <Select
            {...fieldProps("channel_id", formState.errors.channel_id?.message)}
            {...register("channel_id", { setValueAs: (v) => (v === "" ? null : v) })}
          >
            <option value="">No invite</option>
            {channels.map((c) => (
              <option key={c.id} value={c.id}>
                {c.label}
              </option>
            ))}
          </Select>
        </Field>
        <div className="flex flex-wrap items-center gap-3">
          <ReasonInput {...AUDIT_LOG_REASON_PROPS} value={reason} onChange={setReason} className="max-w-sm flex-1" />
          <Button type="submit" pending={pending} disabled={!formState.isDirty} className="ml-auto">
            Save widget settings
          </Button>
        </div>
      </form>
    </Card>
  );
}
