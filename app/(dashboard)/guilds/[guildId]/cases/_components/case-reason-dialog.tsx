"use client";

// A case's reason, edited in a dialog: the text within Discord's 512 characters (the same schema the server checks),
// and the edits before this one, oldest first, as the case keeps them.
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { fieldProps } from "@/components/ui/field";
import { Textarea } from "@/components/ui/input";
import { applyFieldErrors, useAction } from "@/components/dashboard/use-action";
import { editCaseReasonAction } from "@/lib/dashboard/actions/cases";
import { EditCaseReasonInputSchema } from "@/lib/dashboard/actions/schemas/cases";
import { AUDIT_LOG_REASON_MAX } from "@/lib/discord/limits";
import type { ListedCase } from "@/lib/dashboard/cases/store";

const ReasonFormSchema = EditCaseReasonInputSchema.pick({ reason: true });
type ReasonFormValues = { reason: string };

export function CaseReasonDialog({
  guildId,
  caseView,
  onClose,
}: {
  guildId: string;
  caseView: ListedCase | null;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={caseView !== null}
      onClose={onClose}
      title={caseView ? `Case #${caseView.number}: reason` : ""}
      description="The case keeps every earlier reason, with who changed it and when."
    >
      {caseView && <ReasonForm key={caseView.id} guildId={guildId} caseView={caseView} onDone={onClose} />}
    </Dialog>
  );
}

function ReasonForm({ guildId, caseView, onDone }: { guildId: string; caseView: ListedCase; onDone: () => void }) {
  const { register, handleSubmit, setError, watch, formState } = useForm<ReasonFormValues>({
    resolver: zodResolver(ReasonFormSchema),
    defaultValues: { reason: caseView.reason ?? "" },
  });
  const action = useAction(editCaseReasonAction, { failure: "Couldn't save the reason" });
  const error = formState.errors.reason?.message;
  const value = watch("reason") ?? "";
  return (
    <form
      className="flex flex-col gap-3"
      onSubmit={handleSubmit(async (values) => {
        const result = await action.run({ guildId, number: caseView.number, reason: values.reason });
        if (result.ok) onDone();
        else applyFieldErrors(setError, result.fieldErrors, ["reason"]);
      })}
    >
      <label htmlFor="case-reason" className="text-sm font-medium">
        Reason
      </label>
      <Textarea
        {...fieldProps("case-reason", error)}
        {...register("reason")}
        rows={4}
        maxLength={AUDIT_LOG_REASON_MAX}
        placeholder="No reason given"
      />
      <span className="text-xs text-ink-muted" id="case-reason-hint">
        {[...value].length}/{AUDIT_LOG_REASON_MAX}
      </span>
      {error && (
        <p id="case-reason-error" role="alert" className="text-xs font-medium text-danger">
          {error}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button type="button" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" pending={action.pending} disabled={!formState.isDirty}>
          Save reason
        </Button>
      </div>
    </form>
  );
}
