"use client";

// Filters for the audit history, kept in the URL (a change starts again at page 1): moderator, action, target, dates,
// result, where it was done (only for viewers who may see the guild's own log), and words in the reason; and Sort by,
// the When header's order (on a phone, where the table has no header row, the way to it).
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/input";
import { useUrlState } from "@/components/data-table/url-state";
import { SortSelect } from "@/components/data-table/sort-select";
import { DEFAULT_TIME_ORDER, TIME_SORT_OPTIONS, timeOrderOf } from "@/lib/dashboard/list-params";
import { AUDIT_PAGING_KEYS } from "../filters";

const CLEARED = {
  actor: null,
  action: null,
  target: null,
  from: null,
  to: null,
  status: null,
  source: null,
  q: null,
  entry: null,
  cursor: null,
  trail: null,
};

export function AuditFilters({
  actors,
  actions,
  guildLog,
}: {
  actors: Array<{ id: string; name: string }>;
  actions: string[];
  /** Whether the viewer may see the guild's own audit log (else every entry is the dashboard's: no source to pick). */
  guildLog: boolean;
}) {
  const { params, set, pending } = useUrlState();
  const [target, setTarget] = useState(params.get("target") ?? "");
  const [q, setQ] = useState(params.get("q") ?? "");
  const apply = (changes: Record<string, string | null>) => set({ ...changes, cursor: null, trail: null });
  const label = "flex min-w-0 flex-col gap-1 text-sm font-medium";
  return (
    <form
      role="search"
      aria-label="Filter the audit history"
      className="mb-4 grid grid-cols-2 gap-3 lg:grid-cols-4"
      onSubmit={(e) => {
        e.preventDefault();
        apply({ target: target.trim() || null, q: q.trim() || null });
      }}
    >
      <div className={label}>
        <label htmlFor="audit-filter-moderator">Moderator</label>
        <Select
          id="audit-filter-moderator"
          value={params.get("actor") ?? ""}
          onChange={(e) => apply({ actor: e.target.value || null })}
        >
          <option value="">Anyone</option>
          {actors.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </Select>
      </div>
      <div className={label}>
        <label htmlFor="audit-filter-action">Action</label>
        <Select
          id="audit-filter-action"
          value={params.get("action") ?? ""}
          onChange={(e) => apply({ action: e.target.value || null })}
        >
          <option value="">Any action</option>
          {actions.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </Select>
      </div>
      <label className={label}>
        Target
        <Input
          value={target}
          onChange={(e) => setTarget(e.target.value)}
          onBlur={() => (target.trim() || null) !== params.get("target") && apply({ target: target.trim() || null })}
          placeholder="Name or id"
        />
      </label>
      <label className={label}>
        Reason contains
        <Input
          type="search"
          value={q}
          onChange={(e) => setQ(e.target.value)}
          onBlur={() => (q.trim() || null) !== params.get("q") && apply({ q: q.trim() || null })}
          placeholder="Words in the reason"
        />
      </label>
      <label className={label}>
        From
        <Input type="date" value={params.get("from") ?? ""} onChange={(e) => apply({ from: e.target.value || null })} />
      </label>
      <label className={label}>
        To
        <Input type="date" value={params.get("to") ?? ""} onChange={(e) => apply({ to: e.target.value || null })} />
      </label>
      {guildLog && (
        <div className={label}>
          <label htmlFor="audit-filter-done-in">Done in</label>
          <Select
            id="audit-filter-done-in"
            value={params.get("source") ?? ""}
            onChange={(e) => apply({ source: e.target.value || null })}
          >
            <option value="">Anywhere</option>
            <option value="dashboard">This dashboard</option>
            <option value="guild-log">Bots and other clients</option>
          </Select>
        </div>
      )}
      <div className={label}>
        <label htmlFor="audit-filter-result">Result</label>
        <Select
          id="audit-filter-result"
          value={params.get("status") ?? ""}
          onChange={(e) => apply({ status: e.target.value || null })}
        >
          <option value="">All</option>
          <option value="success">Succeeded</option>
          <option value="error">Failed</option>
        </Select>
      </div>
      <SortSelect
        id="audit-filter-sort"
        value={timeOrderOf(params.get("sort"))}
        options={TIME_SORT_OPTIONS}
        defaultValue={DEFAULT_TIME_ORDER}
        resets={AUDIT_PAGING_KEYS}
      />
      <div className="col-span-2 flex flex-wrap items-center gap-2 lg:col-span-4">
        <Button type="submit" size="sm" variant="secondary">
          Apply
        </Button>
        <Button
          size="sm"
          variant="ghost"
          onClick={() => {
            setTarget("");
            setQ("");
            set(CLEARED);
          }}
        >
          Clear filters
        </Button>
        {params.get("entry") && (
          <span className="flex items-center gap-2 text-sm">
            One entry (a case&apos;s link).
            <Button size="sm" variant="ghost" onClick={() => apply({ entry: null })}>
              Show all entries
            </Button>
          </span>
        )}
        {pending && (
          <span role="status" className="text-xs text-ink-muted">
            Loading…
          </span>
        )}
      </div>
    </form>
  );
}
