// What the built-in provider's pages show a signed-in person whose account had wrong passwords typed for it since
// their previous sign-in (lib/guild-api/services/password-sign-in.ts), until they dismiss it. The notice is read by
// the page (the consent page and the Developer Portal's shell) and stored server-side, never carried in the URL.
import type { SignInNotice } from "@/lib/guild-api/services/password-sign-in";
import { dismissSignInNoticeAction } from "../_lib/sign-in-notice-actions";

export function SignInNoticeBanner({ notice }: { notice: SignInNotice | null }) {
  if (!notice) return null;
  return (
    <div
      role="alert"
      className="flex items-start gap-3 rounded-lg border border-warning/50 bg-warning/10 px-3 py-2.5 text-sm"
    >
      <p className="flex-1">{notice.message}</p>
      <form action={dismissSignInNoticeAction}>
        <button
          type="submit"
          className="rounded-md px-2 py-0.5 text-xs font-semibold text-ink-muted hover:bg-surface-raised hover:text-ink"
        >
          Dismiss
        </button>
      </form>
    </div>
  );
}
