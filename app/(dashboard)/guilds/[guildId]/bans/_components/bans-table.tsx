"use client";

// The ban list: columns over the generic server-paged DataTable (each banned user and who banned them, by
// name with the id to copy; the Banned user header sorts by account age, the order of Get Guild Bans), and an unban
// dialog asking for a reason.
import { useMemo, useState } from "react";
import { RelativeTime } from "@/components/ui/relative-time";
import { UserChip } from "@/components/dashboard/user-chip";
import { Button } from "@/components/ui/button";
import { Dialog, useDialogForm } from "@/components/ui/dialog";
import { DataTable, type ColumnSort, type ServerPage, type DataColumn } from "@/components/data-table/data-table";
import { useUrlState } from "@/components/data-table/url-state";
import { useAction } from "@/components/dashboard/use-action";
import { unbanUserAction } from "@/lib/dashboard/actions/bans";
import { AUDIT_LOG_REASON_MAX } from "@/lib/discord/limits";
import type { BanRow } from "@/lib/dashboard/data/bans";
import { BAN_PAGING_KEYS, DEFAULT_BAN_SORT, type BanSortKey } from "@/lib/dashboard/data/ban-sorts";
import type { BanActor } from "@/lib/dashboard/data/ban-actors";
import type { BanEnding } from "@/lib/dashboard/cases/schedule";
import { formatCountdown } from "@/components/dashboard/durations";
import { formatExactTime } from "@/components/ui/relative-time";
import { useLocale } from "@/components/ui/locale";
import type { UserRef } from "@/lib/dashboard/users/user-ref";
import { ReasonField } from "@/components/dashboard/reason-input";

/** A user id is the account's creation time: ascending, oldest accounts first (the API's order). */
const BY_ACCOUNT_AGE: ColumnSort = { ascending: "oldest", descending: "newest" } satisfies Record<
  "ascending" | "descending",
  BanSortKey
>;

