"use client";

// The one unsaved-changes guard of the dashboard. Forms and dialogs report whether they hold edits
// (`useUnsavedChanges(dirty)`); while any does, every way out asks "Discard changes?" first:
// - closing or reloading the tab (the browser's own prompt: `beforeunload`),
// - an in-app link (a capture-phase click listener on the document runs before next/link's handler),
// - the back button (a guard entry is pushed onto the history while dirty: going back lands on the same page,
//   the prompt opens, and "Discard" goes back for real),
// - closing a dialog (`Dialog` with `dirty` asks through `useConfirmDiscard`).
// Exported for every page: `useUnsavedChanges`, `useConfirmDiscard`, `UnsavedChangesBar` (Discord's sticky bar).
import { createContext, useCallback, useContext, useEffect, useId, useMemo, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";

interface GuardContext {
  setDirty(source: string, dirty: boolean): void;
  /** Resolves true when the moderator chose to discard their edits (at once when nothing is dirty). */
  confirmDiscard(): Promise<boolean>;
  /** Whether any form or dialog holds edits right now (live updates hold back a refresh then). */
  hasUnsavedChanges(): boolean;
  /** Lets go of the edits because the page is being left on purpose (see `useNavigateAway`). */
  release(): void;
}

const Context = createContext<GuardContext | null>(null);

/** The marker of the history entry pushed while edits are unsaved. */
const GUARD_STATE = "__guildhallUnsavedGuard";

const isGuardEntry = (state: unknown) =>
  typeof state === "object" && state !== null && (state as Record<string, unknown>)[GUARD_STATE] === true;

/** Same-origin page navigation a click on this anchor would start, or null (new tab, download, hash, other site). */
function inAppTarget(event: MouseEvent): URL | null {
  if (event.defaultPrevented || event.button !== 0) return null;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const anchor = (event.target as Element | null)?.closest?.("a[href]");
  if (!(anchor instanceof HTMLAnchorElement)) return null;
  if ((anchor.target && anchor.target !== "_self") || anchor.hasAttribute("download")) return null;
  const url = new URL(anchor.href, window.location.href);
  if (url.origin !== window.location.origin) return null;
  const here = new URL(window.location.href);
  if (url.pathname === here.pathname && url.search === here.search) return null;
  return url;
}

export function UnsavedChangesProvider({ children }: { children: React.ReactNode }) {
  const router = useRouter();
  const sources = useRef(new Set<string>());
  const [anyDirty, setAnyDirty] = useState(false);
  const [prompt, setPrompt] = useState<{ resolve: (discard: boolean) => void } | null>(null);
  // A back press we started ourselves (leaving the guard entry): not the moderator's.
  const ownBack = useRef(false);
  // Edits let go of to leave the page (a link followed, an action that navigates when done): the guard entry stays
  // (it is this page's address) and there is no back press, which would race the navigation and undo it.
  const leavingForward = useRef(false);

  const setDirty = useCallback((source: string, dirty: boolean) => {
    if (dirty) sources.current.add(source);
    else sources.current.delete(source);
    setAnyDirty(sources.current.size > 0);
  }, []);

  const confirmDiscard = useCallback(
    () =>
      sources.current.size === 0 ? Promise.resolve(true) : new Promise<boolean>((resolve) => setPrompt({ resolve })),
    [],
  );

  const answer = (discard: boolean) => {
    prompt?.resolve(discard);
    setPrompt(null);
  };

  const leave = useCallback(() => {
    sources.current.clear();
    setAnyDirty(false);
  }, []);

  const release = useCallback(() => {
    if (sources.current.size === 0) return;
    leavingForward.current = true;
    leave();
  }, [leave]);

  useEffect(() => {
    if (!anyDirty) {
      if (leavingForward.current) {
        leavingForward.current = false;
        return;
      }
      // Edits saved or reset while the guard entry is on top: step off it, so the next back press is a real one.
      if (isGuardEntry(window.history.state)) {
        ownBack.current = true;
        window.history.back();
      }
      return;
    }
    if (!isGuardEntry(window.history.state))
      window.history.pushState({ [GUARD_STATE]: true }, "", window.location.href);

    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = "";
    };
    const onClick = (event: MouseEvent) => {
      const url = inAppTarget(event);
      if (!url) return;
      event.preventDefault();
      event.stopPropagation();
      void confirmDiscard().then((discard) => {
        if (!discard) return;
        release();
        router.push(`${url.pathname}${url.search}${url.hash}`);
      });
    };
    const onPopState = (event: PopStateEvent) => {
      if (ownBack.current) {
        ownBack.current = false;
        return;
      }
      if (isGuardEntry(event.state)) return;
      // The moderator went back from the guard entry to this same page: ask before going further.
      void confirmDiscard().then((discard) => {
        if (discard) {
          leave();
          window.history.back();
        } else {
          window.history.pushState({ [GUARD_STATE]: true }, "", window.location.href);
        }
      });
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    document.addEventListener("click", onClick, true);
    window.addEventListener("popstate", onPopState);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      document.removeEventListener("click", onClick, true);
      window.removeEventListener("popstate", onPopState);
    };
  }, [anyDirty, confirmDiscard, leave, release, router]);

  const hasUnsavedChanges = useCallback(() => sources.current.size > 0, []);
  const value = useMemo(
    () => ({ setDirty, confirmDiscard, hasUnsavedChanges, release }),
    [setDirty, confirmDiscard, hasUnsavedChanges, release],
  );
  return (
    <Context.Provider value={value}>
      {children}
      {prompt && <DiscardPrompt onAnswer={answer} />}
    </Context.Provider>
  );
}

