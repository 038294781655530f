"use client";

// Unsaved edits across the member panel's forms: each form reports whether it is dirty (react-hook-form's isDirty),
// and the panel hands whether any is to the dashboard's one unsaved-changes guard
// (components/dashboard/unsaved-changes.tsx, through its Dialog), which asks before every way out.
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

  return { anyDirty, reporter };
}

/** Reports a react-hook-form's dirty state to the panel, and clean when the form goes away. */
export function useReportDirty(isDirty: boolean, onDirtyChange: (dirty: boolean) => void) {
  useEffect(() => onDirtyChange(isDirty), [isDirty, onDirtyChange]);
  useEffect(() => () => onDirtyChange(false), [onDirtyChange]);
}