export function BansTable({
  guildId,
  rows,
  sort,
  hiddenColumns,
  pagination,
  emptyTitle,
  emptyText,
  actors,
  endings,
  actorsHidden,
  now,
}: {
  guildId: string;
  rows: BanRow[];
  sort: BanSortKey;
  /** The columns this moderator hid, as saved. */
  hiddenColumns: readonly string[];
  /** Who banned each user (by user id), where the audit history knows. */
  actors: Record<string, BanActor>;
  /** Temporary bans' scheduled ends (cases/schedule.ts), by user id; a permanent ban has none. */
  endings: Record<string, BanEnding>;
  /** Why the moderator is not told who banned whom ("needs View Audit Log"), or null. */
  actorsHidden: string | null;
  /** The server's "now", for ages. */
  now: number;
  pagination: ServerPage;
  emptyTitle: string;
  emptyText: string;
}) {
  const { pending } = useUrlState();
  const locale = useLocale();
  const [unbanning, setUnbanning] = useState<BanRow | null>(null);
  const columns = useMemo<DataColumn<BanRow>[]>(
    () => [
      {
        id: "user",
        header: "Banned user",
        sort: BY_ACCOUNT_AGE,
        cell: ({ row }) => <UserChip user={banUser(row.original)} size={32} />,
      },
      {
        id: "by",
        header: "Banned by",
        cell: ({ row }) => {
          if (actorsHidden) return <span className="text-xs text-ink-muted">{capitalize(actorsHidden)}</span>;
          const actor = actors[row.original.id];
          if (!actor) return <span className="text-xs text-ink-muted">Not in the history</span>;
          return (
            <span className="flex min-w-0 flex-col gap-0.5">
              <UserChip user={actor.by} size={20} showUsername={false} />
              <span className="text-xs text-ink-muted">
                <RelativeTime iso={actor.at} now={now} />
                {actor.source === "guild-log" ? (actor.by.bot ? " · by a bot" : " · outside the dashboard") : ""}
              </span>
            </span>
          );
        },
      },
      {
        id: "ends",
        header: "Ends",
        cell: ({ row }) => {
          const ending = endings[row.original.id];
          if (!ending) return <span className="text-xs text-ink-muted">Permanent</span>;
          const at = Date.parse(ending.at);
          return (
            <span className="flex min-w-0 flex-col gap-0.5 text-sm">
              <span>
                <time dateTime={ending.at}>{formatExactTime(at, locale)}</time>
                {ending.caseNumber !== null && <span className="text-ink-muted"> · case #{ending.caseNumber}</span>}
              </span>
              {ending.status === "failed" ? (
                <span className="text-xs font-medium text-danger">Couldn&apos;t unban: {ending.error}</span>
              ) : (
                <span className="text-xs text-ink-muted">
                  {at > now ? <>in {formatCountdown(at - now)}</> : "ending now"}
                </span>
              )}
            </span>
          );
        },
      },
      {
        id: "reason",
        header: "Reason",
        cell: ({ row }) =>
          row.original.reason ? (
            <span className="line-clamp-2">{row.original.reason}</span>
          ) : (
            <span className="text-xs text-ink-muted">No reason given</span>
          ),
      },
      {
        id: "actions",
        header: "Actions",
        headerHidden: true,
        cell: ({ row }) => (
          <Button
            variant="secondary"
            size="sm"
            onClick={() => setUnbanning(row.original)}
            aria-label={`Unban ${row.original.displayName}`}
          >
            Unban
          </Button>
        ),
      },
    ],
    [actors, actorsHidden, endings, locale, now],
  );
  return (
    <>
      <DataTable
        id="bans"
        columns={columns}
        data={rows}
        getRowId={(row) => row.id}
        sorting={{ value: sort, defaultValue: DEFAULT_BAN_SORT, resets: BAN_PAGING_KEYS }}
        hiddenColumns={hiddenColumns}
        pagination={pagination}
        caption="Bans"
        emptyTitle={emptyTitle}
        emptyText={emptyText}
        busy={pending}
      />
      <Dialog
        open={unbanning !== null}
        onClose={() => setUnbanning(null)}
        title={unbanning ? `Unban ${unbanning.displayName}?` : "Unban"}
        description="They can join again with an invite."
        size="sm"
      >
        {unbanning && <UnbanForm guildId={guildId} ban={unbanning} onDone={() => setUnbanning(null)} />}
      </Dialog>
    </>
  );
}

function UnbanForm({ guildId, ban, onDone }: { guildId: string; ban: BanRow; onDone: () => void }) {
  const [reason, setReason] = useState("");
  const { requestClose } = useDialogForm(reason !== "");
  const { run, pending } = useAction(unbanUserAction, { failure: "Couldn't unban" });
  const [error, setError] = useState<string | undefined>();
  return (
    <form
      aria-label="Unban"
      className="flex flex-col gap-4"
      onSubmit={async (event) => {
        event.preventDefault();
        const result = await run({ guildId, userId: ban.id, reason: reason || undefined });
        if (result.ok) onDone();
        else setError(result.fieldErrors.reason?.join(" "));
      }}
    >
      {ban.reason && (
        <p className="text-sm">
          <span className="text-ink-muted">Banned for: </span>
          {ban.reason}
        </p>
      )}
      <ReasonField
        id="unban-reason"
        label="Reason (audit log)"
        hint={`Optional, at most ${AUDIT_LOG_REASON_MAX} characters.`}
        error={error}
        value={reason}
        onChange={setReason}
        autoFocus
      />
      <div className="flex justify-end gap-2">
        <Button variant="ghost" onClick={requestClose}>
          Keep the ban
        </Button>
        <Button type="submit" variant="danger" pending={pending}>
          Unban
        </Button>
      </div>
    </form>
  );
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const banUser = (ban: BanRow): UserRef => ({
  id: ban.id,
  displayName: ban.displayName,
  username: ban.username,
  avatarUrl: ban.avatarUrl,
  bot: ban.bot,
  status: "found",
});
