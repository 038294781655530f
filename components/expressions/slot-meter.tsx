// Slots used of those the server's boost level gives (Discord's limits per premium tier).
import { cn } from "@/components/ui/cn";

export function SlotMeter({ label, used, total }: { label: string; used: number; total: number }) {
  const full = used >= total;
  return (
    <div className="min-w-40 flex-1" data-testid={`slots-${label.toLowerCase().replace(/\s+/g, "-")}`}>
      <div className="flex items-baseline justify-between gap-2 text-sm">
        <span className="font-medium">{label}</span>
        <span className={cn("tabular-nums", full ? "text-danger-ink" : "text-ink-muted")}>
          {used} of {total} slots
        </span>
      </div>
      <div
        className="mt-1.5 h-2 overflow-hidden rounded-full bg-surface-sunken"
        role="meter"
        aria-label={`${label} slots used`}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={used}
      >
        <div
          className={cn("h-full rounded-full", full ? "bg-danger" : "bg-blurple")}
          style={{ width: `${Math.min(100, (used / Math.max(total, 1)) * 100)}%` }}
        />
      </div>
    </div>
  );
}
