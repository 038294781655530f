import Link from "next/link";

export default function GuildNotFound() {
  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <div className="max-w-md text-center">
        <h1 className="text-2xl font-bold">Server not found</h1>
        <p className="mt-2 text-ink-muted">This server doesn&apos;t exist, or you&apos;re not a member of it.</p>
        <Link prefetch={false} href="/guilds" className="mt-4 inline-block text-blurple-ink hover:underline">
          Back to your servers
        </Link>
      </div>
    </main>
  );
}
