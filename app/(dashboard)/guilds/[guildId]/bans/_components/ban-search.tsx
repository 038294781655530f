"use client";

// Search bans: an id finds that ban exactly; anything else is matched within names by scanning the ban list (the API
// has no ban search), and the hint says so. Beside it the list's order (account age, as the Banned user header sorts),
// the way to sort on a phone. Both live in the URL; a new search or order starts at page 1.
import { Icons } from "@/components/ui/icons";
import { Input } from "@/components/ui/input";
import { useUrlQuery } from "@/components/data-table/url-state";
import { SortSelect } from "@/components/data-table/sort-select";
import { Num } from "@/components/ui/locale";
import { BAN_PAGING_KEYS, BAN_SORTS, DEFAULT_BAN_SORT, type BanSortKey } from "@/lib/dashboard/data/ban-sorts";

export function BanSearch({ scanMax, sort }: { scanMax: number; sort: BanSortKey }) {
  const { value, setValue, pending } = useUrlQuery("q", BAN_PAGING_KEYS);

  return (
    <div className="mb-4 flex flex-wrap items-end gap-3" role="search" aria-label="Search bans">
      <div className="flex min-w-56 flex-1 flex-col gap-1">
        <label htmlFor="ban-search" className="text-sm font-medium">
          Search
        </label>
        <span className="relative">
          <Icons.search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-ink-muted" />
          <Input
            id="ban-search"
            type="search"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            placeholder="User id, or part of a name"
            className="pl-9"
            maxLength={100}
            aria-describedby="ban-search-hint"
          />
        </span>
        <p id="ban-search-hint" className="text-xs text-ink-muted">
          An id finds that ban exactly. A name is matched within usernames and display names by reading the ban list in
          order, up to <Num value={scanMax} /> bans per page of results.
        </p>
      </div>
      {/* Level with the search box, above its hint. */}
      <div className="self-start max-sm:w-full">
        <SortSelect
          id="ban-sort-by"
          value={sort}
          options={BAN_SORTS}
          defaultValue={DEFAULT_BAN_SORT}
          resets={BAN_PAGING_KEYS}
        />
      </div>
      {pending && (
        <span className="pb-6 text-xs text-ink-muted" role="status">
          Loading…
        </span>
      )}
    </div>
  );
}
