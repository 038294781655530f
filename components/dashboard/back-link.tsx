import Link from "next/link";

/** The way back to the page a sub-page belongs to ("← Channels"), above the sub-page's header. */
export function BackLink({ href, children }: { href: string; children: string }) {
  return (
    <nav aria-label="Breadcrumb" className="mb-2 text-sm">
      <Link prefetch={false} href={href} className="text-ink-muted hover:underline">
        ← {children}
      </Link>
    </nav>
  );
}
