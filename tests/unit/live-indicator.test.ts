// The live indicator's words by stream state: live says so quietly, off says why and what to do, connecting says
// nothing (no warning flashes before a page goes live).
import { describe, expect, it } from "vitest";
import { liveIndicatorOf } from "@/lib/dashboard/live/indicator";

describe("liveIndicatorOf", () => {
  it("marks a live page with a short label", () => {
    expect(liveIndicatorOf("live")).toMatchObject({ tone: "live", label: "Live" });
  });

  it("says the bot is not in the server, and what to do, when the connection does not follow the guild", () => {
    const indicator = liveIndicatorOf("not-followed");
    expect(indicator?.tone).toBe("off");
    expect(indicator?.label).toBe("Live updates are off: the bot is not in this server.");
    expect(indicator?.detail).toMatch(/Add the dashboard's bot to this server/);
    expect(indicator?.detail).toMatch(/reload the page/);
  });

  it("says live updates are off when the dashboard has no gateway connection", () => {
    expect(liveIndicatorOf("off")).toMatchObject({ tone: "off", label: "Live updates are off." });
    expect(liveIndicatorOf("off")?.detail).toMatch(/Reload the page/);
  });

  it("shows nothing while connecting or before the stream has said anything", () => {
    expect(liveIndicatorOf("connecting")).toBeNull();
    expect(liveIndicatorOf(null)).toBeNull();
  });
});
