"use client";

// Search by username or nickname prefix, filter by role, page size: all in the URL (a new filter starts at page 1).
import { Icons } from "@/components/ui/icons";
import { Input, Select } from "@/components/ui/input";
import { useUrlQuery, useUrlState } from "@/components/data-table/url-state";
import type { RoleChip } from "./members-table";

const PAGING = ["after", "trail"] as const;

export function MemberFilters({ roles }: { roles: RoleChip[] }) {
  const { params, set, pending: filtering } = useUrlState();
  const search = useUrlQuery("q", PAGING);

  return (
    <div className="mb-4 flex flex-wrap items-end gap-3" role="search" aria-label="Filter members">
      <label className="flex min-w-56 flex-1 flex-col gap-1 text-sm font-medium">
        Search
        <span className="relative">
          <Icons.search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-ink-muted" />
          <Input
            type="search"
            value={search.value}
            onChange={(e) => search.setValue(e.target.value)}
            placeholder="Username or nickname starts with…"
            className="pl-9"
            maxLength={100}
          />
        </span>
      </label>
      <label className="flex flex-col gap-1 text-sm font-medium">
        Role
        <Select
          value={params.get("role") ?? ""}
          onChange={(e) => set({ role: e.target.value || null, after: null, trail: null })}
          className="w-48"
        >
          <option value="">All roles</option>
          {roles.map((r) => (
            <option key={r.id} value={r.id}>
              {r.name}
            </option>
          ))}
        </Select>
      </label>
      <label className="flex flex-col gap-1 text-sm font-medium">
        Per page
        <Select
          value={params.get("limit") ?? "50"}
          onChange={(e) => set({ limit: e.target.value === "50" ? null : e.target.value, after: null, trail: null })}
          className="w-24"
        >
          {[25, 50, 100].map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </Select>
      </label>
      {(filtering || search.pending) && (
        <span className="pb-2 text-xs text-ink-muted" role="status">
          Loading…
        </span>
      )}
    </div>
  );
}