/** Reports this form's (or dialog's) unsaved edits to the guard while it is mounted. */
export function useUnsavedChanges(dirty: boolean): void {
  const guard = useContext(Context);
  const source = useId();
  useEffect(() => {
    if (!guard) return;
    guard.setDirty(source, dirty);
    return () => guard.setDirty(source, false);
  }, [guard, source, dirty]);
}

/**
 * Navigates once an action is done (a member kicked, a job started, a channel deleted): the form's edits went into
 * the action, so the guard lets them go without asking and without stepping off its history entry.
 */
export function useNavigateAway(): (href: string, options?: { scroll?: boolean }) => void {
  const guard = useContext(Context);
  const router = useRouter();
  return useCallback(
    (href, options) => {
      guard?.release();
      router.push(href, options);
    },
    [guard, router],
  );
}

/** Reads, when called, whether anything on the page holds unsaved edits. */
export function useHasUnsavedChanges(): () => boolean {
  const guard = useContext(Context);
  return useCallback(() => guard?.hasUnsavedChanges() ?? false, [guard]);
}

/** Asks "Discard changes?" when anything is unsaved; resolves true to go on. Outside the guard: the browser's confirm. */
export function useConfirmDiscard(): (dirty?: boolean) => Promise<boolean> {
  const guard = useContext(Context);
  return useCallback(
    (dirty = true) => {
      if (!dirty) return Promise.resolve(true);
      if (guard) return guard.confirmDiscard();
      return Promise.resolve(window.confirm("Discard changes? Your edits will be lost."));
    },
    [guard],
  );
}

function DiscardPrompt({ onAnswer }: { onAnswer: (discard: boolean) => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const keep = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const textId = useId();
  useEffect(() => {
    const dialog = ref.current;
    // The element that asked (a link, a dialog's close button) gets the focus back when the prompt closes.
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog?.showModal();
    keep.current?.focus();
    return () => {
      if (dialog?.open) dialog.close();
      opener?.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      role="alertdialog"
      aria-labelledby={titleId}
      aria-describedby={textId}
      onCancel={(event) => {
        event.preventDefault();
        onAnswer(false);
      }}
      className="m-auto w-[calc(100%-2rem)] max-w-sm rounded-xl bg-surface p-5 text-ink shadow-2xl ring-1 ring-line backdrop:bg-black/60"
    >
      <h2 id={titleId} className="text-lg font-semibold">
        Discard changes?
      </h2>
      <p id={textId} className="mt-1 text-sm text-ink-muted">
        You have unsaved changes. If you leave now, they will be lost.
      </p>
      <div className="mt-4 flex flex-wrap justify-end gap-2">
        <Button ref={keep} variant="secondary" onClick={() => onAnswer(false)}>
          Keep editing
        </Button>
        <Button variant="danger" onClick={() => onAnswer(true)}>
          Discard changes
        </Button>
      </div>
    </dialog>
  );
}

/**
 * Discord's sticky bar at the bottom of a form with edits: "Careful — you have unsaved changes!", Reset and Save.
 * Render it inside the <form> so Save submits it; `children` holds extras such as the audit-log reason.
 */
export function UnsavedChangesBar({
  title = "Careful — you have unsaved changes!",
  onReset,
  pending,
  saveLabel = "Save changes",
  saveDisabled,
  summary,
  children,
}: {
  /** The bar's first line; another one when the bar shows for another reason (a form that cannot be saved). */
  title?: string;
  onReset: () => void;
  pending?: boolean;
  saveLabel?: string;
  saveDisabled?: boolean;
  /** What is unsaved, or why saving is not possible yet. */
  summary?: React.ReactNode;
  children?: React.ReactNode;
}) {
  return (
    <div
      role="region"
      aria-label="Unsaved changes"
      className="fixed inset-x-0 bottom-0 z-20 border-t border-line bg-surface-raised/95 backdrop-blur md:left-64"
    >
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-3 gap-y-2 px-4 py-3 md:px-8">
        <div className="min-w-0 flex-1 basis-56 text-sm">
          <p className="font-semibold">{title}</p>
          {summary && <div className="text-ink-muted">{summary}</div>}
        </div>
        {children}
        <div className="ml-auto flex gap-2">
          <Button variant="ghost" onClick={onReset}>
            Reset
          </Button>
          <Button type="submit" pending={pending} disabled={saveDisabled}>
            {saveLabel}
          </Button>
        </div>
      </div>
    </div>
  );
}
