// A bulk job's progress, as the bulk-ban and bulk member job pages show it: what is happening, "N of M sent (P %)"
// (announced politely), the bar, and the counts by result.
import { cn } from "@/components/ui/cn";
import { Num } from "@/components/ui/locale";

export function JobProgress({
  id,
  label,
  processed,
  toSend,
  stats,
}: {
  /** The bar's label id (unique on the page). */
  id: string;
  label: string;
  processed: number;
  toSend: number;
  stats: Array<{ label: string; value: number; tone?: string }>;
}) {
  const percent = toSend === 0 ? 100 : Math.floor((processed / toSend) * 100);
  return (
    <>
      <div className="mb-1.5 flex flex-wrap justify-between gap-2 text-sm">
        <span id={id} className="font-medium">
          {label}
        </span>
        <span className="text-ink-muted" aria-live="polite" data-testid="progress-text">
          <Num value={processed} /> of <Num value={toSend} /> sent ({percent} %)
        </span>
      </div>
      <div
        role="progressbar"
        aria-labelledby={id}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-3 overflow-hidden rounded-full bg-surface-sunken ring-1 ring-inset ring-line"
      >
        <div
          className="h-full rounded-full bg-blurple transition-[width] duration-300"
          style={{ width: `${percent}%` }}
        />
      </div>
      <dl className={cn("mt-4 grid grid-cols-2 gap-3 text-sm", stats.length > 4 ? "sm:grid-cols-5" : "sm:grid-cols-4")}>
        {stats.map((stat) => (
          <div key={stat.label} className="rounded-md bg-surface-sunken px-3 py-2">
            <dt className="text-xs text-ink-muted">{stat.label}</dt>
            <dd className={cn("text-lg font-semibold tabular-nums", stat.tone)}>
              <Num value={stat.value} />
            </dd>
          </div>
        ))}
      </dl>
    </>
  );
}
