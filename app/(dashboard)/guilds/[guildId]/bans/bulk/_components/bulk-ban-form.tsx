"use client";

// A new bulk-ban job: paste ids (any separators) or upload a CSV or text file, see at once how many ids there are,
// how many duplicates were dropped and which tokens are not ids, then ask the server for the preview.
import { useMemo, useState } from "react";
import { useForm } from "react-hook-form";
import { BanLengthField } from "@/components/dashboard/ban-length-field";
import { zodResolver } from "@hookform/resolvers/zod";
import { Button } from "@/components/ui/button";
import { Field, fieldProps } from "@/components/ui/field";
import { Input, Select, Textarea } from "@/components/ui/input";
import { applyFieldErrors, useAction } from "@/components/dashboard/use-action";
import { previewBulkBanAction } from "@/lib/dashboard/actions/bans";
import { BulkBanFormSchema, type BulkBanFormValues } from "@/lib/dashboard/actions/schemas/bans";
import { DeleteMessageOptions } from "@/components/dashboard/delete-message-options";
import { BULK_BAN_JOB_MAX_IDS, idsFromCsv, parseUserIds } from "@/lib/dashboard/jobs/bulk-ban/parse";
import { AUDIT_LOG_REASON_MAX } from "@/lib/discord/limits";
import { InvalidTokens } from "./invalid-tokens";
import { formatNumber, useLocale } from "@/components/ui/locale";
import { useNavigateAway } from "@/components/dashboard/unsaved-changes";
import { plural } from "@/lib/dashboard/plural";

export function BulkBanForm({ guildId }: { guildId: string }) {
  const navigateAway = useNavigateAway();
  const locale = useLocale();
  const n = (count: number) => formatNumber(count, locale);
  const { register, handleSubmit, watch, setValue, setError, formState } = useForm<BulkBanFormValues>({
    resolver: zodResolver(BulkBanFormSchema),
    defaultValues: { text: "", delete_message_seconds: 0, reason: "", duration: "permanent" },
  });
  const errors = formState.errors;
  const text = watch("text");
  const parsed = useMemo(() => parseUserIds(text), [text]);
  const [fileError, setFileError] = useState<string | null>(null);
  const { run, pending } = useAction(previewBulkBanAction, { failure: "Couldn't prepare the bulk ban" });

  const onFile = async (file: File | undefined) => {
    setFileError(null);
    if (!file) return;
    if (file.size > 2_000_000) return setFileError("That file is larger than 2 MB; split it into several jobs.");
    const ids = idsFromCsv(await file.text());
    setValue("text", text.trim() ? `${text.trim()}\n${ids}` : ids, { shouldValidate: true });
  };

  const onSubmit = handleSubmit(async (values) => {
    const result = await run({ ...values, guildId, reason: values.reason || undefined });
    if (result.ok) navigateAway(`/guilds/${guildId}/bans/bulk/${result.data.jobId}`);
    else applyFieldErrors(setError, result.fieldErrors, ["text", "delete_message_seconds", "reason", "duration"]);
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="New bulk ban" className="flex flex-col gap-4">
      <Field
        id="bulk-ids"
        label="User ids"
        hint={`Separated by anything: spaces, commas, new lines. Duplicates are removed. At most ${formatNumber(BULK_BAN_JOB_MAX_IDS, locale)} ids.`}
        error={errors.text?.message}
      >
        <Textarea
          {...fieldProps("bulk-ids", errors.text?.message)}
          rows={8}
          spellCheck={false}
          className="font-mono text-xs"
          placeholder={"123456789012345678\n234567890123456789, 345678901234567890"}
          {...register("text")}
        />
      </Field>
      <Field
        id="bulk-file"
        label="Or import a file"
        hint="A CSV with a user_id or id column (the ban export has one), or any text file of ids."
        error={fileError ?? undefined}
      >
        <Input
          {...fieldProps("bulk-file", fileError ?? undefined)}
          type="file"
          accept=".csv,.txt,text/csv,text/plain"
          className="h-auto py-1.5 file:mr-3 file:rounded file:border-0 file:bg-surface-raised file:px-2 file:py-1 file:text-sm file:text-ink"
          onChange={(e) => void onFile(e.target.files?.[0])}
        />
      </Field>
      <p role="status" aria-live="polite" className="text-sm" data-testid="parse-summary">
        <strong>{formatNumber(parsed.ids.length, locale)}</strong> unique {parsed.ids.length === 1 ? "id" : "ids"}
        {parsed.duplicates > 0 && <>, {plural(parsed.duplicates, "duplicate", { format: n })} removed</>}
        {parsed.invalid.length > 0 && (
          <>
            ,{" "}
            <span className="text-danger">
              {plural(parsed.invalid.length, "not an id", { many: "not ids", format: n })}
            </span>
          </>
        )}
        .
      </p>
      <InvalidTokens tokens={parsed.invalid} />
      <div className="grid gap-4 sm:grid-cols-2">
        <BanLengthField
          id="bulk-length"
          value={watch("duration") ?? "permanent"}
          onChange={(duration) => setValue("duration", duration, { shouldDirty: true, shouldValidate: true })}
          error={errors.duration?.message}
        />
        <Field id="bulk-delete" label="Delete their recent messages" error={errors.delete_message_seconds?.message}>
          <Select
            {...fieldProps("bulk-delete", errors.delete_message_seconds?.message)}
            {...register("delete_message_seconds", { valueAsNumber: true })}
          >
            <DeleteMessageOptions />
          </Select>
        </Field>
        <Field
          id="bulk-reason"
          label="Reason (audit log)"
          hint={`Sent with every chunk. At most ${AUDIT_LOG_REASON_MAX} characters.`}
          error={errors.reason?.message}
        >
          <Input
            {...fieldProps("bulk-reason", errors.reason?.message)}
            maxLength={AUDIT_LOG_REASON_MAX}
            {...register("reason")}
          />
        </Field>
      </div>
      <div className="flex flex-wrap items-center justify-end gap-3">
        <span className="text-xs text-ink-muted">
          The preview checks every id; nothing is banned until you start the job.
        </span>
        <Button type="submit" pending={pending}>
          Preview
        </Button>
      </div>
    </form>
  );
}
