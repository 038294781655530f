// The Developer Portal's sign-in: the built-in provider's username and password form. Signed-in visitors go
// straight back to where they were headed.
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { GuildhallMark } from "../_components/icons";
import { currentDeveloper, safeReturnPath } from "../_lib/session";
import { signInErrorMessage } from "@/lib/guild-api/login-throttle";
import { signInAction } from "./actions";

export const metadata: Metadata = { title: "Sign in · Developer Portal" };
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function DeveloperSignInPage({ searchParams }: { searchParams: SearchParams }) {
  const query = await searchParams;
  const next = safeReturnPath(typeof query.next === "string" ? query.next : null);
  if (await currentDeveloper()) redirect(next);
  const one = (key: string) => (typeof query[key] === "string" ? query[key] : undefined);
  const error = signInErrorMessage(one("error"), one("retry_after"));

  return (
    <main className="flex min-h-screen items-center justify-center bg-surface-sunken p-4">
      <div className="flex w-full max-w-sm flex-col gap-6 rounded-2xl bg-surface p-8 shadow-xl ring-1 ring-line">
        <header className="flex flex-col items-center gap-3 text-center">
          <span className="flex size-12 items-center justify-center rounded-2xl bg-blurple text-white shadow-lg shadow-blurple/30">
            <GuildhallMark className="size-7" />
          </span>
          <div>
            <h1 className="text-xl font-semibold">Sign in to the Developer Portal</h1>
            <p className="mt-1 text-sm text-ink-muted">
              Manage your applications, their OAuth2 settings, Activities and bots.
            </p>
          </div>
        </header>
        <form action={signInAction} className="flex flex-col gap-4">
          <input type="hidden" name="next" value={next} />
          {error && (
            <p role="alert" className="rounded-md border border-danger/40 bg-danger/10 px-3 py-2 text-sm">
              {error}
            </p>
          )}
          <label className="flex flex-col gap-1.5 text-xs font-semibold uppercase tracking-wide text-ink-muted">
            Username
            <input
              name="username"
              autoComplete="username"
              required
              autoFocus
              className="rounded-md border border-line bg-surface-sunken px-3 py-2 text-base font-normal normal-case tracking-normal text-ink outline-none focus:border-blurple"
            />
          </label>
          <label className="flex flex-col gap-1.5 text-xs font-semibold uppercase tracking-wide text-ink-muted">
            Password
            <input
              name="password"
              type="password"
              autoComplete="current-password"
              required
              className="rounded-md border border-line bg-surface-sunken px-3 py-2 text-base font-normal normal-case tracking-normal text-ink outline-none focus:border-blurple"
            />
          </label>
          <button
            type="submit"
            className="mt-1 rounded-md bg-blurple px-4 py-2.5 font-medium text-white transition-colors hover:bg-blurple-dark"
          >
            Sign in
          </button>
        </form>
        <p className="text-center text-xs text-ink-muted">
          The same account signs you in to apps through Guildhall&apos;s OAuth2 page.
        </p>
      </div>
    </main>
  );
}
