"use client";

import { signOut } from "next-auth/react";
import { Icons } from "@/components/ui/icons";
import { cn } from "@/components/ui/cn";
import { LeaveButton } from "@/components/ui/leave-button";

/** Signs out through next-auth (which revokes the grant at the provider) and returns to the sign-in page. */
export function SignOutButton({ className, compact }: { className?: string; compact?: boolean }) {
  const icon = <Icons.signOut className="size-4" />;
  return (
    <LeaveButton
      leave={() => signOut({ callbackUrl: "/sign-in" })}
      label={compact ? "Sign out" : undefined}
      pendingContent={
        <>
          {icon}
          {!compact && "Signing out…"}
        </>
      }
      className={cn(
        "inline-flex items-center gap-2 rounded-md px-2 py-1.5 text-sm text-ink-muted hover:bg-surface-sunken hover:text-ink disabled:opacity-60",
        className,
      )}
    >
      {icon}
      {!compact && "Sign out"}
    </LeaveButton>
  );
}
