import { describe, expect, test } from "vitest";
import { normaliseChannelName } from "@/lib/discord/channel-names";

describe("normaliseChannelName", () => {
  test.each([
    [0, "Hello World", "hello-world"],
    [5, "  Big   News ", "big-news"],
    [15, "Ask\tHere", "ask-here"],
    [0, "already-fine", "already-fine"],
    [0, "ÉTÉ Café", "été-café"],
    [16, "Fan Art", "fan-art"],
    [0, "a - b", "a-b"],
    [0, "dash--run", "dash-run"],
  ])("type %i: %j → %j", (type, name, expected) => {
    expect(normaliseChannelName(type, name)).toBe(expected);
  });

  test.each([2, 4, 13])("type %i keeps its name as given", (type) => {
    expect(normaliseChannelName(type, "Quiet Room")).toBe("Quiet Room");
  });
});
