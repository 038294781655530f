"use client";

// Keeps the open page current: it listens to the guild's live stream (GET /guilds/{id}/live, Server-Sent Events) and,
// when a change concerns the section on screen, refreshes the page's server data (router.refresh(): no reload, the
// client state stays) and says who changed it, "Changed by Owner just now". While a form or dialog holds unsaved
// edits nothing is refreshed under it: the page says the data changed underneath and offers to reload, which
// discards the edits (the page's client components start again from the new data). The stream is shared by the
// browser's tabs of the guild (lib/dashboard/live/browser-stream.ts); the indicator says whether updates are live.
import { Fragment, useCallback, useEffect, useRef, useState, useTransition } from "react";
import { usePathname, useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { useHasUnsavedChanges } from "@/components/dashboard/unsaved-changes";
import { LiveIndicator } from "@/components/dashboard/live-indicator";
import { affects, sectionOfPath } from "@/lib/dashboard/live/changes";
import {
  followGuildStream,
  type LiveChangeMessage as ChangeMessage,
  type LiveStreamState,
} from "@/lib/dashboard/live/browser-stream";

/**
 * A burst of changes (a bulk job banning thousands) refreshes the page at most this often: the first change at once,
 * the rest together after it.
 */
const MIN_REFRESH_INTERVAL_MS = 1_000;
/** How long "Changed by … just now" stays. */
const NOTICE_MS = 8_000;
/**
 * The audit history imports the guild's own log entries once they are 3 s old, at most every 5 s per guild: it is
 * refreshed again after those, so an entry made by a bot or another client shows up too.
 */
const AUDIT_HISTORY_FOLLOW_UPS_MS = [1_500, 5_500];

function changedBy(actors: ChangeMessage["actors"], viewerId: string): string {
  if (actors.length === 0) return "Updated just now";
  const names = actors.map((actor) => (actor.id === viewerId ? "you" : actor.name));
  return `Changed by ${names.join(", ")} just now`;
}

export function LiveUpdates({
  guildId,
  viewerId,
  children,
}: {
  guildId: string;
  /** The signed-in moderator's user id: their own changes read "by you". */
  viewerId: string;
  children: React.ReactNode;
}) {
  const router = useRouter();
  const pathname = usePathname();
  const hasUnsavedChanges = useHasUnsavedChanges();
  const [refreshing, startTransition] = useTransition();
  const [notice, setNotice] = useState<string | null>(null);
  const [heldBack, setHeldBack] = useState<string | null>(null);
  const [streamState, setStreamState] = useState<LiveStreamState | null>(null);
  // Bumped to start the page's client components again from fresh data (after "Reload" discards edits).
  const [generation, setGeneration] = useState(0);
  const restartAfterRefresh = useRef(false);
  const section = useRef(sectionOfPath(pathname));
  useEffect(() => {
    section.current = sectionOfPath(pathname);
  }, [pathname]);

  const refresh = useCallback(() => startTransition(() => router.refresh()), [router]);

  useEffect(() => {
    const timers = new Set<ReturnType<typeof setTimeout>>();
    const later = (ms: number, work: () => void) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        work();
      }, ms);
      timers.add(timer);
    };
    let lastRefreshAt = 0;
    let trailing = false;
    const refreshSoon = () => {
      const wait = lastRefreshAt + MIN_REFRESH_INTERVAL_MS - Date.now();
      if (wait <= 0) {
        lastRefreshAt = Date.now();
        refresh();
      } else if (!trailing) {
        trailing = true;
        later(wait, () => {
          trailing = false;
          lastRefreshAt = Date.now();
          if (!hasUnsavedChanges()) refresh();
        });
      }
    };
    let opened = 0;
    const onChange = (message: ChangeMessage) => {
      if (!affects(message.sections, section.current)) return;
      const text = changedBy(message.actors, viewerId);
      if (hasUnsavedChanges()) {
        // The moderator's own change (a save on this page, which refreshed it already) is no news to them.
        if (!message.actors.every((actor) => actor.id === viewerId) || message.actors.length === 0) setHeldBack(text);
        return;
      }
      setNotice(text);
      later(NOTICE_MS, () => setNotice((current) => (current === text ? null : current)));
      refreshSoon();
      if (section.current === "audit-history")
        for (const ms of AUDIT_HISTORY_FOLLOW_UPS_MS) later(ms, () => !hasUnsavedChanges() && refreshSoon());
    };
    const stop = followGuildStream(guildId, viewerId, (event) => {
      switch (event.kind) {
        case "opened":
          // Back after a dropped stream (or another tab took it over): changes made meanwhile were not heard, so
          // read the page again.
          if (++opened > 1 && !hasUnsavedChanges()) refresh();
          return;
        case "state":
          return setStreamState(event.state);
        case "change":
          return onChange(event.message);
        case "revoked":
          // Removed from the guild, or signed out: the page's next read says so.
          return refresh();
      }
    });
    return () => {
      stop();
      for (const timer of timers) clearTimeout(timer);
    };
  }, [guildId, viewerId, hasUnsavedChanges, refresh]);

  useEffect(() => {
    if (refreshing || !restartAfterRefresh.current) return;
    restartAfterRefresh.current = false;
    setGeneration((n) => n + 1);
    document.getElementById("content")?.focus();
  }, [refreshing]);

  const reload = () => {
    setHeldBack(null);
    restartAfterRefresh.current = true;
    refresh();
  };

  return (
    <>
      <LiveIndicator state={streamState} />
      {/* In the page's top padding, left of the "Live" indicator (a zero-height anchor, as the indicator's): the page
          does not shift under the pointer when it appears or goes, and it never sits on top of "Live". */}
      <div className="relative h-0">
        <div role="status" aria-label="Live updates" className="absolute -top-5 right-14 max-w-[70%] md:-top-6">
          {notice && !heldBack && (
            <p className="inline-flex items-center gap-1.5 truncate text-xs text-ink-muted">
              <span aria-hidden className="size-2 shrink-0 rounded-full bg-blurple" />
              {notice}
            </p>
          )}
        </div>
      </div>
      {heldBack && (
        <div
          role="region"
          aria-label="Changed while you were editing"
          className="sticky top-2 z-30 mb-4 flex flex-wrap items-center gap-3 rounded-lg border border-yellow-500/60 bg-surface-raised px-4 py-3 text-sm shadow-lg"
        >
          <p className="min-w-0 flex-1 basis-64">
            <span className="font-semibold">This page changed while you were editing.</span> {heldBack}. Your edits are
            kept; reload to see the change (your unsaved edits will be lost).
          </p>
          <div className="flex gap-2">
            <Button variant="ghost" onClick={() => setHeldBack(null)}>
              Keep editing
            </Button>
            <Button onClick={reload}>Reload</Button>
          </div>
        </div>
      )}
      <Fragment key={generation}>{children}</Fragment>
    </>
  );
}
