"use client";

// A modal on the native <dialog>: showModal() gives the focus trap, Escape to close, the inert background and
// the top layer for free. Open state is controlled by the parent. A dialog holding edits (`dirty`) asks
// "Discard changes?" before any close (Escape, backdrop, the close button), through the dashboard's one guard; when
// it closes, the focus goes back to the element that opened it. A form inside reports its own edits with
// `useDialogForm(dirty)`, which also gives its Cancel button the same asking close; a dialog whose edits are its own
// state (`dirty`: a confirmation with only a reason field) puts `DialogCancel` in its body or footer for that close.
import { createContext, useContext, useEffect, useId, useMemo, useRef, useState, type ReactNode } from "react";
import { useConfirmDiscard, useUnsavedChanges } from "@/components/dashboard/unsaved-changes";
import { Button } from "./button";
import { cn } from "./cn";

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  size?: "sm" | "md" | "lg";
  /** The dialog holds edits that closing would lose. */
  dirty?: boolean;
}

const SIZES = { sm: "max-w-md", md: "max-w-lg", lg: "max-w-2xl" };

interface DialogFormContext {
  reportDirty(dirty: boolean): void;
  requestClose(): void;
}

const FormContext = createContext<DialogFormContext | null>(null);

/**
 * For a form rendered inside a Dialog: while `dirty`, closing the dialog (Escape, the backdrop, the close button,
 * leaving the page) asks "Discard changes?" first. `requestClose` is that same asking close, for a Cancel button.
 */
export function useDialogForm(dirty: boolean): { requestClose: () => void } {
  const dialog = useContext(FormContext);
  useEffect(() => {
    dialog?.reportDirty(dirty);
  }, [dialog, dirty]);
  useEffect(() => () => dialog?.reportDirty(false), [dialog]);
  return { requestClose: dialog?.requestClose ?? noop };
}

const noop = () => {};

/** The dialog's Cancel: closes it as Escape does, asking "Discard changes?" first while it holds edits. */
export function DialogCancel({ children = "Cancel" }: { children?: ReactNode }) {
  const dialog = useContext(FormContext);
  return (
    <Button variant="ghost" onClick={dialog?.requestClose ?? noop}>
      {children}
    </Button>
  );
}

export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  footer,
  size = "md",
  dirty = false,
}: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const titleId = useId();
  const descriptionId = useId();
  const confirmDiscard = useConfirmDiscard();
  const [formDirty, setFormDirty] = useState(false);
  const holdsEdits = dirty || formDirty;
  useUnsavedChanges(open && holdsEdits);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
    }
    if (!open) {
      // The browser may have closed it already (Escape): the focus still goes back to where the moderator was, when
      // that element is still on the page (a deleted row's button is not).
      if (dialog.open) dialog.close();
      if (opener.current?.isConnected) opener.current.focus();
      opener.current = null;
    }
  }, [open]);

  // A dialog that closes by going away (a panel whose URL state was cleared) gives the focus back too.
  useEffect(
    () => () => {
      if (opener.current?.isConnected) opener.current.focus();
    },
    [],
  );

  const requestClose = () => {
    void confirmDiscard(holdsEdits).then((discard) => discard && onClose());
  };
  // The form's context stays the same object while the dialog lives; requestClose reads the latest edits and onClose.
  const latestClose = useRef(requestClose);
  useEffect(() => {
    latestClose.current = requestClose;
  });
  const formContext = useMemo<DialogFormContext>(
    () => ({ reportDirty: setFormDirty, requestClose: () => latestClose.current() }),
    [],
  );

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onClose={() => open && onClose()}
      onCancel={(event) => {
        event.preventDefault();
        requestClose();
      }}
      onClick={(event) => {
        // A click on the backdrop lands on the <dialog> element itself.
        if (event.target === ref.current) requestClose();
      }}
      className={cn(
        "m-auto max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] rounded-xl bg-surface p-0 text-ink shadow-2xl ring-1 ring-line backdrop:bg-black/60",
        SIZES[size],
      )}
    >
      {open && (
        <div className="flex max-h-[calc(100dvh-2rem)] flex-col">
          <div className="flex shrink-0 items-start justify-between gap-4 border-b border-line px-5 py-4">
            <div className="min-w-0">
              <h2 id={titleId} className="text-lg font-semibold">
                {title}
              </h2>
              {description && (
                <p id={descriptionId} className="mt-1 text-sm text-ink-muted">
                  {description}
                </p>
              )}
            </div>
            <button
              type="button"
              onClick={requestClose}
              aria-label="Close"
              className="shrink-0 rounded-md p-1 text-ink-muted hover:bg-surface-sunken hover:text-ink"
            >
              <svg viewBox="0 0 20 20" className="size-5" fill="currentColor" aria-hidden>
                <path d="M5.3 4.3a1 1 0 0 0-1.4 1.4L8.6 10l-4.7 4.3a1 1 0 1 0 1.4 1.4L10 11.4l4.7 4.3a1 1 0 0 0 1.4-1.4L11.4 10l4.7-4.3a1 1 0 0 0-1.4-1.4L10 8.6 5.3 4.3Z" />
              </svg>
            </button>
          </div>
          <FormContext.Provider value={formContext}>
            <div className="min-h-0 overflow-y-auto px-5 py-4">{children}</div>
            {footer && (
              <div className="flex shrink-0 flex-wrap justify-end gap-2 border-t border-line bg-surface-raised px-5 py-3">
                {footer}
              </div>
            )}
          </FormContext.Provider>
        </div>
      )}
    </dialog>
  );
}
