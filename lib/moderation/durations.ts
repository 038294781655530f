// How long a temporary ban or a timeout lasts (issue #32): the presets the ban forms offer (1 hour to 1 year, or
// permanent for bans), a custom length down to one minute, and how a timeout longer than Discord's 28-day cap is
// kept: set to the cap, then renewed before it runs out until its end. Pure: the forms, the actions and the
// scheduler share it.
import { z } from "zod";
import { TIMEOUT_MAX_MS } from "@/lib/discord/limits";

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** The longest custom length: five years (a limit, as every input has one). */
export const DURATION_MAX_MS = 5 * 365 * DAY_MS;

export const DURATION_PRESETS = [
  { key: "1h", label: "1 hour", ms: HOUR_MS },
  { key: "6h", label: "6 hours", ms: 6 * HOUR_MS },
  { key: "12h", label: "12 hours", ms: 12 * HOUR_MS },
  { key: "1d", label: "1 day", ms: DAY_MS },
  { key: "3d", label: "3 days", ms: 3 * DAY_MS },
  { key: "1w", label: "1 week", ms: 7 * DAY_MS },
  { key: "2w", label: "2 weeks", ms: 14 * DAY_MS },
  { key: "1mo", label: "1 month", ms: 30 * DAY_MS },
  { key: "3mo", label: "3 months", ms: 90 * DAY_MS },
  { key: "6mo", label: "6 months", ms: 180 * DAY_MS },
  { key: "1y", label: "1 year", ms: 365 * DAY_MS },
] as const;

export type DurationPresetKey = (typeof DURATION_PRESETS)[number]["key"];

export const DURATION_UNITS = {
  minutes: MINUTE_MS,
  hours: HOUR_MS,
  days: DAY_MS,
  weeks: 7 * DAY_MS,
} as const;

export type DurationUnit = keyof typeof DURATION_UNITS;

/**
 * A length as the forms send it: "permanent" (bans only), a preset's key, or a custom amount of a unit. Amounts
 * arrive as form text too ("90"), as Discord accepts numbers as strings.
 */
export const DurationSchema = z.union([
  z.literal("permanent"),
  z.enum(DURATION_PRESETS.map((preset) => preset.key) as [DurationPresetKey, ...DurationPresetKey[]]),
  z
    .object({
      amount: z.coerce.number({ message: "Enter a number." }).int("Enter a whole number.").min(1, "At least 1."),
      unit: z.enum(Object.keys(DURATION_UNITS) as [DurationUnit, ...DurationUnit[]]),
    })
    .refine((value) => value.amount * DURATION_UNITS[value.unit] <= DURATION_MAX_MS, {
      message: "At most 5 years.",
      path: ["amount"],
    }),
]);

export type DurationInput = z.infer<typeof DurationSchema>;
/** A length as a form holds it before the schema reads it (a custom amount may still be text). */
export type DurationFormValue = z.input<typeof DurationSchema>;

/** The length in milliseconds, or null for permanent. */
export function durationMs(input: DurationInput): number | null {
  if (input === "permanent") return null;
  if (typeof input === "string") return DURATION_PRESETS.find((preset) => preset.key === input)!.ms;
  return input.amount * DURATION_UNITS[input.unit];
}

/** "1 hour", "3 days", "2 weeks and 1 day", "90 minutes": the largest units that divide it, at most two. */
export function formatDuration(ms: number): string {
  const preset = DURATION_PRESETS.find((p) => p.ms === ms);
  if (preset) return preset.label;
  const parts: string[] = [];
  let rest = Math.round(ms / MINUTE_MS) * MINUTE_MS;
  for (const [unit, size] of [
    ["week", 7 * DAY_MS],
    ["day", DAY_MS],
    ["hour", HOUR_MS],
    ["minute", MINUTE_MS],
  ] as const) {
    const count = Math.floor(rest / size);
    if (count === 0) continue;
    parts.push(`${count} ${unit}${count === 1 ? "" : "s"}`);
    rest -= count * size;
    if (parts.length === 2) break;
  }
  return parts.length ? parts.join(" and ") : "less than a minute";
}

/** How long before the cap runs out a long timeout is renewed: a day, so a late or failed run can be retried. */
export const TIMEOUT_RENEW_MARGIN_MS = DAY_MS;

/**
 * A timeout until `endsAt`, as Discord can hold it from `now`: the `communication_disabled_until` to set now (the end,
 * or the 28-day cap) and, when the end is past the cap, when to renew it (a day before the cap runs out).
 */
export function timeoutStep(now: number, endsAt: number): { until: number; renewAt: number | null } {
  const cap = now + TIMEOUT_MAX_MS;
  if (endsAt <= cap) return { until: endsAt, renewAt: null };
  return { until: cap, renewAt: cap - TIMEOUT_RENEW_MARGIN_MS };
}
