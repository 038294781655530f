"use client";

// Filters for the audit history, kept in the URL (a change starts again at page 1).
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/input";
import { useUrlState } from "@/components/data-table/url-state";

export function AuditFilters({ actors, actions }: { actors: Array<{ id: string; name: string }>; actions: string[] }) {
  const { params, set, pending } = useUrlState();
  const [target, setTarget] = useState(params.get("target") ?? "");
  const apply = (changes: Record<string, string | null>) => set({ ...changes, cursor: null, trail: null });
  return (
    <form
      role="search"
      aria-label="Filter the audit history"
      className="mb-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-6"
      onSubmit={(e) => {
        e.preventDefault();
        apply({ target: target.trim() || null });
      }}
    >
      <label className="flex flex-col gap-1 text-sm font-medium">
        Actor
        <Select value={params.get("actor") ?? ""} onChange={(e) => apply({ actor: e.target.value || null })}>
          <option value="">Anyone</option>
          {actors.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </Select>
      </label>
      <label className="flex flex-col gap-1 text-sm font-medium">
        Action
        <Select value={params.get("action") ?? ""} onChange={(e) => apply({ action: e.target.value || null })}>
          <option value="">Any action</option>
          {actions.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </Select>
      </label>
      <label className="flex flex-col gap-1 text-sm font-medium">
        Target
        <Input
          value={target}
          onChange={(e) => setTarget(e.target.value)}
          onBlur={() => (target.trim() || null) !== params.get("target") && apply({ target: target.trim() || null })}
          placeholder="Name or id"
        />
      </label>
      <label className="flex flex-col gap-1 text-sm font-medium">
        From
        <Input type="date" value={params.get("from") ?? ""} onChange={(e) => apply({ from: e.target.value || null })} />
      </label>
      <label className="flex flex-col gap-1 text-sm font-medium">
        To
        <Input type="date" value={params.get("to") ?? ""} onChange={(e) => apply({ to: e.target.value || null })} />
      </label>
      <label className="flex flex-col gap-1 text-sm font-medium">
        Result
        <Select value={params.get("status") ?? ""} onChange={(e) => apply({ status: e.target.value || null })}>
          <option value="">All</option>
          <option value="success">Succeeded</option>
          <option value="error">Failed</option>
        </Select>
      </label>
      <div className="flex items-center gap-2 sm:col-span-2 lg:col-span-6">
        <Button type="submit" size="sm" variant="secondary">
          Apply
        </Button>
        <Button
          size="sm"
          variant="ghost"
          onClick={() => {
            setTarget("");
            set({
              actor: null,
              action: null,
              target: null,
              from: null,
              to: null,
              status: null,
              cursor: null,
              trail: null,
            });
          }}
        >
          Clear filters
        </Button>
        {pending && (
          <span role="status" className="text-xs text-ink-muted">
            Loading…
          </span>
        )}
      </div>
    </form>
  );
}
