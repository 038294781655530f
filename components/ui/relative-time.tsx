// "in 5 days", "3 hours ago": a time relative to `now`, which the server passes down so the server-rendered text
// and the hydrated text agree. The exact UTC time is in the title and the <time> element.
const UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ["year", 365 * 86_400_000],
  ["month", 30 * 86_400_000],
  ["week", 7 * 86_400_000],
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
  ["second", 1000],
];

const relative = new Intl.RelativeTimeFormat("en", { numeric: "always" });
const exact = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** The largest unit the time is at least nearly one of (59.9 minutes reads "in 1 hour", 40 minutes "in 40 minutes"). */
export function formatRelativeTime(at: number, now: number): string {
  const diff = at - now;
  const [unit, ms] = UNITS.find(([, size]) => Math.abs(diff) >= size * 0.95) ?? UNITS[UNITS.length - 1];
  return relative.format(Math.round(diff / ms), unit);
}

export function RelativeTime({ iso, now, className }: { iso: string; now: number; className?: string }) {
  const at = Date.parse(iso);
  return (
    <time dateTime={iso} title={`${exact.format(at)} UTC`} className={className}>
      {formatRelativeTime(at, now)}
    </time>
  );
}
