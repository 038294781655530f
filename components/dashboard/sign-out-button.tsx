"use client";

import { signOut } from "next-auth/react";
import { useState } from "react";
import { Icons } from "@/components/ui/icons";
import { cn } from "@/components/ui/cn";

/** Signs out through next-auth (which revokes the grant at the provider) and returns to the sign-in page. */
export function SignOutButton({ className, compact }: { className?: string; compact?: boolean }) {
  const [pending, setPending] = useState(false);
  return (
    <button
      type="button"
      disabled={pending}
      onClick={() => {
        setPending(true);
        void signOut({ callbackUrl: "/sign-in" });
      }}
      aria-label={compact ? "Sign out" : undefined}
      className={cn(
        "inline-flex items-center gap-2 rounded-md px-2 py-1.5 text-sm text-ink-muted hover:bg-surface-sunken hover:text-ink disabled:opacity-60",
        className,
      )}
    >
      <Icons.signOut className="size-4" />
      {!compact && (pending ? "Signing out…" : "Sign out")}
    </button>
  );
}
