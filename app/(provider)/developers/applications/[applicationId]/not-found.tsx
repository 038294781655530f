// Unknown applications and applications the visitor doesn't own look the same: nothing here for you.
import Link from "next/link";

export default function ApplicationNotFound() {
  return (
    <main className="mx-auto flex max-w-xl flex-col items-center gap-4 px-6 py-24 text-center">
      <p className="font-mono text-sm font-semibold text-blurple">404</p>
      <h1 className="text-2xl font-bold tracking-tight">No application here for you</h1>
      <p className="text-ink-muted">
        This application doesn&apos;t exist, or you aren&apos;t its owner. Only an application&apos;s owner can change
        its settings.
      </p>
      <Link
        href="/developers/applications"
        className="rounded-md bg-blurple px-4 py-2 font-medium text-white hover:bg-blurple-dark"
      >
        Your applications
      </Link>
    </main>
  );
}
