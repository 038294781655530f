import { describe, expect, test } from "vitest";
import { TIMEOUT_MAX_MS } from "@/lib/discord/limits";
import {
  DAY_MS,
  DURATION_PRESETS,
  DurationSchema,
  durationMs,
  formatDuration,
  HOUR_MS,
  MINUTE_MS,
  timeoutStep,
} from "@/lib/moderation/durations";

describe("durations", () => {
  test("presets run from 1 hour to 1 year, each named as the form shows it", () => {
    expect(DURATION_PRESETS[0]).toMatchObject({ key: "1h", ms: HOUR_MS });
    expect(DURATION_PRESETS.at(-1)).toMatchObject({ key: "1y", ms: 365 * DAY_MS });
    for (const preset of DURATION_PRESETS) expect(formatDuration(preset.ms)).toBe(preset.label);
  });

  test("the schema takes permanent, a preset, or a custom amount down to one minute, amounts as text too", () => {
    expect(durationMs(DurationSchema.parse("permanent"))).toBeNull();
    expect(durationMs(DurationSchema.parse("1w"))).toBe(7 * DAY_MS);
    expect(durationMs(DurationSchema.parse({ amount: "1", unit: "minutes" }))).toBe(MINUTE_MS);
    expect(durationMs(DurationSchema.parse({ amount: 36, unit: "hours" }))).toBe(36 * HOUR_MS);
  });

  test("the schema refuses what is not a length, with a message for the field", () => {
    for (const bad of ["2h", "", { amount: 0, unit: "days" }, { amount: 1.5, unit: "days" }, { amount: 1, unit: "s" }])
      expect(DurationSchema.safeParse(bad).success).toBe(false);
    const tooLong = DurationSchema.safeParse({ amount: 300, unit: "weeks" });
    expect(tooLong.success).toBe(false);
    expect(tooLong.error?.issues.some((issue) => issue.message === "At most 5 years.")).toBe(true);
  });

  test("other lengths read in their two largest units", () => {
    expect(formatDuration(90 * MINUTE_MS)).toBe("1 hour and 30 minutes");
    expect(formatDuration(15 * DAY_MS)).toBe("2 weeks and 1 day");
    expect(formatDuration(MINUTE_MS)).toBe("1 minute");
    expect(formatDuration(10 * 1000)).toBe("less than a minute");
  });

  test("a timeout within 28 days is set whole; a longer one is set to the cap and renewed a day before it runs out", () => {
    const now = Date.UTC(2026, 10, 29);
    expect(timeoutStep(now, now + 3 * DAY_MS)).toEqual({ until: now + 3 * DAY_MS, renewAt: null });
    expect(timeoutStep(now, now + TIMEOUT_MAX_MS)).toEqual({ until: now + TIMEOUT_MAX_MS, renewAt: null });
    const long = timeoutStep(now, now + 90 * DAY_MS);
    expect(long).toEqual({ until: now + TIMEOUT_MAX_MS, renewAt: now + TIMEOUT_MAX_MS - DAY_MS });
    // Renewed at renewAt: the next step reaches 27 days further, and the last one ends exactly at the end.
    const second = timeoutStep(long.renewAt!, now + 90 * DAY_MS);
    expect(second.until).toBe(long.renewAt! + TIMEOUT_MAX_MS);
    let step = long;
    let steps = 1;
    while (step.renewAt !== null) {
      step = timeoutStep(step.renewAt, now + 90 * DAY_MS);
      steps++;
    }
    expect(step.until).toBe(now + 90 * DAY_MS);
    expect(steps).toBe(4);
  });
});
