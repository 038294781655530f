// Streaming a page's slow part after its shell, for certain. React inlines a Suspense boundary whose data is ready
// before the shell has been sent, and a read from the built-in API (served by this same process, over loopback) often
// is: the members table then came inside the first chunk, and the page's first byte waited for its 100 rows to render
// (measured: 5.6 × Next's floor for an empty dynamic page). A boundary that starts its reads after the shell's first
// bytes are written (lib/server/first-write.ts; one turn of the event loop's check phase was not enough: the read,
// answered synchronously by this same process, then ran before the shell went out) lets Next send the shell first;
// the rows follow in the same response.
// settleWithin is the other way round, for pages whose reads are usually quick: wait a bounded time for them first.
import "server-only";
import { thisResponse } from "@/lib/server/first-write";

/** At most this long for the shell's first bytes (a response that writes nothing yet must not hold the rows back). */
const SHELL_WAIT_MS = 100;

export async function afterShell(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  // Under the one-process server: until the shell's first bytes are out (see lib/server/first-write.ts). Not for a
  // client navigation, which has no first byte to hurry and waits for its reads instead (isClientNavigation).
  const response = thisResponse();
  if (!response || response.clientNavigation) return;
  await settleWithin(SHELL_WAIT_MS, [response.firstWrite]);
}

/**
 * Whether this render answers the router's RSC fetch (a click in the app) rather than a document load. A navigation
 * is better served by waiting a bounded time for a part's reads (settleWithin) than by streaming it after the shell:
 * the router shows the new page at once either way, and a part that arrives after its skeleton was shown is revealed
 * no sooner than 300 ms later (React's throttle), where a document's first byte is what streaming protects.
 */
export function isClientNavigation(): boolean {
  return thisResponse()?.clientNavigation ?? false;
}

/**
 * The promise, marked as React marks the promises it has seen (`status`, `value`, `reason`), from now on: `use` of it
 * once settled returns (or throws) at once instead of suspending for a turn, which would stream the boundary after
 * the shell even though its data was there. Also keeps a read that fails before anything uses it from being reported
 * as an unhandled rejection (the component that uses it throws the error).
 */
export function settledForUse<T>(promise: Promise<T>): Promise<T> {
  const marked = promise as Promise<T> & { status?: string; value?: T; reason?: unknown };
  if (marked.status) return marked;
  marked.status = "pending";
  marked.then(
    (value) => {
      marked.status = "fulfilled";
      marked.value = value;
    },
    (reason: unknown) => {
      marked.status = "rejected";
      marked.reason = reason;
    },
  );
  return marked;
}

/**
 * Waits until every read has settled or `ms` have passed, whichever comes first (never throws: the boundaries that
 * await the reads get their outcome). A page that starts its reads together and waits here sends the parts that are
 * ready in its first response and streams only what is still slow. Worth it because React reveals a boundary that
 * resolves after its fallback was shown no sooner than 300 ms after that fallback (its throttle on Suspense reveals):
 * a fallback flashed for reads that take 30 ms costs a client navigation ten times as much.
 */
export async function settleWithin(ms: number, reads: ReadonlyArray<Promise<unknown>>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.allSettled(reads),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}
