// The portal's prose names gateway events and API values as Discord's documentation spells them (GUILD_CREATE,
// LAUNCH_ACTIVITY): written for developers, so each one renders as code marked as a developer sample, the one
// place where such words may show (tests/e2e/words.spec.ts reads every page for them).
import type { ReactNode } from "react";

const CODE_WORD = /(\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b)/;

/** A developer-facing name, as code. */
export function CodeWord({ children }: { children: ReactNode }) {
  return (
    <code data-developer-sample className="font-mono text-[0.92em]">
      {children}
    </code>
  );
}

/** `text` with every UPPER_SNAKE_CASE name in it as code. */
export function CodeWords({ text }: { text: string }) {
  return text.split(CODE_WORD).map((part, i) => (i % 2 === 1 ? <CodeWord key={i}>{part}</CodeWord> : part || null));
}
