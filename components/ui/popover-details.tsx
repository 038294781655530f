"use client";

// A <details> used as a dropdown (a summary that opens a floating panel): it closes as a menu does, on Escape (focus
// back on its summary) and on a press anywhere outside it. A plain <details> does neither.
import { useEffect, useRef, type ComponentProps } from "react";

export function PopoverDetails(props: ComponentProps<"details">) {
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const details = ref.current;
    if (!details) return;
    const onPointerDown = (event: PointerEvent) => {
      if (details.open && !details.contains(event.target as Node)) details.open = false;
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || !details.open) return;
      // Not an enclosing dialog's Escape: only the dropdown closes.
      event.preventDefault();
      event.stopPropagation();
      details.open = false;
      details.querySelector("summary")?.focus();
    };
    document.addEventListener("pointerdown", onPointerDown);
    details.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      details.removeEventListener("keydown", onKeyDown);
    };
  }, []);
  return <details ref={ref} {...props} />;
}
