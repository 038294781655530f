// A ban's length as the ban actions file it (issue #32): the request the history keeps carries the API's fields and,
// for a temporary ban, ban_duration_seconds, which only the dashboard reads (its case ends then, cases/derive.ts).
import { durationMs, formatDuration, type DurationInput } from "@/lib/moderation/durations";

export function banRequest(input: { delete_message_seconds: number; duration: DurationInput }) {
  const ms = durationMs(input.duration);
  return {
    delete_message_seconds: input.delete_message_seconds,
    ...(ms === null ? {} : { ban_duration_seconds: Math.round(ms / 1000) }),
  };
}

/** " for 1 week" after "Banned Name", or nothing for a permanent ban. */
export function banLengthText(input: { duration: DurationInput }): string {
  const ms = durationMs(input.duration);
  return ms === null ? "" : ` for ${formatDuration(ms)}`;
}
