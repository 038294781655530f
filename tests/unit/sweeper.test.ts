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

  it("reports a failed run and tries again on the next tick", async () => {
    const failure = new Error("database busy");
    const run = vi.fn().mockRejectedValueOnce(failure).mockResolvedValue(undefined);
    const onError = vi.fn();
    const sweeper = startSweeper(1_000, run, onError);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(onError).toHaveBeenCalledExactlyOnceWith(failure);
    expect(run).toHaveBeenCalledTimes(2);
    sweeper.stop();
  });

  it("reports a run that throws before its first await, and runs again", async () => {
    const failure = new Error("no database");
    const run = vi.fn<() => Promise<void>>(() => {
      throw failure;
    });
    const onError = vi.fn();
    const sweeper = startSweeper(1_000, run, onError);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(onError).toHaveBeenCalledTimes(2);
    expect(run).toHaveBeenCalledTimes(2);
    sweeper.stop();
  });

  it("reports a run that throws before its first await, and runs again", async () => {
    const failure = new Error("no database");
    const run = vi.fn<() => Promise<void>>(() => {
      throw failure;
    });
    const onError = vi.fn();
    const sweeper = startSweeper(1_000, run, onError);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(onError).toHaveBeenCalledTimes(2);
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
