"use client";

// Invites: this channel's invites (Get Channel Invites, every one: no paging), each with its link to copy and a revoke
// button; a DataTable, cards on a phone.
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { Dialog, DialogCancel } from "@/components/ui/dialog";
import { useToast } from "@/components/ui/toast";
import { useAction } from "@/components/dashboard/use-action";
import { ReasonField } from "@/components/dashboard/reason-input";
import { deleteInviteAction } from "@/lib/dashboard/actions/invites";
import { DataTable, type DataColumn } from "@/components/data-table/data-table";

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

  const columns: DataColumn<ChannelInviteRow>[] = [
    { id: "code", header: "Code", cell: ({ row }) => <span className="font-mono">{row.original.code}</span> },
    { id: "inviter", header: "Inviter", cell: ({ row }) => row.original.inviter ?? "—" },
    {
      id: "uses",
      header: "Uses",
      align: "right",
      cell: ({ row }) => (
        <span className="tabular-nums">
          {row.original.uses}
          {row.original.maxUses ? ` / ${row.original.maxUses}` : ""}
        </span>
      ),
    },
    {
      id: "expires",
      header: "Expires",
      cell: ({ row }) =>
        row.original.expiresAt
          ? new Date(row.original.expiresAt).toISOString().slice(0, 16).replace("T", " ")
          : "Never",
    },
    {
      id: "actions",
      header: "Actions",
      headerHidden: true,
      cell: ({ row }) => (
        <div className="flex gap-1 sm:justify-end">
          <Button size="sm" variant="secondary" onClick={() => void copy(row.original)}>
            Copy link
          </Button>
          <Button
            size="sm"
            variant="ghost"
            className="text-danger"
            aria-label={`Revoke ${row.original.code}`}
            onClick={() => setRevoking(row.original)}
          >
            Revoke
          </Button>
        </div>
      ),
    },
  ];

  return (
    <Card>
      <CardHeader title="Invites" description="Links that lead into this channel. Revoking one stops it at once." />
      <DataTable
        id="channel-invites"
        columns={columns}
        data={invites}
        getRowId={(invite) => invite.code}
        caption="Invites to this channel"
        emptyTitle="No invites"
        emptyText="Nobody has made an invite to this channel yet."
      />
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
