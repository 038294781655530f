"use client";

// Toasts for action results: a polite live region, newest last, each dismissable and gone after a few seconds
// (errors stay longer). A newer toast of the same tone replaces the older one, so they never stack up over a form.
// The region is a manual popover kept open: dialogs are <dialog>.showModal() in the browser's top layer, above any
// z-index, and the region is raised above the newest one whenever a dialog opens or a toast appears.
// useToast() works anywhere under <Toaster>.
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { cn } from "./cn";

export type ToastTone = "success" | "error" | "info";
interface ToastItem {
  id: number;
  tone: ToastTone;
  title: string;
  description?: string;
}

interface ToastApi {
  show(toast: Omit<ToastItem, "id">): void;
  success(title: string, description?: string): void;
  error(title: string, description?: string): void;
  info(title: string, description?: string): void;
}

const ToastContext = createContext<ToastApi | null>(null);

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error("useToast must be used under <Toaster>");
  return api;
}

const TONES: Record<ToastTone, string> = {
  success: "border-l-success",
  error: "border-l-danger",
  info: "border-l-blurple",
};

export function Toaster({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ToastItem[]>([]);
  const nextId = useRef(1);
  const region = useRef<HTMLDivElement>(null);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), []);
  const show = useCallback(
    (toast: Omit<ToastItem, "id">) => {
      const id = nextId.current++;
      setToasts((all) => [...all.filter((t) => t.tone !== toast.tone), { ...toast, id }]);
      setTimeout(() => dismiss(id), toast.tone === "error" ? 9000 : 5000);
    },
    [dismiss],
  );
  const api = useMemo<ToastApi>(
    () => ({
      show,
      success: (title, description) => show({ tone: "success", title, description }),
      error: (title, description) => show({ tone: "error", title, description }),
      info: (title, description) => show({ tone: "info", title, description }),
    }),
    [show],
  );
  // Above every open dialog: the top layer stacks in the order elements entered it, so the region re-enters it after
  // each dialog that opens (and after each toast, in case a dialog opened in between).
  const raise = useCallback(() => {
    const el = region.current;
    if (!el || typeof el.showPopover !== "function") return;
    if (el.matches(":popover-open")) el.hidePopover();
    el.showPopover();
  }, []);
  useEffect(() => {
    raise();
    const observer = new MutationObserver((changes) => {
      if (changes.some((c) => c.target instanceof HTMLDialogElement && c.target.open)) raise();
    });
    observer.observe(document.body, { subtree: true, attributeFilter: ["open"] });
    return () => observer.disconnect();
  }, [raise]);
  useEffect(() => {
    if (toasts.length) raise();
  }, [toasts, raise]);

  return (
    <ToastContext.Provider value={api}>
      {children}
      <div
        ref={region}
        popover="manual"
        aria-live="polite"
        className="pointer-events-none fixed inset-x-0 bottom-0 top-auto z-50 m-0 flex h-auto w-full max-w-none flex-col items-center gap-2 overflow-visible border-0 bg-transparent p-4 sm:items-end"
      >
        {toasts.map((toast) => (
          <div
            key={toast.id}
            role={toast.tone === "error" ? "alert" : "status"}
            className={cn(
              "pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-lg border-l-4 bg-surface-raised p-3 shadow-lg ring-1 ring-line",
              TONES[toast.tone],
            )}
          >
            <div className="min-w-0 flex-1">
              <p className="text-sm font-semibold">{toast.title}</p>
              {toast.description && <p className="mt-0.5 break-words text-sm text-ink-muted">{toast.description}</p>}
            </div>
            <button
              type="button"
              onClick={() => dismiss(toast.id)}
              aria-label="Dismiss"
              className="rounded p-0.5 text-ink-muted hover:text-ink"
            >
              ✕
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}
