"use client";

// The members table's filters, all in the URL (a change starts again at page 1): search by exact id or name
// substring, sort, roles (any of / all of), joined within, account created within, no roles, timed out, pending,
// bots, blocked by AutoMod, page size.
import { Icons } from "@/components/ui/icons";
import { Input, Select } from "@/components/ui/input";
import { useState } from "react";
import { cn } from "@/components/ui/cn";
import { CheckboxMenu } from "@/components/ui/checkbox-menu";
import { useUrlQuery, useUrlState } from "@/components/data-table/url-state";
import {
  DEFAULT_MEMBER_PAGE_SIZE,
  DEFAULT_MEMBER_SORT,
  FILTER_KEYS,
  MEMBER_FLAG_FILTERS,
  MEMBER_PAGE_SIZES,
  MEMBER_SORTS,
  PAGING_KEYS,
  WITHIN_OPTIONS,
} from "@/lib/dashboard/data/member-filters";
import type { RoleChip } from "./members-table";

const RESET_PAGING = Object.fromEntries(PAGING_KEYS.map((key) => [key, null]));
/** "Within" filters: the URL key and the select's label. */
const WITHIN_FILTERS = [
  { key: "joined", label: "Joined the server in" },
  { key: "created", label: "Account created in" },
] as const;

export function MemberFilters({ roles }: { roles: RoleChip[] }) {
  const { params, set, pending: filtering } = useUrlState();
  const search = useUrlQuery("q", PAGING_KEYS);
  const change = (changes: Record<string, string | null>) => set({ ...changes, ...RESET_PAGING });
  const selectedRoles = (params.get("roles") ?? "").split(",").filter(Boolean);
  const anyFilter = FILTER_KEYS.some((key) => key !== "sort" && params.get(key));
  // Active filters besides the search, counted on the phone's "Filters" button.
  const activeFilters = FILTER_KEYS.filter((key) => key !== "sort" && key !== "q" && params.get(key)).length;
  // On a phone the filters beyond search and sort wait behind a button, so the members come first on the screen.
  const [filtersOpen, setFiltersOpen] = useState(false);

  const toggleRole = (id: string, on: boolean) => {
    const next = on ? [...selectedRoles, id] : selectedRoles.filter((r) => r !== id);
    change({ roles: next.join(",") || null, ...(next.length < 2 ? { rolemode: null } : {}) });
  };

  return (
    <div className="mb-4 flex flex-col gap-3" role="search" aria-label="Filter members">
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex min-w-56 flex-1 flex-col gap-1 text-sm font-medium max-sm:basis-full">
          Search
          <span className="relative">
            <Icons.search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-ink-muted" />
            <Input
              type="search"
              value={search.value}
              onChange={(e) => search.setValue(e.target.value)}
              placeholder="User id, or part of a username or nickname"
              className="pl-9"
              maxLength={100}
            />
          </span>
        </label>
        <div className="flex flex-col gap-1 text-sm font-medium max-sm:flex-1">
          <label htmlFor="member-filter-sort-by">Sort by</label>
          <Select
            id="member-filter-sort-by"
            value={params.get("sort") ?? DEFAULT_MEMBER_SORT}
            onChange={(e) => change({ sort: e.target.value === DEFAULT_MEMBER_SORT ? null : e.target.value })}
            className="w-full sm:w-72"
          >
            {MEMBER_SORTS.map((s) => (
              <option key={s.key} value={s.key}>
                {s.label}
              </option>
            ))}
          </Select>
        </div>
        <div className="flex flex-col gap-1 text-sm font-medium">
          <label htmlFor="member-filter-per-page">Per page</label>
          <Select
            id="member-filter-per-page"
            value={params.get("limit") ?? String(DEFAULT_MEMBER_PAGE_SIZE)}
            onChange={(e) =>
              change({ limit: e.target.value === String(DEFAULT_MEMBER_PAGE_SIZE) ? null : e.target.value })
            }
            className="w-24"
          >
            {MEMBER_PAGE_SIZES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </Select>
        </div>
        <button
          type="button"
          className="h-10 rounded-md bg-surface-raised px-3 text-sm font-medium ring-1 ring-line sm:hidden"
          aria-expanded={filtersOpen}
          aria-controls="member-more-filters"
          onClick={() => setFiltersOpen((open) => !open)}
        >
          Filters{activeFilters ? ` (${activeFilters})` : ""}
        </button>
      </div>

      <div id="member-more-filters" className={cn("flex flex-wrap items-end gap-3", !filtersOpen && "max-sm:hidden")}>
        <CheckboxMenu
          summary={`Roles${selectedRoles.length ? `: ${selectedRoles.length} selected` : ": any"}`}
          legend="Roles"
          items={roles.map((role) => ({ id: role.id, label: role.name, checked: selectedRoles.includes(role.id) }))}
          onChange={toggleRole}
          summaryClassName="h-10"
          panelClassName="max-h-72 w-64 overflow-y-auto"
        />
        {selectedRoles.length > 1 && (
          <div className="flex flex-col gap-1 text-sm font-medium">
            <label htmlFor="member-filter-members-with">Members with</label>
            <Select
              id="member-filter-members-with"
              value={params.get("rolemode") === "all" ? "all" : "any"}
              onChange={(e) => change({ rolemode: e.target.value === "all" ? "all" : null })}
              className="w-44"
            >
              <option value="any">any of these roles</option>
              <option value="all">all of these roles</option>
            </Select>
          </div>
        )}
        {WITHIN_FILTERS.map((filter) => (
          <div key={filter.key} className="flex flex-col gap-1 text-sm font-medium">
            <label htmlFor={`member-filter-${filter.key}`}>{filter.label}</label>
            <Select
              id={`member-filter-${filter.key}`}
              value={params.get(filter.key) ?? ""}
              onChange={(e) => change({ [filter.key]: e.target.value || null })}
              className="w-44"
            >
              <option value="">any time</option>
              {WITHIN_OPTIONS.map((o) => (
                <option key={o.key} value={o.key}>
                  {o.label}
                </option>
              ))}
            </Select>
          </div>
        ))}
        <fieldset className="flex flex-wrap gap-1.5 pb-1">
          <legend className="sr-only">Only members who are</legend>
          {MEMBER_FLAG_FILTERS.map((f) => (
            <label
              key={f.key}
              className="cursor-pointer rounded-full px-3 py-1.5 text-xs ring-1 ring-line has-[:checked]:bg-blurple has-[:checked]:text-white has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-blurple"
            >
              <input
                type="checkbox"
                className="sr-only"
                checked={params.get(f.key) === "1"}
                onChange={(e) => change({ [f.key]: e.target.checked ? "1" : null })}
              />
              {f.label}
            </label>
          ))}
        </fieldset>
        {anyFilter && (
          <button
            type="button"
            className="pb-2 text-sm font-medium text-blurple hover:underline"
            onClick={() => {
              search.setValue("");
              change(Object.fromEntries(FILTER_KEYS.filter((k) => k !== "sort").map((k) => [k, null])));
            }}
          >
            Clear filters
          </button>
        )}
        {(filtering || search.pending) && (
          <span className="pb-2 text-xs text-ink-muted" role="status">
            Loading…
          </span>
        )}
      </div>
    </div>
  );
}
