// The built-in provider's sign-in and consent page (part of the guild API service, not the dashboard).
import type { Metadata } from "next";
import { cookies } from "next/headers";
import { PROVIDER_SESSION_COOKIE, readProviderSession } from "@/lib/guild-api/provider-session";
import { installableGuilds } from "@/lib/guild-api/services/bot-install";
import { OAUTH2_SCOPES, OAuth2Error, parseAuthorizeRequest, type AuthorizeRequest } from "@/lib/guild-api/services/oauth2";
import { sql } from "@/lib/guild-api/store/db";
import { decide, signIn, signOut } from "./actions";

export const metadata: Metadata = { title: "Authorize" };
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function AuthorizePage({ searchParams }: { searchParams: SearchParams }) {
  const raw = await searchParams;
  const query = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v])) as Record<string, string | undefined>;
  const queryString = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined)).toString();

  let request: AuthorizeRequest;
  try {
    request = parseAuthorizeRequest(query);
  } catch (error) {
    if (!(error instanceof OAuth2Error)) throw error;
    return (
      <Card>
        <h1 className="text-xl font-semibold">This authorization request can&apos;t be completed</h1>
        <p role="alert" className="rounded-md border border-danger/40 bg-danger/10 p-3 text-sm">
          <span className="font-mono text-xs">{error.error}</span>: {error.description}
        </p>
        <p className="text-sm text-ink-muted">Nothing was shared. Go back to the application and try again, or tell its developer.</p>
      </Card>
    );
  }

  const userId = readProviderSession((await cookies()).get(PROVIDER_SESSION_COOKIE)?.value);
  const user = userId === null ? undefined : (sql("SELECT username, global_name FROM users WHERE id = ?").get(userId) as { username: string; global_name: string | null } | undefined);
  const app = request.application;
  const botGuilds = user && userId !== null && request.scopes.includes("bot") ? installableGuilds(userId) : null;

  if (!user) {
    return (
      <Card>
        <AppHeader name={app.name} subtitle="wants to access your account" />
        <form action={signIn} className="flex flex-col gap-3">
          <input type="hidden" name="query" value={queryString} />
          {query.login_error && (
            <p role="alert" className="rounded-md border border-danger/40 bg-danger/10 p-3 text-sm">
              Wrong username or password.
            </p>
          )}
          <label className="flex flex-col gap-1 text-sm font-medium">
            Username
            <input name="username" autoComplete="username" required className="rounded-md border border-line bg-surface-sunken px-3 py-2 text-base font-normal" />
          </label>
          <label className="flex flex-col gap-1 text-sm font-medium">
            Password
            <input name="password" type="password" autoComplete="current-password" required className="rounded-md border border-line bg-surface-sunken px-3 py-2 text-base font-normal" />
          </label>
          <button type="submit" className="mt-2 rounded-md bg-blurple px-4 py-2 font-medium text-white hover:bg-blurple-dark">
            Sign in
          </button>
        </form>
      </Card>
    );
  }

  return (
    <Card>
      <AppHeader name={app.name} subtitle="wants to access your account" />
      <div className="flex items-center justify-between rounded-md bg-surface-sunken px-3 py-2 text-sm">
        <span>
          Signed in as <strong>{user.global_name ?? user.username}</strong> <span className="text-ink-muted">@{user.username}</span>
        </span>
        <form action={signOut}>
          <input type="hidden" name="query" value={queryString} />
          <button type="submit" className="text-blurple hover:underline">Not you? Sign out</button>
        </form>
      </div>
      <section aria-labelledby="scopes-heading">
        <h2 id="scopes-heading" className="mb-2 text-xs font-semibold uppercase tracking-wide text-ink-muted">
          This will allow {app.name} to
        </h2>
        <ul className="flex flex-col gap-2">
          {request.scopes.map((scope) => (
            <li key={scope} className="flex items-start gap-2 text-sm">
              <span aria-hidden className="mt-0.5 text-success">✓</span>
              <span>
                {OAUTH2_SCOPES[scope]} <span className="font-mono text-xs text-ink-muted">({scope})</span>
              </span>
            </li>
          ))}
        </ul>
      </section>
      <p className="text-xs text-ink-muted">
        {request.webMessageOrigin
          ? `The result goes back to ${request.webMessageOrigin}.`
          : `Once you authorize, you will be redirected to ${request.redirectUri ?? "the application"}.`}{" "}
        {app.name} can&apos;t read your password.
      </p>
      <form action={decide} className="flex flex-wrap justify-end gap-3">
        <input type="hidden" name="query" value={queryString} />
        {botGuilds && (
          <label className="flex w-full flex-col gap-1 text-sm font-medium">
            Add to server
            <select name="guild_id" required defaultValue={request.guildId ?? ""} className="rounded-md border border-line bg-surface-sunken px-3 py-2 text-base font-normal">
              <option value="" disabled>
                {botGuilds.length ? "Select a server" : "You need Manage Server in a server to add this bot"}
              </option>
              {botGuilds.map((guild) => (
                <option key={guild.id} value={guild.id}>
                  {guild.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <button type="submit" name="decision" value="cancel" className="rounded-md px-4 py-2 font-medium hover:underline">
          Cancel
        </button>
        <button type="submit" name="decision" value="authorize" className="rounded-md bg-blurple px-4 py-2 font-medium text-white hover:bg-blurple-dark">
          Authorize
        </button>
      </form>
    </Card>
  );
}

function Card({ children }: { children: React.ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-surface-sunken p-4">
      <div className="flex w-full max-w-md flex-col gap-5 rounded-xl bg-surface p-6 shadow-xl ring-1 ring-line">{children}</div>
    </main>
  );
}

function AppHeader({ name, subtitle }: { name: string; subtitle: string }) {
  return (
    <header className="flex flex-col items-center gap-2 text-center">
      <div aria-hidden className="flex size-16 items-center justify-center rounded-2xl bg-blurple text-2xl font-bold text-white">
        {name.slice(0, 1)}
      </div>
      <h1 className="text-xl font-semibold">{name}</h1>
      <p className="text-sm text-ink-muted">{subtitle}</p>
    </header>
  );
}
