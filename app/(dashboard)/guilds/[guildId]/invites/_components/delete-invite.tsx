"use client";

// Delete Invite, with a reason for the audit log.
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogCancel } from "@/components/ui/dialog";
import { useAction } from "@/components/dashboard/use-action";
import { deleteInviteAction } from "@/lib/dashboard/actions/invites";
import type { InviteRow } from "@/lib/dashboard/data/invites";
import { ReasonField } from "@/components/dashboard/reason-input";

export function DeleteInviteDialog({
  guildId,
  invite,
  onClose,
}: {
  guildId: string;
  invite: InviteRow;
  onClose: () => void;
}) {
  const { run, pending } = useAction(deleteInviteAction, { failure: "Couldn't delete the invite" });
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | undefined>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await run({ guildId, code: invite.code, reason: reason || undefined });
    if (result.ok) onClose();
    else setError(result.fieldErrors.reason?.join(" "));
  };

  return (
    <Dialog open onClose={onClose} dirty={reason !== ""} title={`Delete invite ${invite.code}`} size="sm">
      <form onSubmit={submit} noValidate aria-label="Delete invite" className="flex flex-col gap-4">
        <p className="text-sm">
          The link stops working at once{invite.channel ? ` (it points to #${invite.channel.name}` : ""}
          {invite.channel && invite.uses !== null
            ? `, used ${invite.uses} time${invite.uses === 1 ? "" : "s"})`
            : invite.channel
              ? ")"
              : ""}
          . Its target-users list goes with it.
        </p>
        <ReasonField
          id="delete-invite-reason"
          label="Reason"
          hint="Recorded in the audit log."
          error={error}
          value={reason}
          onChange={setReason}
          autoFocus
        />
        <div className="flex justify-end gap-2">
          <DialogCancel />
          <Button type="submit" variant="danger" pending={pending}>
            Delete invite
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
