// The quiet live-updates indicator above a guild's page: "Live" with a dot, or one muted line saying live updates are
// off, why, and what to do (lib/dashboard/live/indicator.ts has the words).
import type { LiveStreamState } from "@/lib/dashboard/live/browser-stream";
import { liveIndicatorOf } from "@/lib/dashboard/live/indicator";

export function LiveIndicator({ state }: { state: LiveStreamState | null }) {
  const indicator = liveIndicatorOf(state);
  if (!indicator) return null;
  if (indicator.tone === "live")
    return (
      // In the page's top padding (a zero-height anchor): appearing after the page shifts nothing under the pointer.
      <div className="relative h-0">
        <p
          data-live-state={state}
          title={indicator.detail}
          className="absolute -top-5 right-0 inline-flex items-center gap-1.5 text-xs text-ink-muted md:-top-6"
        >
          <span aria-hidden className="size-2 rounded-full bg-green-500" />
          {indicator.label}
          <span className="sr-only">: {indicator.detail}</span>
        </p>
      </div>
    );
  return (
    <p data-live-state={state} className="mb-3 text-xs text-ink-muted">
      <span aria-hidden className="mr-1.5 inline-block size-2 rounded-full border border-ink-muted" />
      <span className="font-medium">{indicator.label}</span> {indicator.detail}
    </p>
  );
}
