// What a page says about its live updates, by the stream's state. Quiet on purpose: a small "Live" mark when changes
// made elsewhere arrive by themselves, and one muted line, saying what to do, when they do not (the moderator would
// otherwise wait for a change that never shows). Nothing while the stream is still connecting, so a page that opens
// live does not flash a warning first. Pure, so unit tests and the client share it.
import type { LiveStreamState } from "./browser-stream";

export interface LiveIndicator {
  tone: "live" | "off";
  label: string;
  /** What it means and what to do. */
  detail: string;
}

export function liveIndicatorOf(state: LiveStreamState | null): LiveIndicator | null {
  switch (state) {
    case "live":
      return { tone: "live", label: "Live", detail: "Changes made elsewhere show on this page as they happen." };
    case "not-followed":
      return {
        tone: "off",
        label: "Live updates are off: the bot is not in this server.",
        detail:
          "Add the dashboard's bot to this server to see changes by others as they happen. Until then, reload the page to see them.",
      };
    case "off":
      return {
        tone: "off",
        label: "Live updates are off.",
        detail:
          "This dashboard has no gateway connection (turned off, or no bot token). Reload the page to see changes made elsewhere.",
      };
    default:
      return null;
  }
}
