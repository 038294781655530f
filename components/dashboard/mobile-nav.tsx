"use client";

// Below the md breakpoint the sidebar folds into a drawer opened from the top bar. The drawer holds the sidebar only
// while open: the server then renders the sidebar's HTML once (the desktop aside's), not a hidden second copy before
// every page's first byte (the page's data carries it once either way).
import { useEffect, useRef, useState, type ReactNode } from "react";
import { usePathname } from "next/navigation";
import { Icons } from "@/components/ui/icons";

export function MobileNav({ title, children }: { title: ReactNode; children: ReactNode }) {
  const pathname = usePathname();
  // The drawer belongs to the page it was opened on: navigating closes it without an extra render.
  const [openedOn, setOpenedOn] = useState<string | null>(null);
  const open = openedOn === pathname;
  const setOpen = (value: boolean) => setOpenedOn(value ? pathname : null);
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <div className="sticky top-0 z-30 flex items-center gap-3 border-b border-line bg-surface-raised/95 px-3 py-2 backdrop-blur md:hidden">
      <button
        type="button"
        aria-label="Open navigation"
        aria-expanded={open}
        onClick={() => setOpen(true)}
        className="rounded-md p-2 hover:bg-surface-sunken"
      >
        <Icons.menu className="size-5" />
      </button>
      <div className="min-w-0 flex-1 truncate font-semibold">{title}</div>
      <dialog
        ref={ref}
        aria-label="Navigation"
        onClose={() => setOpen(false)}
        onClick={(e) => e.target === ref.current && setOpen(false)}
        className="m-0 h-full max-h-none w-72 max-w-[85vw] bg-surface-raised p-0 text-ink backdrop:bg-black/50"
      >
        {open && <div className="flex h-full flex-col overflow-y-auto p-3">{children}</div>}
      </dialog>
    </div>
  );
}
