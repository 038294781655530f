"use client";

// Create Channel Invite: the channel, when it expires, how many uses, temporary membership, and whether to reuse a
// similar invite of yours; then the new invite's link, ready to copy.
import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Button } from "@/components/ui/button";
import { DisabledReason } from "@/components/ui/card";
import { Dialog, useDialogForm } from "@/components/ui/dialog";
import { Field, fieldProps } from "@/components/ui/field";
import { Icons } from "@/components/ui/icons";
import { Input, Select } from "@/components/ui/input";
import { Switch } from "@/components/ui/switch";
import { applyFieldErrors, useAction } from "@/components/dashboard/use-action";
import { createChannelInviteAction } from "@/lib/dashboard/actions/invites";
import {
  CreateInviteFormSchema,
  INVITE_MAX_AGE_PRESETS,
  INVITE_MAX_USES_PRESETS,
  type CreateInviteValues,
} from "@/lib/dashboard/actions/schemas/invites";
import { INVITE_MAX_AGE, INVITE_MAX_USES } from "@/lib/discord/limits";
import { ReasonField } from "@/components/dashboard/reason-input";
import { CopyInviteLink } from "./copy-invite-link";

export interface InvitableChannel {
  id: string;
  name: string;
  type: number;
}

const numberOrNaN = (v: unknown) => (v === "" || v === null || v === undefined ? Number.NaN : Number(v));

export function CreateInviteButton({
  guildId,
  channels,
  blockedReason,
  linkBase,
}: {
  guildId: string;
  channels: InvitableChannel[];
  blockedReason: string | null;
  /** Invite links are `${linkBase}/${code}`. */
  linkBase: string;
}) {
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const close = () => {
    setOpen(false);
    setCreated(null);
  };
  const reason = blockedReason ?? (channels.length === 0 ? "no channel to invite to" : null);
  return (
    <div className="flex flex-col items-end gap-1">
      <Button onClick={() => setOpen(true)} disabled={Boolean(reason)}>
        <Icons.plus className="size-4" /> Create invite
      </Button>
      <DisabledReason reason={reason} />
      <Dialog open={open} onClose={close} title={created ? "Invite created" : "Create invite"} size="md">
        {open && created ? (
          <div className="flex flex-col gap-4">
            <p className="text-sm">Share this link. Anyone who opens it sees the server and can join.</p>
            <CopyInviteLink url={`${linkBase}/${created}`} />
            <div className="flex justify-end">
              <Button variant="ghost" onClick={close}>
                Done
              </Button>
            </div>
          </div>
        ) : (
          open && <CreateInviteForm guildId={guildId} channels={channels} onDone={setCreated} />
        )}
      </Dialog>
    </div>
  );
}

function CreateInviteForm({
  guildId,
  channels,
  onDone,
}: {
  guildId: string;
  channels: InvitableChannel[];
  onDone: (code: string) => void;
}) {
  const { register, handleSubmit, setError, formState } = useForm<CreateInviteValues>({
    resolver: zodResolver(CreateInviteFormSchema),
    defaultValues: {
      channelId: channels[0]?.id ?? "",
      max_age: INVITE_MAX_AGE.default,
      max_uses: INVITE_MAX_USES.default,
      temporary: false,
      unique: false,
    },
  });
  const errors = formState.errors;
  const { run, pending } = useAction(createChannelInviteAction, { failure: "Couldn't create the invite" });
  const [reason, setReason] = useState("");
  const { requestClose } = useDialogForm(formState.isDirty || reason !== "");

  const onSubmit = handleSubmit(async (values) => {
    const result = await run({ ...values, guildId, reason: reason || undefined });
    if (result.ok) onDone(result.data.code);
    else applyFieldErrors(setError, result.fieldErrors, ["channelId", "max_age", "max_uses", "temporary", "unique"]);
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Create invite" className="flex flex-col gap-4">
      <Field id="invite-channel" label="Channel" error={errors.channelId?.message}>
        <Select {...fieldProps("invite-channel", errors.channelId?.message)} autoFocus {...register("channelId")}>
          {channels.map((c) => (
            <option key={c.id} value={c.id}>
              #{c.name}
            </option>
          ))}
        </Select>
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="invite-max-age" label="Expire after" error={errors.max_age?.message}>
          <Select
            {...fieldProps("invite-max-age", errors.max_age?.message)}
            {...register("max_age", { setValueAs: numberOrNaN })}
          >
            {INVITE_MAX_AGE_PRESETS.map((p) => (
              <option key={p.seconds} value={p.seconds}>
                {p.label}
              </option>
            ))}
          </Select>
        </Field>
        <Field
          id="invite-max-uses"
          label="Max number of uses"
          hint={`0 is no limit; at most ${INVITE_MAX_USES.max}.`}
          error={errors.max_uses?.message}
        >
          <Input
            type="number"
            inputMode="numeric"
            min={INVITE_MAX_USES.min}
            max={INVITE_MAX_USES.max}
            list="invite-max-uses-presets"
            {...fieldProps("invite-max-uses", errors.max_uses?.message)}
            {...register("max_uses", { setValueAs: numberOrNaN })}
          />
          <datalist id="invite-max-uses-presets">
            {INVITE_MAX_USES_PRESETS.map((n) => (
              <option key={n} value={n} label={n === 0 ? "No limit" : `${n} use${n === 1 ? "" : "s"}`} />
            ))}
          </datalist>
        </Field>
      </div>
      <div className="divide-y divide-line rounded-lg px-3 ring-1 ring-line">
        <Switch
          id="invite-temporary"
          label="Grant temporary membership"
          description="Members who join with it are removed when they disconnect, unless they have been given a role."
          {...register("temporary")}
        />
        <Switch
          id="invite-unique"
          label="Always a new link"
          description="Don't reuse an existing invite of yours with the same settings."
          {...register("unique")}
        />
      </div>
      {errors.root?.server?.message && (
        <p role="alert" className="text-sm text-danger">
          {errors.root.server.message}
        </p>
      )}
      <ReasonField
        id="invite-reason"
        label="Reason (optional)"
        hint="Recorded in the audit log."
        value={reason}
        onChange={setReason}
      />
      <div className="flex justify-end gap-2">
        <Button variant="ghost" onClick={requestClose}>
          Cancel
        </Button>
        <Button type="submit" pending={pending}>
          Create invite
        </Button>
      </div>
    </form>
  );
}
