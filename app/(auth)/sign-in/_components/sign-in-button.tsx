"use client";

import { signIn } from "next-auth/react";
import { LeaveButton } from "@/components/ui/leave-button";

export function SignInButton({ callbackUrl, provider }: { callbackUrl: string; provider: "Discord" | "Guildhall" }) {
  return (
    <LeaveButton
      leave={() => signIn("guildhall", { callbackUrl })}
      pendingContent="Redirecting…"
      className="rounded-md bg-blurple px-4 py-2.5 font-medium text-white hover:bg-blurple-dark disabled:opacity-60"
    >
      Sign in with {provider}
    </LeaveButton>
  );
}
