import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startSweeper } from "@/lib/guild-api/sweeper";

describe("startSweeper", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("runs on every tick, never two runs at once", async () => {
    let finish: () => void = () => {};
    const run = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const sweeper = startSweeper(1_000, run, () => {});
    await vi.advanceTimersByTimeAsync(1_000);
    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(3_000); // the first run is still going: these ticks skip
    expect(run).toHaveBeenCalledTimes(1);
    finish();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(run).toHaveBeenCalledTimes(2);
    sweeper.stop();
  });

  it.each([
    ["rejects", () => Promise.reject(new Error("database busy"))],
    [
      "throws before its first await",
      () => {
        throw new Error("database busy");
      },
    ],
  ])("reports a run that %s, and tries again on the next tick", async (_how, fail: () => Promise<void>) => {
    const run = vi
      .fn(fail)
      .mockImplementationOnce(fail)
      .mockImplementation(() => Promise.resolve());
    const onError = vi.fn();
    const sweeper = startSweeper(1_000, run, onError);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(onError).toHaveBeenCalledExactlyOnceWith(new Error("database busy"));
    expect(run).toHaveBeenCalledTimes(2);
    sweeper.stop();
  });

  it("tells a run in progress that it stopped, and ticks no more", async () => {
    let stoppedSeen: (() => boolean) | undefined;
    let finish: () => void = () => {};
    const run = vi.fn((stopped: () => boolean) => {
      stoppedSeen = stopped;
      return new Promise<void>((resolve) => (finish = resolve));
    });
    const sweeper = startSweeper(1_000, run, () => {});
    await vi.advanceTimersByTimeAsync(1_000);
    expect(stoppedSeen?.()).toBe(false);
    sweeper.stop();
    expect(stoppedSeen?.()).toBe(true);
    finish();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(run).toHaveBeenCalledTimes(1);
  });
});
