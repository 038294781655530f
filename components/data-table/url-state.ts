"use client";

// Table state lives in the URL (shareable, survives reloads, works with Back): read it with useSearchParams and
// change it with these helpers, which navigate without scrolling to the top.
import { useCallback, useEffect, useState, useTransition } from "react";
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
      startTransition(() =>
        options.replace ? router.replace(href, { scroll: false }) : router.push(href, { scroll: false }),
      );
    },
    [hrefWith, router],
  );

  return { params, set, hrefWith, pending };
}

/** A text filter kept in the URL under `key`, written after a pause in typing; a new filter clears `resets` (paging cursors). */
export function useUrlQuery(key: string, resets: readonly string[], delayMs = 300) {
  const { params, set, pending } = useUrlState();
  const inUrl = params.get(key) ?? "";
  const [value, setValue] = useState(inUrl);

  const commit = useCallback(() => {
    const wanted = value.trim();
    if (wanted === inUrl) return;
    set({ [key]: wanted || null, ...Object.fromEntries(resets.map((reset) => [reset, null])) }, { replace: true });
  }, [value, inUrl, key, resets, set]);

  useEffect(() => {
    const timer = setTimeout(commit, delayMs);
    return () => clearTimeout(timer);
  }, [commit, delayMs]);

  return { value, setValue, pending };
}
