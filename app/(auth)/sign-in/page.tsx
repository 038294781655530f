// Sign in: one button that starts the OAuth2 flow with the configured provider, then back to where the person was.
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getDashboardSession } from "@/lib/dashboard/auth/session";
import { dashboardConfig } from "@/lib/dashboard/config";
import { MANAGE_SCOPE } from "@/lib/discord/policies";
import { safeRedirectPath } from "@/lib/security/safe-redirect";
import { SignInButton } from "./_components/sign-in-button";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

// next-auth's error codes, in words.
const ERRORS: Record<string, string> = {
  OAuthCallback: "The sign-in was cancelled or refused. Try again.",
  OAuthSignin: "The sign-in could not be started. Try again.",
  Callback: "The sign-in could not be completed. Try again.",
  AccessDenied: "You chose not to authorize Guildhall.",
  SessionRequired: "Sign in to see that page.",
};

export default async function SignInPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const one = (key: string) => (Array.isArray(params[key]) ? params[key][0] : params[key]);
  // Only same-origin paths: never send someone to another site after signing in.
  const callbackUrl = safeRedirectPath(one("callbackUrl"), { fallback: "/guilds" });
  if (await getDashboardSession()) redirect(callbackUrl);
  const error = one("error");
  const { authorizeUrl, scopes } = dashboardConfig();
  // Bot mode for a server on Discord signs in with Discord; otherwise with the built-in provider.
  const host = new URL(authorizeUrl).hostname;
  const provider = host === "discord.com" || host.endsWith(".discord.com") ? "Discord" : "Guildhall";

  return (
    <main className="flex min-h-screen items-center justify-center bg-surface-sunken p-4">
      <div className="flex w-full max-w-sm flex-col gap-6 rounded-xl bg-surface p-8 shadow-xl ring-1 ring-line">
        <header className="flex flex-col items-center gap-3 text-center">
          <div
            aria-hidden
            className="flex size-14 items-center justify-center rounded-2xl bg-blurple text-2xl font-bold text-white"
          >
            G
          </div>
          <h1 className="text-2xl font-semibold">Sign in to Guildhall</h1>
          <p className="text-sm text-ink-muted">
            Manage the servers you moderate: settings, channels, roles, members and more.
          </p>
        </header>
        {error && (
          <p role="alert" className="rounded-md border border-danger/40 bg-danger/10 p-3 text-sm">
            {ERRORS[error] ?? "Something went wrong while signing in. Try again."}
          </p>
        )}
        <SignInButton callbackUrl={callbackUrl} provider={provider} />
        <p className="text-center text-xs text-ink-muted">
          Guildhall asks to know who you are and which servers you are in
          {scopes.split(" ").includes(MANAGE_SCOPE) ? ", and to manage them with your permissions" : ""} (
          <span className="font-mono">{scopes}</span>).
        </p>
      </div>
    </main>
  );
}
