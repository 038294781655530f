// The moderator's session reused for a few seconds: reused within the window, read again after it, never kept when
// there is none (signed out, expired), and forgotten at once when this process writes the session or the user's
// sessions and tokens, in this thread or another of the process (the moderation scheduler's worker refreshes grants).
import { BroadcastChannel } from "node:worker_threads";
import { describe, expect, test, vi } from "vitest";
import {
  SESSION_FRESH_MS,
  forgetAllSessions,
  forgetSession,
  forgetUserSessions,
  readSessionThroughCache,
} from "@/lib/dashboard/auth/session-cache";

const sessionOf = (userId: string, at: number) => ({ userId, readAt: at });

describe("readSessionThroughCache", () => {
  test("reuses a read within SESSION_FRESH_MS and reads again after it", async () => {
    let clock = 1_000_000;
    const now = () => clock;
    const read = vi.fn(async () => sessionOf("u1", clock));
    const first = await readSessionThroughCache("token-a", read, now);
    clock += SESSION_FRESH_MS - 1;
    expect(await readSessionThroughCache("token-a", read, now)).toBe(first);
    expect(read).toHaveBeenCalledTimes(1);
    clock += 1;
    expect(await readSessionThroughCache("token-a", read, now)).toEqual(sessionOf("u1", clock));
    expect(read).toHaveBeenCalledTimes(2);
  });

  test("keeps no answer for a token without a session", async () => {
    const read = vi.fn(async () => null);
    expect(await readSessionThroughCache("token-none", read)).toBeNull();
    expect(await readSessionThroughCache("token-none", read)).toBeNull();
    expect(read).toHaveBeenCalledTimes(2);
  });

  test("forgets one session, a user's sessions, or all of them", async () => {
    const reads = { b: 0, c: 0, d: 0 };
    const reader = (token: keyof typeof reads, userId: string) => async () => {
      reads[token]++;
      return sessionOf(userId, reads[token]);
    };
    const readAll = async () => {
      await readSessionThroughCache("token-b", reader("b", "u2"));
      await readSessionThroughCache("token-c", reader("c", "u2"));
      await readSessionThroughCache("token-d", reader("d", "u3"));
    };
    await readAll();
    await readAll();
    expect(reads).toEqual({ b: 1, c: 1, d: 1 });

    forgetSession("token-b");
    await readAll();
    expect(reads).toEqual({ b: 2, c: 1, d: 1 });

    forgetUserSessions("u2");
    await readAll();
    expect(reads).toEqual({ b: 3, c: 2, d: 1 });

    forgetAllSessions();
    await readAll();
    expect(reads).toEqual({ b: 4, c: 3, d: 2 });
  });

  test("forgetting reaches the process's other threads, and theirs reaches this one", async () => {
    // Another thread's end of the channel (a BroadcastChannel reaches every other one of its name, threads included).
    const otherThread = new BroadcastChannel("guildhall.dashboardSessionsForgotten");
    const told: unknown[] = [];
    otherThread.onmessage = (event) => told.push(event.data);
    const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
    try {
      let reads = 0;
      const read = async () => sessionOf("u9", ++reads);
      await readSessionThroughCache("token-x", read);
      await readSessionThroughCache("token-x", read);
      expect(reads).toBe(1);

      // The other thread refreshed u9's grant: this thread reads the session again.
      otherThread.postMessage({ all: true });
      await settle();
      await readSessionThroughCache("token-x", read);
      expect(reads).toBe(2);
      otherThread.postMessage({ user: "u9" });
      await settle();
      await readSessionThroughCache("token-x", read);
      expect(reads).toBe(3);

      forgetSession("token-x");
      forgetUserSessions("u9");
      forgetAllSessions();
      await settle();
      expect(told).toEqual([{ session: "token-x" }, { user: "u9" }, { all: true }]);
    } finally {
      otherThread.close();
    }
  });
});
