"use client";

// A clock for live ages and countdowns. It starts at the server's render time (passed down), so the first client
// render matches the server's HTML, then ticks.
import { useEffect, useState } from "react";

export function useNow(serverNow: number, intervalMs = 1000): number {
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
