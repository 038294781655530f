"use client";

import { useState, type ReactNode } from "react";

/**
 * A button that sends the browser away (next-auth's sign-in or sign-out): disabled while the page is left, so a second
 * click cannot start a second round trip, and usable again if leaving fails.
 */
export function LeaveButton({
  leave,
  pendingContent,
  children,
  className,
  label,
}: {
  leave: () => Promise<unknown>;
  /** Shown while the browser leaves. */
  pendingContent: ReactNode;
  children: ReactNode;
  className: string;
  /** An accessible name when the content is an icon only. */
  label?: string;
}) {
  const [pending, setPending] = useState(false);
  return (
    <button
      type="button"
      disabled={pending}
      onClick={() => {
        setPending(true);
        leave().catch(() => setPending(false));
      }}
      aria-label={label}
      className={className}
    >
      {pending ? pendingContent : children}
    </button>
  );
}
