"use client";

import { signIn } from "next-auth/react";
import { useState } from "react";

export function SignInButton({ callbackUrl }: { callbackUrl: string }) {
  const [pending, setPending] = useState(false);
  return (
    <button
      type="button"
      disabled={pending}
      onClick={() => {
        setPending(true);
        void signIn("guildhall", { callbackUrl }).catch(() => setPending(false));
      }}
      className="rounded-md bg-blurple px-4 py-2.5 font-medium text-white hover:bg-blurple-dark disabled:opacity-60"
    >
      {pending ? "Redirecting…" : "Sign in with Guildhall"}
    </button>
  );
}
