// What a page may want to know about the response it renders into: when its first bytes went out, and whether it is
// a client navigation (the router's RSC fetch) rather than a document. The one-process server (create-server.ts)
// runs each page request inside this store, so a page's slow part can start only after its shell has gone out (the
// built-in API answers the dashboard's reads in this same process, synchronously inside SQLite, and a read started a
// moment too early, the members table's search over a million members, held the shell's first byte back behind it),
// and a client navigation can wait for its reads instead. Kept on globalThis: the server loads this module outside
// Next's bundles, and the pages inside them.
import type { IncomingMessage, ServerResponse } from "node:http";
import { ContextStorage } from "./async-context";

export interface ResponseFacts {
  /** The router's RSC fetch (a click in the app, a prefetch), not a document load. */
  clientNavigation: boolean;
  /** Settles once the response's first bytes are on the socket (or it ended, or closed). */
  firstWrite: Promise<void>;
  /**
   * The request's id (request-id.ts reads it from here for pages and actions). Carried in these facts rather than a
   * store of its own: entering a second store for every page request made the guild API's later requests dearer in
   * the same process (bench: members?limit=100 from 97 to 135 CPU µs/req).
   */
  requestId: string;
}

const STORE_KEY = Symbol.for("guildhall.firstWrite");
const store: ContextStorage<ResponseFacts> = ((globalThis as { [STORE_KEY]?: ContextStorage<ResponseFacts> })[
  STORE_KEY
] ??= new ContextStorage());

/** Runs `handle` with the facts of `res` visible to it (thisResponse()). */
export function withResponseFacts<T>(req: IncomingMessage, res: ServerResponse, requestId: string, handle: () => T): T {
  const sent = new Promise<void>((resolve) => {
    // The wrapper stays (Next's compression wraps res.write in turn and calls through this one), passing through.
    const write = res.write;
    let written = false;
    res.write = function (this: ServerResponse, ...args: Parameters<ServerResponse["write"]>) {
      const result = write.apply(this, args);
      // Not at once: node corks a response's first write until the next tick, and a write made from a promise
      // reaction (React's stream is piped by one) would let every reaction queued behind this one (the slow part's
      // read starting, its request being built) run before the bytes leave. The check phase comes after that tick.
      if (!written) setImmediate(resolve);
      written = true;
      return result;
    } as ServerResponse["write"];
    // A response ended without a write (a redirect, a 404 page in one piece) has nothing more to wait for.
    res.once("finish", resolve);
    res.once("close", resolve);
  });
  return store.run({ clientNavigation: req.headers.rsc === "1", firstWrite: sent, requestId }, handle);
}

/** Runs `fn` as no response's work (what it starts serves every request: see outsideRequest in request-id.ts). */
export function outsideResponse<T>(fn: () => T): T {
  return store.exit(fn);
}

/** The current response's facts, when this request runs inside withResponseFacts. */
export function thisResponse(): ResponseFacts | undefined {
  return store.getStore();
}
