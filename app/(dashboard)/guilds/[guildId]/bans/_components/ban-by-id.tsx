"use client";

// "Ban by id": one user, member or not, without the bulk flow (Create Guild Ban through banUserByIdAction). While an id
// is typed the dialog says who it is (bans/target); a current member with roles gets a warning before the ban.
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Button } from "@/components/ui/button";
import { Dialog, useDialogForm } from "@/components/ui/dialog";
import { Field, fieldProps } from "@/components/ui/field";
import { Icons } from "@/components/ui/icons";
import { Input, Select } from "@/components/ui/input";
import { applyFieldErrors, useAction } from "@/components/dashboard/use-action";
import { banUserByIdAction } from "@/lib/dashboard/actions/bans";
import { BanByIdFormSchema, type BanByIdFormValues } from "@/lib/dashboard/actions/schemas/bans";
import { DeleteMessageOptions } from "@/components/dashboard/delete-message-options";
import { BanLengthField } from "@/components/dashboard/ban-length-field";
import { AUDIT_LOG_REASON_MAX } from "@/lib/discord/limits";
import { isSnowflake } from "@/lib/discord/snowflake";
import type { BanTarget } from "../target/route";

export function BanById({ guildId }: { guildId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        <Icons.ban className="size-4" /> Ban by id
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} title="Ban by id" size="sm">
        {open && <BanByIdForm guildId={guildId} onDone={() => setOpen(false)} />}
      </Dialog>
    </>
  );
}

/** Who the id is, asked a moment after typing stops; null while unknown or not an id. */
function useBanTarget(guildId: string, userId: string): BanTarget | null {
  const [target, setTarget] = useState<BanTarget | null>(null);
  useEffect(() => {
    if (!isSnowflake(userId)) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      fetch(`/guilds/${guildId}/bans/target?id=${userId}`, { signal: controller.signal })
        .then((response) => (response.ok ? (response.json() as Promise<BanTarget>) : null))
        .then(setTarget, () => {});
    }, 250);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [guildId, userId]);
  return target?.id === userId ? target : null;
}

function BanByIdForm({ guildId, onDone }: { guildId: string; onDone: () => void }) {
  const { register, handleSubmit, setError, watch, setValue, formState } = useForm<BanByIdFormValues>({
    resolver: zodResolver(BanByIdFormSchema),
    defaultValues: { userId: "", reason: "", delete_message_seconds: 0, duration: "permanent" },
  });
  const { requestClose } = useDialogForm(formState.isDirty);
  const ban = useAction(banUserByIdAction, { failure: "Couldn't ban" });
  const userId = watch("userId").trim();
  const target = useBanTarget(guildId, userId);
  const roles = target ? target.memberRoles : null;
  const errors = formState.errors;

  return (
    <form
      aria-label="Ban by id"
      className="flex flex-col gap-4"
      onSubmit={handleSubmit(async (values) => {
        const result = await ban.run({
          guildId,
          ...values,
          userId: values.userId.trim(),
          reason: values.reason || undefined,
        });
        if (result.ok) onDone();
        else applyFieldErrors(setError, result.fieldErrors, ["userId", "reason", "delete_message_seconds", "duration"]);
      })}
    >
      <Field id="ban-by-id-user" label="User id" error={errors.userId?.message}>
        <Input
          {...fieldProps("ban-by-id-user", errors.userId?.message)}
          {...register("userId")}
          inputMode="numeric"
          autoComplete="off"
          placeholder="e.g. 80351110224678912"
          autoFocus
        />
      </Field>
      {target && (
        <p
          role={roles && roles.length > 0 ? "alert" : "note"}
          className={
            roles && roles.length > 0
              ? "rounded-md border border-warning/60 bg-warning/10 p-2 text-sm"
              : "text-sm text-ink-muted"
          }
          data-testid="ban-target"
        >
          {roles === null
            ? target.name
              ? `${target.name} is not a member of the server: the ban keeps them from joining.`
              : "No user with this id is known; Discord decides whether the ban applies."
            : roles.length > 0
              ? `${target.name ?? userId} is a member of the server with ${roles.length === 1 ? "the role" : `${roles.length} roles:`} ${roles.join(", ")}. Banning removes them from the server now.`
              : `${target.name ?? userId} is a member of the server (no roles). Banning removes them from the server now.`}
        </p>
      )}
      <Field id="ban-by-id-reason" label="Reason" error={errors.reason?.message}>
        <Input
          {...fieldProps("ban-by-id-reason", errors.reason?.message)}
          {...register("reason")}
          maxLength={AUDIT_LOG_REASON_MAX}
          placeholder="Recorded in the audit log"
        />
      </Field>
      <BanLengthField
        id="ban-by-id-length"
        value={watch("duration") ?? "permanent"}
        onChange={(duration) => setValue("duration", duration, { shouldDirty: true, shouldValidate: true })}
        error={
          errors.duration?.message ??
          (errors.duration as { amount?: { message?: string } } | undefined)?.amount?.message
        }
      />
      <Field id="ban-by-id-delete" label="Delete message history" error={errors.delete_message_seconds?.message}>
        <Select
          {...fieldProps("ban-by-id-delete", errors.delete_message_seconds?.message)}
          {...register("delete_message_seconds", { valueAsNumber: true })}
        >
          <DeleteMessageOptions />
        </Select>
      </Field>
      <div className="flex justify-end gap-2">
        <Button variant="ghost" onClick={requestClose}>
          Cancel
        </Button>
        <Button type="submit" variant="danger" pending={ban.pending}>
          {roles && roles.length > 0 ? "Ban this member" : "Ban"}
        </Button>
      </div>
    </form>
  );
}
