"use client";

import { useEffect } from "react";

/** Posts the authorization result to the opener (only to the validated origin) and closes the window. */
export function PostToOpener({ message, origin }: { message: Record<string, string | undefined>; origin: string }) {
  useEffect(() => {
    window.opener?.postMessage(message, origin);
    window.close();
  }, [message, origin]);
  return null;
}
