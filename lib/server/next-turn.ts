// Long work shares this process's one thread with every request: between its steps it waits a turn of the event loop,
// so the I/O that arrived meanwhile (an API request, a page) is handled first.

/** Resolves on the next turn of the event loop, after the I/O that arrived meanwhile. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
