"use client";

// Copying a text to the clipboard with a moment of "copied" feedback. Without clipboard access (an insecure origin,
// a refused permission) nothing is copied and the feedback stays off; the text is still on screen to select.
import { useState } from "react";

export function useCopy(feedbackMs = 1500): { copied: boolean; copy: (text: string) => Promise<void> } {
  const [copied, setCopied] = useState(false);
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), feedbackMs);
    } catch {
      setCopied(false);
    }
  };
  return { copied, copy };
}
