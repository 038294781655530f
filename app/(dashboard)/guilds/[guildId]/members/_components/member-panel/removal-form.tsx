"use client";

// Kick or ban, each confirmed with a reason (Discord's 512 characters, in the field and the schema); a ban may also
// delete the member's recent messages.
import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Button } from "@/components/ui/button";
import { DisabledReason } from "@/components/ui/card";
import { Field, fieldProps } from "@/components/ui/field";
import { Input, Select } from "@/components/ui/input";
import { DeleteMessageOptions } from "@/components/dashboard/delete-message-options";
import { BanLengthField } from "@/components/dashboard/ban-length-field";
import { applyFieldErrors, useAction } from "@/components/dashboard/use-action";
import { banMemberAction, kickMemberAction } from "@/lib/dashboard/actions/members";
import { RemovalFormSchema, type RemovalFormValues } from "@/lib/dashboard/actions/schemas/members";
import { AUDIT_LOG_REASON_MAX } from "@/lib/discord/limits";
import { ActionErrors, PanelSection } from "./panel-section";
import { useReportDirty } from "./use-dirty-forms";
import { useConfirmDiscard } from "@/components/dashboard/unsaved-changes";

export function RemovalForm({
  guildId,
  userId,
  userName,
  kickBlocked,
  banBlocked,
  onRemoved,
  onDirtyChange,
}: {
  guildId: string;
  userId: string;
  userName: string;
  kickBlocked: string | null;
  banBlocked: string | null;
  onRemoved: () => void;
  onDirtyChange: (dirty: boolean) => void;
}) {
  const [confirm, setConfirm] = useState<"kick" | "ban" | null>(null);
  return (
    <PanelSection title="Remove from server">
      <div className="flex flex-wrap gap-2">
        <span className="flex flex-col gap-1">
          <Button
            variant="danger"
            size="sm"
            disabled={Boolean(kickBlocked)}
            onClick={() => setConfirm("kick")}
            aria-expanded={confirm === "kick"}
          >
            Kick
          </Button>
          <DisabledReason reason={kickBlocked} />
        </span>
        <span className="flex flex-col gap-1">
          <Button
            variant="danger"
            size="sm"
            disabled={Boolean(banBlocked)}
            onClick={() => setConfirm("ban")}
            aria-expanded={confirm === "ban"}
          >
            Ban
          </Button>
          <DisabledReason reason={banBlocked} />
        </span>
      </div>
      {confirm && (
        <ConfirmRemoval
          key={confirm}
          kind={confirm}
          base={{ guildId, userId, userName }}
          onCancel={() => setConfirm(null)}
          onRemoved={onRemoved}
          onDirtyChange={onDirtyChange}
        />
      )}
    </PanelSection>
  );
}

function ConfirmRemoval({
  kind,
  base,
  onCancel,
  onRemoved,
  onDirtyChange,
}: {
  kind: "kick" | "ban";
  base: { guildId: string; userId: string; userName: string };
  onCancel: () => void;
  onRemoved: () => void;
  onDirtyChange: (dirty: boolean) => void;
}) {
  const { register, handleSubmit, setError, watch, setValue, formState } = useForm<RemovalFormValues>({
    resolver: zodResolver(RemovalFormSchema),
    defaultValues: { reason: "", delete_message_seconds: 0, duration: "permanent" },
  });
  useReportDirty(formState.isDirty, onDirtyChange);
  // Cancel drops a typed reason: it asks first, as closing the panel does.
  const confirmDiscard = useConfirmDiscard();
  const cancel = () => void confirmDiscard(formState.isDirty).then((discard) => discard && onCancel());
  const kick = useAction(kickMemberAction, { failure: "Couldn't kick the member" });
  const ban = useAction(banMemberAction, { failure: "Couldn't ban the member" });
  const reasonError = formState.errors.reason?.message;

  return (
    <form
      className="mt-3 flex flex-col gap-3 rounded-lg border border-danger/40 bg-danger/5 p-3"
      aria-label={kind === "kick" ? "Confirm kick" : "Confirm ban"}
      onSubmit={handleSubmit(async (values) => {
        const reason = values.reason || undefined;
        const result =
          kind === "kick"
            ? await kick.run({ guildId: base.guildId, userId: base.userId, reason })
            : await ban.run({
                guildId: base.guildId,
                userId: base.userId,
                reason,
                delete_message_seconds: values.delete_message_seconds,
                duration: values.duration ?? "permanent",
              });
        if (result.ok) onRemoved();
        else applyFieldErrors(setError, result.fieldErrors, ["reason", "delete_message_seconds", "duration"]);
      })}
    >
      <p className="text-sm">
        {kind === "kick"
          ? `Kick ${base.userName}? They can rejoin with an invite.`
          : `Ban ${base.userName}? They can't rejoin until unbanned.`}
      </p>
      <Field id="member-removal-reason" label="Reason" error={reasonError}>
        <Input
          {...fieldProps("member-removal-reason", reasonError)}
          {...register("reason")}
          maxLength={AUDIT_LOG_REASON_MAX}
          placeholder="Recorded in the audit log"
          autoFocus
        />
      </Field>
      {kind === "ban" && (
        <BanLengthField
          id="member-removal-length"
          value={watch("duration") ?? "permanent"}
          onChange={(duration) => setValue("duration", duration, { shouldDirty: true, shouldValidate: true })}
          error={formState.errors.duration?.message}
        />
      )}
      {kind === "ban" && (
        <Field id="member-removal-delete" label="Delete message history">
          <Select
            {...fieldProps("member-removal-delete")}
            {...register("delete_message_seconds", { valueAsNumber: true })}
            className="max-w-xs"
          >
            <DeleteMessageOptions />
          </Select>
        </Field>
      )}
      <div className="flex gap-2">
        <Button type="submit" variant="danger" pending={kick.pending || ban.pending}>
          {kind === "kick" ? "Kick member" : "Ban member"}
        </Button>
        <Button variant="ghost" onClick={cancel}>
          Cancel
        </Button>
      </div>
      <ActionErrors message={formState.errors.root?.server?.message} />
    </form>
  );
}
