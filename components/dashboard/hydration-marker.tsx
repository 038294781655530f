"use client";

import { useEffect } from "react";

/** Marks <html data-hydrated> once the guild shell (or the picker) has hydrated: browser tests wait for it before typing. */
export function HydrationMarker() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return null;
}
