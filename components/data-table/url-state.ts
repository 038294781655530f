"use client";

// Table state lives in the URL (shareable, survives reloads, works with Back): read it with useSearchParams and
// change it with these helpers, which navigate without scrolling to the top.
import { useCallback, useTransition } from "react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";

export function useUrlState() {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const [pending, startTransition] = useTransition();

  const hrefWith = useCallback(
    (changes: Record<string, string | null | undefined>) => {
      const next = new URLSearchParams(params.toString());
      for (const [key, value] of Object.entries(changes)) {
        if (value === null || value === undefined || value === "") next.delete(key);
        else next.set(key, value);
      }
      const query = next.toString();
      return query ? `${pathname}?${query}` : pathname;
    },
    [params, pathname],
  );

  const set = useCallback(
    (changes: Record<string, string | null | undefined>, options: { replace?: boolean } = {}) => {
      const href = hrefWith(changes);
      startTransition(() => (options.replace ? router.replace(href, { scroll: false }) : router.push(href, { scroll: false })));
    },
    [hrefWith, router],
  );

  return { params, set, hrefWith, pending };
}
