"use client";

// Filters for the cases, kept in the URL (a change starts again at the first page): the types (any of them), the
// moderator, the member (by id), the dates, and a case number or words in the reason or the names.
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { CheckboxMenu } from "@/components/ui/checkbox-menu";
import { Input, Select } from "@/components/ui/input";
import { useUrlState } from "@/components/data-table/url-state";
import { CASE_TYPE_LABELS, CASE_TYPES, type CaseType } from "@/lib/dashboard/cases/derive";

const CLEARED = {
  types: null,
  moderator: null,
  member: null,
  from: null,
  to: null,
  q: null,
  before: null,
  trail: null,
};

export function CaseFilters({ moderators }: { moderators: Array<{ id: string; name: string }> }) {
  const { params, set, pending } = useUrlState();
  const [member, setMember] = useState(params.get("member") ?? "");
  const [q, setQ] = useState(params.get("q") ?? "");
  const types = (params.get("types") ?? "").split(",").filter((type): type is CaseType => type in CASE_TYPE_LABELS);
  const apply = (changes: Record<string, string | null>) => set({ ...changes, before: null, trail: null });
  const toggleType = (type: string, checked: boolean) => {
    const next = CASE_TYPES.filter((t) => (t === type ? checked : types.includes(t)));
    apply({ types: next.length ? next.join(",") : null });
  };
  const label = "flex min-w-0 flex-col gap-1 text-sm font-medium";
  return (
    <form
      role="search"
      aria-label="Filter the cases"
      className="mb-4 grid grid-cols-2 gap-3 lg:grid-cols-4"
      onSubmit={(e) => {
        e.preventDefault();
        apply({ member: member.trim() || null, q: q.trim() || null });
      }}
    >
      <label className={label}>
        Search
        <Input
          type="search"
          value={q}
          onChange={(e) => setQ(e.target.value)}
          onBlur={() => (q.trim() || null) !== params.get("q") && apply({ q: q.trim() || null })}
          placeholder="#12, a name, words in the reason"
        />
      </label>
      <div className={label}>
        <span id="case-filter-types">Type</span>
        <CheckboxMenu
          summary={
            <span aria-labelledby="case-filter-types" className="truncate">
              {types.length ? types.map((type) => CASE_TYPE_LABELS[type]).join(", ") : "Any type"}
            </span>
          }
          legend="Case types"
          items={CASE_TYPES.map((type) => ({ id: type, label: CASE_TYPE_LABELS[type], checked: types.includes(type) }))}
          onChange={toggleType}
          summaryClassName="h-10"
          panelClassName="w-56"
        />
      </div>
      <div className={label}>
        <label htmlFor="case-filter-moderator">Moderator</label>
        <Select
          id="case-filter-moderator"
          value={params.get("moderator") ?? ""}
          onChange={(e) => apply({ moderator: e.target.value || null })}
        >
          <option value="">Anyone</option>
          {moderators.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name}
            </option>
          ))}
        </Select>
      </div>
      <label className={label}>
        Member id
        <Input
          inputMode="numeric"
          value={member}
          onChange={(e) => setMember(e.target.value)}
          onBlur={() => (member.trim() || null) !== params.get("member") && apply({ member: member.trim() || null })}
          placeholder="User id"
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
      <div className="col-span-2 flex flex-wrap items-center gap-2 lg:col-span-4">
        <Button type="submit" size="sm" variant="secondary">
          Apply
        </Button>
        <Button
          size="sm"
          variant="ghost"
          onClick={() => {
            setMember("");
            setQ("");
            set(CLEARED);
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
