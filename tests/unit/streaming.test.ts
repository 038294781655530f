// The page helpers that decide what comes in a response's first part: a read marked for React's `use` (settled, it
// is used at once instead of suspending), a bounded wait for reads, and the response facts the one-process server
// hands to pages (a document's slow part waits for the shell's first bytes; a client navigation does not).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, test } from "vitest";
import { afterShell, isClientNavigation, settledForUse, settleWithin } from "@/lib/dashboard/streaming";
import { withResponseFacts } from "@/lib/server/first-write";

const later = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));
type Marked<T> = Promise<T> & { status?: string; value?: T; reason?: unknown };

describe("settledForUse", () => {
  test("marks the promise as React's use reads it: pending, then fulfilled with its value or rejected", async () => {
    const ok = settledForUse(later(5, "rows")) as Marked<string>;
    expect(ok.status).toBe("pending");
    await ok;
    expect(ok).toMatchObject({ status: "fulfilled", value: "rows" });
    const failed = settledForUse(Promise.reject(new Error("API down"))) as Marked<never>;
    await expect(failed).rejects.toThrow("API down");
    expect(failed.status).toBe("rejected");
    expect((failed.reason as Error).message).toBe("API down");
  });
});

describe("settleWithin", () => {
  test("returns when every read settled, failures included, or when the time is up", async () => {
    const started = Date.now();
    await settleWithin(1_000, [later(10, 1), Promise.reject(new Error("no")).catch(() => undefined)]);
    expect(Date.now() - started).toBeLessThan(500);
    const slow = later(2_000, "slow");
    const waited = Date.now();
    await settleWithin(30, [slow]);
    expect(Date.now() - waited).toBeLessThan(1_000);
  });
});

describe("the response facts", () => {
  /** A server whose handler runs under withResponseFacts, writing its first bytes after `shellMs`. */
  async function serve(shellMs: number) {
    const events: string[] = [];
    const server = http.createServer((req, res) => {
      void withResponseFacts(req, res, "test-request", async () => {
        const navigation = isClientNavigation();
        // Whether the shell's bytes have gone to the socket, not just to the response, which holds a first write
        // until the next tick: written from a promise reaction (as React's stream writes), the slow part must still
        // wait for them to leave.
        const shellSent = () => res.socket!.bytesWritten > 0 && res.socket!.writableLength === 0;
        void afterShell().then(() =>
          events.push(`slow part starts (navigation: ${navigation}, shell sent: ${shellSent()})`),
        );
        await later(shellMs, null);
        events.push("shell written");
        res.write("shell");
        await later(20, null);
        res.end("rows");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    return { events, url, close: () => new Promise((resolve) => server.close(resolve)) };
  }

  test("a document's slow part starts after the shell's first bytes; a client navigation's does not wait", async () => {
    const document = await serve(40);
    await (await fetch(document.url)).text();
    expect(document.events).toEqual(["shell written", "slow part starts (navigation: false, shell sent: true)"]);
    await document.close();

    const navigation = await serve(40);
    await (await fetch(navigation.url, { headers: { rsc: "1" } })).text();
    expect(navigation.events).toEqual(["slow part starts (navigation: true, shell sent: false)", "shell written"]);
    await navigation.close();
  });

  test("outside the server's facts (tests, other runtimes) a slow part waits one turn only", async () => {
    expect(isClientNavigation()).toBe(false);
    const order: string[] = [];
    const waited = afterShell().then(() => order.push("after"));
    order.push("now");
    await waited;
    expect(order).toEqual(["now", "after"]);
  });
});
