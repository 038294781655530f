// Work on many sockets at once, a batch per turn of the event loop. Thousands of sockets reach a deadline together
// (the identify deadline, the close handshake's): closing or destroying them costs tens of microseconds each (a
// syscall apiece), so done in one go they stall every request that arrives meanwhile (measured: 10,000 overdue
// close handshakes destroyed by their timers in one timers phase held the loop 226 ms). Handshakes come in floods
// too: each costs about 100 microseconds (ws's upgrade, the 101 and HELLO written), and a poll phase that completed
// every upgrade it read kept the API's requests waiting 10 ms and more. Between two batches the loop polls, so
// requests get in.

export { nextTurn } from "@/lib/server/next-turn";

/** Items per turn: 64 socket closes take one to two milliseconds. */
export const TURN_BATCH = 64;

/** A queue whose items are handed to `each`, `batch` per turn of the event loop, in the order they came. */
export class TurnQueue<T> {
  private readonly items: T[] = [];
  private head = 0;
  private scheduled = false;

  constructor(
    private readonly each: (item: T) => void,
    private readonly batch = TURN_BATCH,
  ) {}

  push(item: T): void {
    this.items.push(item);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.drain());
    }
  }

  get pending(): number {
    return this.items.length - this.head;
  }

  private drain(): void {
    const end = Math.min(this.items.length, this.head + this.batch);
    while (this.head < end) this.each(this.items[this.head++]);
    if (this.head < this.items.length) {
      setImmediate(() => this.drain());
      return;
    }
    this.items.length = 0;
    this.head = 0;
    this.scheduled = false;
  }
}
