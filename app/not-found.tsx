// Any address that matches no page: a 404 in words, with the ways back.
import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Page not found" };

export default function NotFound() {
  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <div className="max-w-md text-center">
        <p className="text-sm font-semibold text-blurple-ink">404</p>
        <h1 className="mt-1 text-2xl font-bold">Page not found</h1>
        <p className="mt-2 text-ink-muted">Nothing lives at this address. It may be mistyped, or the page was moved.</p>
        <div className="mt-4 flex justify-center gap-4">
          <Link href="/guilds" className="font-medium text-blurple-ink hover:underline">
            Your servers
          </Link>
          <Link href="/" className="font-medium text-blurple-ink hover:underline">
            Home
          </Link>
        </div>
      </div>
    </main>
  );
}
