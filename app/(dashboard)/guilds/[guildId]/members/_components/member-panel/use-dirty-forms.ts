"use client";

// Unsaved edits across the member panel's forms: each form reports whether it is dirty (react-hook-form's isDirty);
// while any is, leaving the page (reload, closing the tab) asks the browser's own question, and following a link
// or closing the panel asks "Discard changes?" first.
import { useCallback, useEffect, useState } from "react";

export function useDirtyForms() {
  const [dirty, setDirty] = useState<Readonly<Record<string, boolean>>>({});
  const anyDirty = Object.values(dirty).some(Boolean);

  /** The callback form `key` reports its dirty state through (false when it unmounts). */
  const reporter = useCallback(
    (key: string) => (isDirty: boolean) =>
      setDirty((current) => (Boolean(current[key]) === isDirty ? current : { ...current, [key]: isDirty })),
    [],
  );

  useEffect(() => {
    if (!anyDirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [anyDirty]);

  return { anyDirty, reporter };
}

/**
 * While `active`, a click on a same-origin link is held back and handed to `onLeave` with its address (the caller
 * asks first, then navigates).
 */
export function useLinkGuard(active: boolean, onLeave: (href: string) => void) {
  useEffect(() => {
    if (!active) return;
    const hold = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
      const link = (event.target as Element | null)?.closest?.("a[href]") as HTMLAnchorElement | null;
      if (!link || link.target === "_blank" || link.hasAttribute("download")) return;
      const url = new URL(link.href, window.location.href);
      if (url.origin !== window.location.origin) return;
      event.preventDefault();
      event.stopPropagation();
      onLeave(`${url.pathname}${url.search}${url.hash}`);
    };
    document.addEventListener("click", hold, true);
    return () => document.removeEventListener("click", hold, true);
  }, [active, onLeave]);
}

/** Reports a react-hook-form's dirty state to the panel, and clean when the form goes away. */
export function useReportDirty(isDirty: boolean, onDirtyChange: (dirty: boolean) => void) {
  useEffect(() => onDirtyChange(isDirty), [isDirty, onDirtyChange]);
  useEffect(() => () => onDirtyChange(false), [onDirtyChange]);
}
