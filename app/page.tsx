import Link from "next/link";

export default function HomePage() {
  return (
    <main className="mx-auto flex min-h-screen max-w-3xl flex-col justify-center gap-6 px-6">
      <h1 className="text-4xl font-bold tracking-tight">Guildhall</h1>
      <p className="text-lg text-ink-muted">
        The guild-management console for moderators: settings, channels, members, roles, bans, prune, widget, welcome
        screen, onboarding, invites, integrations and safety, with an audit history of every change.
      </p>
      <div className="flex gap-3">
        <Link href="/guilds" className="rounded-md bg-blurple px-4 py-2 font-medium text-white hover:bg-blurple-dark">
          Open the dashboard
        </Link>
        <Link href="/activity" className="rounded-md border border-line px-4 py-2 font-medium hover:bg-surface-raised">
          Sample Activity
        </Link>
      </div>
    </main>
  );
}
