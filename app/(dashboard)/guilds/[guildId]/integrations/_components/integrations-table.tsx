"use client";

// The integrations table (every integration the API lists, at most 50: no paging, and no header sorts, since Get Guild
// Integrations has no order to ask for) and the delete confirmation: it names what goes with the integration (its bot
// is kicked, its webhooks deleted, subscribers lose the role it manages) and takes a reason for the audit log.
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { UserChip } from "@/components/dashboard/user-chip";
import { Button } from "@/components/ui/button";
import { Dialog, DialogCancel } from "@/components/ui/dialog";
import { Icons } from "@/components/ui/icons";
import { DataTable, type DataColumn } from "@/components/data-table/data-table";
import { useAction } from "@/components/dashboard/use-action";
import { deleteGuildIntegrationAction } from "@/lib/dashboard/actions/integrations";
import type { IntegrationRow } from "@/lib/dashboard/data/integrations";
import { ReasonField } from "@/components/dashboard/reason-input";
import { formatNumber, useLocale } from "@/components/ui/locale";
import { formatExactTime } from "@/components/ui/relative-time";

function SyncState({ row }: { row: IntegrationRow }) {
  const locale = useLocale();
  if (!row.sync) return <span className="text-xs text-ink-muted">not synced (bot)</span>;
  const s = row.sync;
  return (
    <div className="flex flex-col gap-0.5 text-xs">
      <span className="flex flex-wrap gap-1">
        {s.revoked ? <Badge tone="danger">revoked</Badge> : null}
        {s.syncing ? <Badge tone="warning">syncing</Badge> : s.syncing === false ? <Badge>idle</Badge> : null}
      </span>
      {s.syncedAt && <span>synced {formatExactTime(Date.parse(s.syncedAt), locale)}</span>}
      {s.subscriberCount !== null && <span>{formatNumber(s.subscriberCount, locale)} subscribers</span>}
      {s.role && <span>role {s.role.name}</span>}
      {s.expireBehavior && (
        <span className="text-ink-muted">
          on expiry: {s.expireBehavior}
          {s.expireGraceDays !== null ? ` after ${s.expireGraceDays} d` : ""}
        </span>
      )}
    </div>
  );
}

export function IntegrationsTable({
  guildId,
  integrations,
  hiddenColumns,
}: {
  guildId: string;
  integrations: IntegrationRow[];
  hiddenColumns: readonly string[];
}) {
  const [target, setTarget] = useState<IntegrationRow | null>(null);
  const [deleted, setDeleted] = useState<ReadonlySet<string>>(new Set());
  const [reason, setReason] = useState("");
  const { run, pending } = useAction(deleteGuildIntegrationAction, { failure: "Couldn't delete the integration" });

  const rows = integrations.filter((i) => !deleted.has(i.id));
  const close = () => {
    setTarget(null);
    setReason("");
  };
  const confirm = async () => {
    if (!target) return;
    const result = await run({
      guildId,
      integrationId: target.id,
      reason: reason || undefined,
    });
    if (result.ok) {
      setDeleted((d) => new Set([...d, target.id]));
      close();
    }
  };

  const columns: DataColumn<IntegrationRow>[] = [
    {
      id: "name",
      header: "Integration",
      cell: ({ row }) => (
        <div className="flex flex-col">
          <span className="font-medium">{row.original.name}</span>
          <span className="flex flex-wrap gap-1">
            <Badge tone="blurple">{row.original.typeLabel}</Badge>
            {row.original.enabled ? <Badge tone="success">enabled</Badge> : <Badge>disabled</Badge>}
          </span>
        </div>
      ),
    },
    {
      id: "account",
      header: "Account",
      cell: ({ row }) => (
        <div className="flex flex-col text-xs">
          <span className="text-sm">{row.original.account.name}</span>
          <span className="font-mono text-ink-muted">{row.original.account.id}</span>
        </div>
      ),
    },
    {
      id: "bot",
      header: "Bot",
      cell: ({ row }) =>
        row.original.bot ? (
          <span className="flex flex-col gap-0.5">
            <UserChip user={row.original.bot} size={24} />
            {row.original.scopes.length > 0 && (
              <span className="text-xs text-ink-muted">{row.original.scopes.join(", ")}</span>
            )}
          </span>
        ) : (
          <span className="text-ink-muted">none</span>
        ),
    },
    { id: "sync", header: "Sync", cell: ({ row }) => <SyncState row={row.original} /> },
    {
      id: "by",
      header: "Added by",
      cell: ({ row }) =>
        row.original.addedBy ? (
          <UserChip user={row.original.addedBy} size={24} />
        ) : (
          <span className="text-ink-muted">unknown</span>
        ),
    },
    {
      id: "actions",
      header: "Actions",
      headerHidden: true,
      cell: ({ row }) => (
        <Button
          size="sm"
          variant="danger"
          onClick={() => setTarget(row.original)}
          aria-label={`Delete ${row.original.name}`}
        >
          Delete
        </Button>
      ),
    },
  ];

  return (
    <>
      <DataTable
        id="integrations"
        columns={columns}
        data={rows}
        getRowId={(r) => r.id}
        caption="Integrations"
        emptyTitle="No integrations"
        emptyText="Bots added to the server and connected services (streaming platforms, server subscriptions) appear here."
        hiddenColumns={hiddenColumns}
        toolbar={
          rows.length > 0 && (
            <p className="text-sm text-ink-muted">
              {rows.length} integration{rows.length === 1 ? "" : "s"}
            </p>
          )
        }
      />
      <Dialog
        open={target !== null}
        onClose={close}
        dirty={reason !== ""}
        title={`Delete ${target?.name ?? "integration"}?`}
        size="sm"
        footer={
          <>
            <DialogCancel />
            <Button variant="danger" pending={pending} onClick={confirm}>
              Delete integration
            </Button>
          </>
        }
      >
        {target && (
          <div className="flex flex-col gap-4 text-sm">
            <div role="alert" className="flex gap-2 rounded-md border border-danger/40 bg-danger/10 p-3">
              <Icons.alert className="mt-0.5 size-4 shrink-0" />
              <ul className="flex flex-col gap-1">
                {target.bot ? (
                  <li>
                    Its bot, <strong>{target.bot.username ?? target.bot.displayName}</strong>, is kicked from the
                    server.
                  </li>
                ) : (
                  <li>It has no bot in the server.</li>
                )}
                <li>Its webhooks are deleted.</li>
                {target.sync?.role && <li>Subscribers stop getting the {target.sync.role.name} role through it.</li>}
                <li>This can&apos;t be undone: it has to be connected again.</li>
              </ul>
            </div>
            <ReasonField
              id="integration-reason"
              label="Reason"
              hint="Goes to the server's audit log."
              value={reason}
              onChange={setReason}
              autoFocus
            />
          </div>
        )}
      </Dialog>
    </>
  );
}
