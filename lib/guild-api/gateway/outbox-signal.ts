// The in-process wake-up: emitEvent() rings it for every outbox row it writes, and the hub drains the outbox once the
// writing transaction has ended (commits from other connections are found by polling instead). A module of its own
// so events.ts depends on nothing of the gateway's.
type Listener = () => void;

const listeners = new Set<Listener>();

/** Called by the outbox writer, inside the writing transaction. */
export function outboxWritten(): void {
  for (const listener of listeners) listener();
}

export function onOutboxWrite(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
