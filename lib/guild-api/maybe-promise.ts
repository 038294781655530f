// Values that are usually there at once (a read-cache hit) and sometimes need a wait (a miss, a store on another
// connection's transaction). The guild API's hot path answers them without a promise when it can: on Node 20 every
// promise, and every await, costs the async_hooks propagation of the process's async-context store once a page has
// been rendered (lib/server/async-context.ts), and Get Guild made 21 of them.

export type MaybePromise<T> = T | Promise<T>;

/** `next(value)` now when `value` is there, after it settles otherwise; a throw in `next` is thrown (or rejects). */
export function chain<T, R>(value: MaybePromise<T>, next: (value: T) => MaybePromise<R>): MaybePromise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
