// Where the moderation scheduler runs (lib/dashboard/cases/scheduler.ts): in its worker thread, and in the server's own
// thread, with a warning, when that thread cannot start or dies, so no temporary ban is left unended; never both, and
// not after it was stopped or the server began shutting down. The worker and the loop are stand-ins here; the real
// worker is tests/integration/dashboard/scheduler-worker.test.ts's.
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import type { SchedulerThreadLost } from "@/lib/dashboard/cases/scheduler-thread";
import { tapLogs } from "@/lib/server/logger";

const thread = vi.hoisted(() => ({ lost: null as SchedulerThreadLost | null, stop: vi.fn(async () => {}) }));
const loop = vi.hoisted(() => ({ start: vi.fn(), stop: vi.fn(async () => {}) }));

vi.mock("@/lib/dashboard/cases/scheduler-thread", () => ({
  startSchedulerThread: (_intervalMs: number, lost: SchedulerThreadLost) => {
    thread.lost = lost;
    return { stop: thread.stop };
  },
}));
vi.mock("@/lib/dashboard/cases/scheduler-loop", () => ({
  startSchedulerLoop: (...args: unknown[]) => {
    loop.start(...args);
    return { stop: loop.stop };
  },
}));
vi.mock("@/lib/dashboard/data/acting-api", () => ({ apiActingFor: vi.fn() }));

const { startModerationScheduler } = await import("@/lib/dashboard/cases/scheduler");

/** An error whose logged stack is its message (the test's output stays short). */
const failure = (message: string) => Object.assign(new Error(message), { stack: message });

let lines: Array<Record<string, unknown>> = [];
let untap = () => {};
beforeEach(() => {
  thread.lost = null;
  vi.clearAllMocks();
  lines = [];
  const remove = tapLogs((line) => lines.push(line));
  untap = () => void remove();
});
afterEach(() => untap());

describe("startModerationScheduler", () => {
  test("runs the loop in its worker thread, and not in this one", async () => {
    const stop = startModerationScheduler(1_000);
    expect(thread.lost).not.toBeNull();
    expect(loop.start).not.toHaveBeenCalled();
    await stop();
    expect(thread.stop).toHaveBeenCalledOnce();
  });

  test("a worker that cannot start: the loop runs in this thread, with a warning", async () => {
    const stop = startModerationScheduler(1_000);
    thread.lost!(failure("Cannot find module 'tsx/esm/api'"), false);
    expect(loop.start).toHaveBeenCalledOnce();
    expect(loop.start.mock.calls[0][0]).toBe(1_000);
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 40,
        msg: "the moderation scheduler's worker thread could not start: running it in this thread",
      }),
    );
    await stop();
    expect(loop.stop).toHaveBeenCalledOnce();
  });

  test("a worker that dies: the loop runs in this thread, logged as an error", async () => {
    const stop = startModerationScheduler(1_000);
    thread.lost!(failure("out of memory"), true);
    expect(loop.start).toHaveBeenCalledOnce();
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 50,
        msg: "the moderation scheduler's worker thread died: running it in this thread",
      }),
    );
    await stop();
  });

  test("once stopped, a worker that goes is not replaced", async () => {
    const stop = startModerationScheduler(1_000);
    await stop();
    thread.lost!(failure("exited"), true);
    expect(loop.start).not.toHaveBeenCalled();
  });
});
