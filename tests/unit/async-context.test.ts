// The async-context stores every store of the process shares (Next's through globalThis.AsyncLocalStorage, the
// response facts, the store's transaction owner): they must behave as node's AsyncLocalStorage, and entering any
// number of them must cost the process what entering one does (issue #31).
import { AsyncLocalStorage } from "node:async_hooks";
import { afterEach, describe, expect, test } from "vitest";
import { createRequire } from "node:module";
import { ContextStorage, installContextStorage } from "@/lib/server/async-context";

/** What the scenario uses of a storage class, which node's AsyncLocalStorage and ContextStorage both have. */
interface Storage<T> {
  getStore(): T | undefined;
  run<R>(store: T, callback: () => R): R;
  exit<R>(callback: () => R): R;
  enterWith(store: T): void;
}
interface StorageClass {
  new <T>(): Storage<T>;
  bind<F extends () => void>(fn: F): F;
  snapshot(): <R>(fn: () => R) => R;
}
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
/** On Node 20 each node AsyncLocalStorage entered adds a symbol property to every promise created after it. */
const symbolsOfNewPromise = () => Object.getOwnPropertySymbols(Promise.resolve()).length;

/**
 * What two storages of `Storage` read across run, exit, enterWith, awaits, timers, ticks, bind and snapshot, in the
 * order of the labels (a timer's turn depends on the clock).
 */
async function scenario(Storage: StorageClass): Promise<string[]> {
  const a = new Storage<string>();
  const b = new Storage<string>();
  const seen: string[] = [];
  const read = (where: string) => seen.push(`${where}: a=${a.getStore()} b=${b.getStore()}`);
  read("outside");
  let bound: (() => void) | undefined;
  let snapshot: (<R>(fn: () => R) => R) | undefined;
  const later: Array<Promise<void>> = [];
  await a.run("a1", async () => {
    read("run a");
    await tick();
    read("run a, after an await");
    await b.run("b1", async () => {
      read("run b inside a");
      later.push(new Promise((resolve) => setTimeout(() => (read("timer started in b"), resolve()), 1)));
      later.push(new Promise((resolve) => process.nextTick(() => (read("tick started in b"), resolve()))));
      bound = Storage.bind(() => read("bound in b"));
      snapshot = Storage.snapshot();
      await a.run("a2", async () => {
        await tick();
        read("run a again inside b");
      });
      read("back in b");
      expect(a.run("a1", () => "same store: ran")).toBe("same store: ran");
      await a.exit(async () => {
        read("a exited");
        await tick();
        read("a exited, after an await");
      });
      read("after exit");
    });
    read("after b");
  });
  read("after a");
  await Promise.all(later);
  bound!();
  snapshot!(() => read("snapshot of b"));
  await new Promise<void>((resolve) =>
    setImmediate(() => {
      a.enterWith("entered");
      read("entered");
      setImmediate(() => (read("started after enterWith"), resolve()));
    }),
  );
  read("outside again");
  return seen.sort();
}

describe("ContextStorage", () => {
  test("reads what node's AsyncLocalStorage reads, in every way Next and Guildhall enter and leave a store", async () => {
    const expected = await scenario(AsyncLocalStorage);
    expect(expected).toContain("a exited, after an await: a=undefined b=b1");
    expect(await scenario(ContextStorage)).toEqual(expected);
  });

  test("a store disabled reads as absent until it is entered again", async () => {
    const storage = new ContextStorage<number>();
    await storage.run(1, async () => {
      storage.disable();
      expect(storage.getStore()).toBeUndefined();
      await storage.run(2, async () => {
        await tick();
        expect(storage.getStore()).toBe(2);
      });
    });
  });

  test("every store entered rides in one frame: a promise carries as much with ten stores as with one", async () => {
    // On Node 20, each node AsyncLocalStorage entered adds a property to every promise created anywhere after; here
    // the count of a new promise's own symbols must not grow with the number of stores.
    const first = new ContextStorage<number>();
    const withOne = await first.run(1, async () => {
      await tick();
      return symbolsOfNewPromise();
    });
    const more = Array.from({ length: 9 }, () => new ContextStorage<number>());
    const enterAll = (index: number, inner: () => Promise<number>): Promise<number> =>
      index === more.length ? inner() : more[index].run(index, () => enterAll(index + 1, inner));
    const withTen = await first.run(1, () =>
      enterAll(0, async () => {
        await tick();
        expect(more.map((storage) => storage.getStore())).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
        return symbolsOfNewPromise();
      }),
    );
    expect(withTen).toBe(withOne);
    expect(symbolsOfNewPromise()).toBe(withOne);
  });
});

describe("installContextStorage", () => {
  // Node's class, kept: while installed, the module's export (and so this file's import of it) reads ContextStorage.
  const NodeAsyncLocalStorage = AsyncLocalStorage;
  const global = globalThis as { AsyncLocalStorage?: unknown };
  const before = global.AsyncLocalStorage;
  afterEach(() => {
    global.AsyncLocalStorage = before;
  });

  test("gives Next ContextStorage when nothing provides an AsyncLocalStorage yet, and keeps one already there", () => {
    delete global.AsyncLocalStorage;
    installContextStorage()();
    global.AsyncLocalStorage = NodeAsyncLocalStorage;
    const restore = installContextStorage();
    expect(global.AsyncLocalStorage).toBe(NodeAsyncLocalStorage);
    restore();
    delete global.AsyncLocalStorage;
    const restoreAgain = installContextStorage();
    expect(global.AsyncLocalStorage).toBe(ContextStorage);
    restoreAgain();
    expect(global.AsyncLocalStorage).toBeUndefined();
  });

  test("React's stores, built from require('async_hooks') as its server bundles do, ride in the same frame", async () => {
    const ours = new ContextStorage<number>();
    const withOurs = await ours.run(1, async () => {
      await tick();
      return symbolsOfNewPromise();
    });
    const restore = installContextStorage();
    try {
      // What React's bundles do when they load: `var o = require("async_hooks"); new o.AsyncLocalStorage()`.
      const Storage = (createRequire(import.meta.url)("async_hooks") as { AsyncLocalStorage: StorageClass })
        .AsyncLocalStorage;
      expect(Storage).toBe(ContextStorage);
      const reacts = [new Storage<string>(), new Storage<string>()];
      const withReacts = await reacts[0].run("request", () =>
        reacts[1].run("render", async () => {
          await tick();
          expect([reacts[0].getStore(), reacts[1].getStore()]).toEqual(["request", "render"]);
          return symbolsOfNewPromise();
        }),
      );
      expect(withReacts).toBe(withOurs);
    } finally {
      restore();
    }
    expect((createRequire(import.meta.url)("async_hooks") as { AsyncLocalStorage: unknown }).AsyncLocalStorage).toBe(
      NodeAsyncLocalStorage,
    );
  });
});
