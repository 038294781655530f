// The portal's top bar: brand, where you are, and who is signed in.
import Link from "next/link";
import { signOutAction } from "../login/actions";
import type { Developer } from "../_lib/session";
import { GuildhallMark } from "./icons";

export function PortalHeader({ developer }: { developer: Developer | null }) {
  return (
    <header className="sticky top-0 z-20 border-b border-line bg-surface/90 backdrop-blur">
      <div className="mx-auto flex h-14 max-w-7xl items-center gap-4 px-4 sm:px-6">
        <Link href="/developers/applications" className="flex items-center gap-2 font-semibold">
          <span className="flex size-8 items-center justify-center rounded-lg bg-blurple text-white">
            <GuildhallMark className="size-5" />
          </span>
          <span>Guildhall</span>
          <span className="rounded-md bg-blurple/10 px-1.5 py-0.5 text-xs font-semibold uppercase tracking-wide text-blurple dark:bg-blurple/20 dark:text-blurple-light">
            Developers
          </span>
        </Link>
        <nav className="hidden text-sm sm:block">
          <Link
            href="/developers/applications"
            className="rounded-md px-2 py-1 text-ink-muted hover:bg-surface-raised hover:text-ink"
          >
            Applications
          </Link>
        </nav>
        {developer && (
          <div className="ml-auto flex items-center gap-3 text-sm">
            <span className="flex items-center gap-2">
              <span
                aria-hidden
                className="flex size-7 items-center justify-center rounded-full bg-surface-sunken text-xs font-bold uppercase"
              >
                {developer.displayName.slice(0, 1)}
              </span>
              <span className="hidden sm:inline">
                <span className="font-medium">{developer.displayName}</span>{" "}
                <span className="text-ink-muted">@{developer.username}</span>
              </span>
            </span>
            <form action={signOutAction}>
              <button
                type="submit"
                className="rounded-md px-2 py-1 text-ink-muted hover:bg-surface-raised hover:text-ink"
              >
                Sign out
              </button>
            </form>
          </div>
        )}
      </div>
    </header>
  );
}
