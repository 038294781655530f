"use client";

// The members table with its selection, and the bulk bar for what is selected: members on this page, or every member
// matching the filter (the count shown). Preparing a bulk action stores a job and opens its page, where it runs.
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { DisabledReason } from "@/components/ui/card";
import { Select } from "@/components/ui/input";
import { ReasonInput } from "@/components/dashboard/reason-input";
import { useAction } from "@/components/dashboard/use-action";
import type { RowSelection, ServerPage } from "@/components/data-table/data-table";
import { prepareMemberJobAction } from "@/lib/dashboard/actions/member-jobs";
import { TIMEOUT_PRESETS } from "@/lib/dashboard/actions/schemas/members";
import type { MemberListFilters } from "@/lib/dashboard/data/member-filters";
import type { MemberRow } from "@/lib/dashboard/data/members";
import type { BulkMemberAction } from "@/lib/dashboard/jobs/member-actions/types";
import { MembersTable, type RoleChip } from "./members-table";
import { formatNumber, useLocale } from "@/components/ui/locale";
import { useNavigateAway } from "@/components/dashboard/unsaved-changes";
import { plural } from "@/lib/dashboard/plural";

/** Why the moderator may not run each bulk action, or null. */
export type BulkRefusals = Record<BulkMemberAction, string | null>;

const ACTIONS: Array<{ value: BulkMemberAction; label: string }> = [
  { value: "add_role", label: "Add a role" },
  { value: "remove_role", label: "Remove a role" },
  { value: "timeout", label: "Time out" },
  { value: "remove_timeout", label: "Remove timeout" },
  { value: "kick", label: "Kick" },
  { value: "ban", label: "Ban" },
];

export function MembersWorkspace({
  guildId,
  rows,
  total,
  filters,
  roles,
  selectedId,
  bulk,
  pagination,
  filtered,
  hiddenColumns,
}: {
  guildId: string;
  rows: MemberRow[];
  total: number;
  filters: MemberListFilters;
  roles: RoleChip[];
  selectedId: string | null;
  bulk: BulkRefusals;
  pagination: ServerPage;
  filtered: boolean;
  hiddenColumns: readonly string[];
}) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [allMatching, setAllMatching] = useState(false);
  const selection: RowSelection<MemberRow> = {
    selected,
    onChange: (next) => {
      setAllMatching(false);
      setSelected(next);
    },
    rowLabel: (member) => member.displayName,
    noun: "member",
  };
  const count = allMatching ? total : selected.size;

  return (
    <div className="flex flex-col gap-3">
      {count > 0 && (
        <BulkBar
          guildId={guildId}
          count={count}
          total={total}
          allMatching={allMatching}
          pageFullySelected={rows.length > 0 && rows.every((r) => selected.has(r.id))}
          onSelectAllMatching={() => setAllMatching(true)}
          onClear={() => {
            setAllMatching(false);
            setSelected(new Set());
          }}
          target={allMatching ? { filters } : { userIds: [...selected] }}
          roles={roles}
          bulk={bulk}
        />
      )}
      <MembersTable
        rows={rows}
        roles={roles}
        selectedId={selectedId}
        pagination={pagination}
        filtered={filtered}
        selection={selection}
        sort={filters.sort}
        hiddenColumns={hiddenColumns}
      />
    </div>
  );
}

function BulkBar({
  guildId,
  count,
  total,
  allMatching,
  pageFullySelected,
  onSelectAllMatching,
  onClear,
  target,
  roles,
  bulk,
}: {
  guildId: string;
  count: number;
  total: number;
  allMatching: boolean;
  pageFullySelected: boolean;
  onSelectAllMatching: () => void;
  onClear: () => void;
  target: { userIds: string[] } | { filters: MemberListFilters };
  roles: RoleChip[];
  bulk: BulkRefusals;
}) {
  const navigateAway = useNavigateAway();
  const locale = useLocale();
  const [action, setAction] = useState<BulkMemberAction>(ACTIONS.find((a) => !bulk[a.value])?.value ?? "add_role");
  const assignable = roles.filter((r) => !r.lockedReason);
  const [roleId, setRoleId] = useState(assignable[0]?.id ?? "");
  const [duration, setDuration] = useState<number>(TIMEOUT_PRESETS[3].ms);
  const [reason, setReason] = useState("");
  const prepare = useAction(prepareMemberJobAction, { failure: "Couldn't prepare the bulk action" });
  const refused = bulk[action];
  const needsRole = action === "add_role" || action === "remove_role";

  async function review() {
    const result = await prepare.run({
      guildId,
      action,
      reason: reason || undefined,
      ...(needsRole ? { roleId } : {}),
      ...(action === "timeout" ? { until: new Date(Date.now() + duration).toISOString() } : {}),
      ...target,
    });
    if (result.ok) navigateAway(result.data.href);
  }

  return (
    <section
      aria-label="Bulk actions"
      className="flex flex-col gap-3 rounded-lg bg-blurple/5 p-3 ring-1 ring-blurple/30"
      data-testid="bulk-bar"
    >
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <strong role="status">
          {allMatching
            ? `All ${formatNumber(count, locale)} matching members selected`
            : `${formatNumber(count, locale)} selected`}
        </strong>
        {!allMatching && pageFullySelected && total > count && (
          <button type="button" className="font-medium text-blurple hover:underline" onClick={onSelectAllMatching}>
            Select all {formatNumber(total, locale)} matching members
          </button>
        )}
        <button type="button" className="text-ink-muted hover:underline" onClick={onClear}>
          Clear selection
        </button>
      </div>
      <div className="flex flex-wrap items-end gap-2">
        <div className="flex flex-col gap-1 text-sm font-medium">
          <label htmlFor="bulk-member-action">Action</label>
          <Select
            id="bulk-member-action"
            value={action}
            onChange={(e) => setAction(e.target.value as BulkMemberAction)}
            className="w-44"
          >
            {ACTIONS.map((a) => (
              <option key={a.value} value={a.value}>
                {a.label}
              </option>
            ))}
          </Select>
        </div>
        {needsRole && (
          <div className="flex flex-col gap-1 text-sm font-medium">
            <label htmlFor="bulk-member-role">Role</label>
            <Select id="bulk-member-role" value={roleId} onChange={(e) => setRoleId(e.target.value)} className="w-44">
              {assignable.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.name}
                </option>
              ))}
            </Select>
          </div>
        )}
        {action === "timeout" && (
          <div className="flex flex-col gap-1 text-sm font-medium">
            <label htmlFor="bulk-member-duration">Duration</label>
            <Select
              id="bulk-member-duration"
              value={duration}
              onChange={(e) => setDuration(Number(e.target.value))}
              className="w-36"
            >
              {TIMEOUT_PRESETS.map((p) => (
                <option key={p.ms} value={p.ms}>
                  {p.label}
                </option>
              ))}
            </Select>
          </div>
        )}
        <span className="w-64 max-w-full">
          <ReasonInput label="Reason for the audit log" value={reason} onChange={setReason} className="h-10" />
        </span>
        <Button
          onClick={() => void review()}
          pending={prepare.pending}
          disabled={Boolean(refused) || (needsRole && !roleId)}
          variant={action === "kick" || action === "ban" ? "danger" : "primary"}
        >
          Review {plural(count, "member", { format: (n) => formatNumber(n, locale) })}…
        </Button>
      </div>
      <DisabledReason reason={refused && `${ACTIONS.find((a) => a.value === action)!.label} ${refused}`} />
    </section>
  );
}
