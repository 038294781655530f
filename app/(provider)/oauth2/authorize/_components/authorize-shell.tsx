// The frame every state of the authorize page shares: a centred card on the sunken surface, the provider named below.
import type { ReactNode } from "react";

export function AuthorizeShell({ children, labelledBy }: { children: ReactNode; labelledBy?: string }) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 bg-surface-sunken px-4 py-10">
      <section
        aria-labelledby={labelledBy}
        className="flex w-full max-w-md flex-col gap-6 rounded-2xl bg-surface p-6 shadow-xl ring-1 ring-line sm:p-8"
      >
        {children}
      </section>
      <p className="flex items-center gap-1.5 text-xs text-ink-muted">
        <span aria-hidden className="inline-block size-2 rounded-full bg-blurple" />
        Guildhall OAuth2 · your password is never shared with the application
      </p>
    </main>
  );
}

/** An alert inside the card (wrong password, a refused install). */
export function Notice({ children, tone = "danger" }: { children: ReactNode; tone?: "danger" | "warning" }) {
  const tones = { danger: "border-danger/40 bg-danger/10", warning: "border-warning/50 bg-warning/10" };
  return (
    <p role="alert" className={`rounded-lg border px-3 py-2.5 text-sm ${tones[tone]}`}>
      {children}
    </p>
  );
}
