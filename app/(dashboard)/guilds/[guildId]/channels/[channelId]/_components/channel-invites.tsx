"use client";

// Invites: this channel's invites (Get Channel Invites), each with its link to copy and a revoke button.
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardHeader, EmptyState } from "@/components/ui/card";
import { Dialog, DialogCancel } from "@/components/ui/dialog";
import { useToast } from "@/components/ui/toast";
import { useAction } from "@/components/dashboard/use-action";
import { ReasonField } from "@/components/dashboard/reason-input";
import { deleteInviteAction } from "@/lib/dashboard/actions/invites";
import { TableHead } from "@/components/ui/table-head";

export interface ChannelInviteRow {
  code: string;
  url: string;
  inviter: string | null;
  uses: number;
  maxUses: number;
  expiresAt: string | null;
}

export function ChannelInvites({ guildId, invites }: { guildId: string; invites: ChannelInviteRow[] }) {
  const toast = useToast();
  const [revoking, setRevoking] = useState<ChannelInviteRow | null>(null);
  const [reason, setReason] = useState("");
  // The reason typed for one invite is not offered for the next.
  const closeRevoke = () => {
    setRevoking(null);
    setReason("");
  };
  const { run, pending } = useAction(deleteInviteAction, { failure: "Couldn't revoke the invite" });

  const copy = async (invite: ChannelInviteRow) => {
    try {
      await navigator.clipboard.writeText(invite.url);
      toast.success("Link copied", invite.url);
    } catch {
      toast.error("Couldn't copy", `Copy it by hand: ${invite.url}`);
    }
  };

  return (
    <Card>
      <CardHeader title="Invites" description="Links that lead into this channel. Revoking one stops it at once." />
      {invites.length === 0 ? (
        <EmptyState title="No invites">Nobody has made an invite to this channel yet.</EmptyState>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full min-w-[36rem] text-sm">
            <caption className="sr-only">Invites to this channel</caption>
            <TableHead
              columns={[
                { label: "Code" },
                { label: "Inviter" },
                { label: "Uses", align: "right" },
                { label: "Expires" },
                { label: "Actions", align: "right" },
              ]}
            />
            <tbody>
              {invites.map((invite) => (
                <tr key={invite.code} className="border-b border-line last:border-0">
                  <td className="px-3 py-2 font-mono">{invite.code}</td>
                  <td className="px-3 py-2">{invite.inviter ?? "—"}</td>
                  <td className="px-3 py-2 text-right tabular-nums">
                    {invite.uses}
                    {invite.maxUses ? ` / ${invite.maxUses}` : ""}
                  </td>
                  <td className="px-3 py-2">
                    {invite.expiresAt
                      ? new Date(invite.expiresAt).toISOString().slice(0, 16).replace("T", " ")
                      : "Never"}
                  </td>
                  <td className="px-3 py-2">
                    <div className="flex justify-end gap-1">
                      <Button size="sm" variant="secondary" onClick={() => void copy(invite)}>
                        Copy link
                      </Button>
                      <Button
                        size="sm"
                        variant="ghost"
                        className="text-danger"
                        aria-label={`Revoke ${invite.code}`}
                        onClick={() => setRevoking(invite)}
                      >
                        Revoke
                      </Button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Dialog
        open={revoking !== null}
        onClose={closeRevoke}
        dirty={reason !== ""}
        title={`Revoke invite ${revoking?.code ?? ""}`}
        size="sm"
        footer={
          <>
            <DialogCancel />
            <Button
              variant="danger"
              pending={pending}
              onClick={async () => {
                if (!revoking) return;
                const result = await run({ guildId, code: revoking.code, reason: reason || undefined });
                if (result.ok) closeRevoke();
              }}
            >
              Revoke invite
            </Button>
          </>
        }
      >
        <ReasonField
          id="revoke-reason"
          label="Reason"
          hint="Recorded in the audit log."
          value={reason}
          onChange={setReason}
        />
      </Dialog>
    </Card>
  );
}
