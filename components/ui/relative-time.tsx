"use client";

// "in 5 days", "3 hours ago": a time relative to `now`, which the server passes down so the server-rendered text
// and the hydrated text agree, in the reader's locale. The exact time (UTC, which the server and every browser
// agree on) is in the title, shown on hover, and in the <time> element.
import { useLocale } from "./locale";
import { dateTimeFormat, relativeTimeFormat } from "./intl-formats";

const UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ["year", 365 * 86_400_000],
  ["month", 30 * 86_400_000],
  ["week", 7 * 86_400_000],
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
  ["second", 1000],
];

/** Closer to now than this reads "just now", never "0 seconds ago" or "in 3 seconds" (clocks a moment apart). */
const JUST_NOW_MS = 10_000;

/** The largest unit the time is at least nearly one of (59.9 minutes reads "in 1 hour", 40 minutes "in 40 minutes"). */
export function formatRelativeTime(at: number, now: number, locale = "en"): string {
  const diff = at - now;
  if (Math.abs(diff) < JUST_NOW_MS)
    return locale.toLowerCase().startsWith("en")
      ? "just now"
      : relativeTimeFormat(locale, { numeric: "auto" }).format(0, "second");
  const [unit, ms] = UNITS.find(([, size]) => Math.abs(diff) >= size * 0.95) ?? UNITS[UNITS.length - 1];
  return relativeTimeFormat(locale, { numeric: "always" }).format(Math.round(diff / ms), unit);
}

/** The exact time in UTC, in the reader's locale: "25 Nov 2026, 16:30 UTC", "Nov 25, 2026, 4:30 PM UTC". */
export function formatExactTime(at: number, locale: string, options: { seconds?: boolean } = {}): string {
  const timeStyle = options.seconds ? "medium" : "short";
  return `${dateTimeFormat(locale, { dateStyle: "medium", timeStyle, timeZone: "UTC" }).format(at)} UTC`;
}

export function RelativeTime({ iso, now, className }: { iso: string; now: number; className?: string }) {
  const locale = useLocale();
  const at = Date.parse(iso);
  return (
    <time dateTime={iso} title={formatExactTime(at, locale)} className={className}>
      {formatRelativeTime(at, now, locale)}
    </time>
  );
}

/** The exact time in UTC in the reader's locale, for pages rendered on the server ("Prepared … on …"). */
export function ExactTime({ iso, className }: { iso: string; className?: string }) {
  const locale = useLocale();
  return (
    <time dateTime={iso} className={className}>
      {formatExactTime(Date.parse(iso), locale)}
    </time>
  );
}

/** A calendar day (in UTC, as the server renders it) in the reader's locale, with the exact time on hover. */
export function DateOnly({ iso, className }: { iso: string; className?: string }) {
  const locale = useLocale();
  const at = Date.parse(iso);
  return (
    <time dateTime={iso} title={formatExactTime(at, locale)} className={className}>
      {dateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" }).format(at)}
    </time>
  );
}
