import type { ReactNode } from "react";
import { cn } from "./cn";

const TONES = {
  neutral: "bg-surface-sunken text-ink-muted ring-line",
  blurple: "bg-blurple/15 text-blurple-ink ring-blurple/30",
  danger: "bg-danger/15 text-danger-ink ring-danger/30",
  success: "bg-success/15 text-success-ink ring-success/30",
  warning: "bg-warning/20 text-ink ring-warning/40",
} as const;

export type BadgeTone = keyof typeof TONES;

export function Badge({
  tone = "neutral",
  children,
  className,
  title,
}: {
  tone?: BadgeTone;
  children: ReactNode;
  className?: string;
  title?: string;
}) {
  return (
    <span
      title={title}
      className={cn(
        "inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset",
        TONES[tone],
        className,
      )}
    >
      {children}
    </span>
  );
}
