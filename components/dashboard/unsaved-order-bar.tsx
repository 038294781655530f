"use client";

import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { ReasonInput } from "./reason-input";
import { useUnsavedChanges } from "./unsaved-changes";

/**
 * The bar under a list reordered by drag or keyboard (channels, roles): what the new order changes, any options,
 * the audit-log reason, Reset and Save order. Shown only while the order differs from the saved one, so while it is
 * shown the order is an unsaved edit: in-app links, Back and closing the tab ask "Discard changes?" first.
 */
export function UnsavedOrderBar({
  label,
  summary,
  reason,
  onReasonChange,
  onReset,
  onSave,
  pending,
  children,
}: {
  /** The region's accessible name ("Unsaved role order"). */
  label: string;
  summary: ReactNode;
  reason: string;
  onReasonChange: (reason: string) => void;
  onReset: () => void;
  onSave: () => void;
  pending: boolean;
  /** Options between the summary and the reason. */
  children?: ReactNode;
}) {
  useUnsavedChanges(true);
  return (
    <div
      role="region"
      aria-label={label}
      className="sticky bottom-0 z-10 flex flex-wrap items-center gap-3 rounded-lg bg-surface-raised p-3 shadow-lg ring-1 ring-blurple/40"
    >
      <p className="text-sm font-medium">{summary}</p>
      {children}
      <ReasonInput label="Reason (audit log)" value={reason} onChange={onReasonChange} className="h-9 max-w-56" />
      <div className="ml-auto flex gap-2">
        <Button variant="ghost" onClick={onReset}>
          Reset
        </Button>
        <Button pending={pending} onClick={onSave}>
          Save order
        </Button>
      </div>
    </div>
  );
}
