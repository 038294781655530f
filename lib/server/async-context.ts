// One AsyncLocalStorage for every async-context store of the process: Next's and React's own (installed before Next
// loads, installContextStorage), the response facts (first-write.ts) and the store's transaction owner
// (serialized-driver.ts). Each store is a key of a frame, an immutable Map carried by a single node AsyncLocalStorage.
//
// Why: on Node 20 an AsyncLocalStorage is built on async_hooks, and every instance that has ever been entered
// (run/enterWith) stays in the list that async_hooks' init hook walks for every promise, tick and timer created anywhere
// in the process, for the rest of its life: each writes its store (usually undefined) onto the new resource, a
// property add on every promise. Next enters three on the first page and route handler, React two, Guildhall two:
// after one moderator opened one dashboard page, every guild API request (~45 promises, ticks and timers for Get Guild)
// paid seven copies on each, and Get Guild fell from ~19,000 to ~10,000 req/s in that process (issue #31). Keys of one
// frame cost one copy per resource, whatever their number, and entering one copies a frame of a few entries once.
// Node 24's AsyncContextFrame does the same natively; there this is only a Map lookup more per getStore().
// eslint-disable-next-line no-restricted-syntax -- the one node AsyncLocalStorage the others ride on
import nodeAsyncHooks, { AsyncLocalStorage } from "node:async_hooks";
import { syncBuiltinESMExports } from "node:module";

type Frame = ReadonlyMap<ContextStorage<unknown>, unknown>;

// Kept on globalThis: this module is loaded by the server and again inside Next's bundles (first-write.ts is read by
// pages), and every copy must carry its stores in the same frame. The first copy also keeps node's class: once
// installContextStorage has run, `AsyncLocalStorage` from node:async_hooks is ContextStorage for copies loaded later.
const SHARED_KEY = Symbol.for("guildhall.asyncContext");
const shared: { frames: AsyncLocalStorage<Frame>; NodeAsyncLocalStorage: typeof AsyncLocalStorage } = ((
  globalThis as { [SHARED_KEY]?: typeof shared }
)[SHARED_KEY] ??= { frames: new AsyncLocalStorage<Frame>(), NodeAsyncLocalStorage: AsyncLocalStorage });
const { frames, NodeAsyncLocalStorage } = shared;
const EMPTY: Frame = new Map();

/** AsyncLocalStorage's interface and behaviour (run, exit, enterWith, getStore, bind, snapshot), on the shared frame. */
export class ContextStorage<T> {
  /** Cleared by disable(): the store reads as absent everywhere until the next run() or enterWith(), as node's does. */
  private enabled = true;

  /** The store of the current async context, or undefined outside run(). */
  getStore(): T | undefined {
    if (!this.enabled) return undefined;
    return (frames.getStore() ?? EMPTY).get(this as ContextStorage<unknown>) as T | undefined;
  }

  /** Runs `callback` with `store` as this storage's store, for it and every async operation it starts. */
  run<R, A extends unknown[]>(store: T, callback: (...args: A) => R, ...args: A): R {
    // As node's: already the store here, nothing to enter.
    if (Object.is(store, this.getStore())) return callback(...args);
    this.enabled = true;
    return frames.run(this.framed(store), callback, ...args);
  }

  /** Runs `callback` outside this storage's context (its store reads undefined there and in what it starts). */
  exit<R, A extends unknown[]>(callback: (...args: A) => R, ...args: A): R {
    const frame = frames.getStore();
    if (frame === undefined || !frame.has(this as ContextStorage<unknown>)) return callback(...args);
    const without = new Map(frame);
    without.delete(this as ContextStorage<unknown>);
    return frames.run(without, callback, ...args);
  }

  /** Makes `store` this storage's store for the rest of the current synchronous execution and what it starts. */
  enterWith(store: T): void {
    this.enabled = true;
    frames.enterWith(this.framed(store));
  }

  disable(): void {
    this.enabled = false;
  }

  /** `fn` bound to the current async context, every store included (node's, on the shared frame). */
  static bind<F extends (...args: never[]) => unknown>(fn: F): F {
    return NodeAsyncLocalStorage.bind(fn);
  }

  /** A function that runs its argument in the current async context, every store included. */
  static snapshot(): <R, A extends unknown[]>(fn: (...args: A) => R, ...args: A) => R {
    return NodeAsyncLocalStorage.snapshot();
  }

  private framed(store: T): Frame {
    const frame = new Map(frames.getStore() ?? EMPTY);
    frame.set(this as ContextStorage<unknown>, store);
    return frame;
  }
}

/**
 * Makes ContextStorage the AsyncLocalStorage Next and React create their stores with. Call before importing next.
 * Next reads globalThis.AsyncLocalStorage when its modules load (and sets node's only when none is there); React's
 * server renderers construct `require("async_hooks").AsyncLocalStorage` when their bundles load, so node's export is
 * replaced too (ContextStorage itself rides on node's class, kept above). Answers a function that puts both back.
 */
export function installContextStorage(): () => void {
  const global = globalThis as { AsyncLocalStorage?: unknown };
  const hooks = nodeAsyncHooks as { AsyncLocalStorage: unknown };
  const before = { global: global.AsyncLocalStorage, hooks: hooks.AsyncLocalStorage };
  if (global.AsyncLocalStorage === undefined) global.AsyncLocalStorage = ContextStorage;
  if (hooks.AsyncLocalStorage === NodeAsyncLocalStorage) {
    hooks.AsyncLocalStorage = ContextStorage;
    syncBuiltinESMExports();
  }
  return () => {
    global.AsyncLocalStorage = before.global;
    hooks.AsyncLocalStorage = before.hooks;
    syncBuiltinESMExports();
  };
}
