"use client";

// The member panel's building blocks: a titled section with the reason its controls are disabled, and an error an
// action answered that belongs to no single field.
import type { ReactNode } from "react";
import { DisabledReason } from "@/components/ui/card";

export function PanelSection({
  title,
  reason,
  children,
}: {
  title: string;
  reason?: string | null;
  children: ReactNode;
}) {
  return (
    <section aria-label={title} className="border-b border-line py-4 first:pt-0 last:border-0">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-sm font-semibold">{title}</h3>
        <DisabledReason reason={reason} />
      </div>
      {children}
    </section>
  );
}

/** An error the action answered that belongs to no single field of the form. */
export function ActionErrors({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className="mt-1 text-xs font-medium text-danger">
      {message}
    </p>
  );
}

/** What every form of the panel receives: the member, and how to report unsaved edits. */
export interface PanelFormProps {
  guildId: string;
  userId: string;
  userName: string;
  /** Why the moderator can't use this form, or null. */
  blocked: string | null;
  onDirtyChange: (dirty: boolean) => void;
}
