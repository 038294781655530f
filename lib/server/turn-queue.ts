// Work that comes in floods (socket closes, handshakes, the dashboard's SQLite statements) done a batch per turn of the
// event loop: between two batches the loop polls, so the requests that arrived meanwhile get in.

/** Items handed over before the queue drops them from its front. */
const COMPACT_AFTER = 1_024;

/** A queue whose items are handed to `each`, `batch` per turn of the event loop, in the order they came. */
export class TurnQueue<T> {
  private readonly items: T[] = [];
  private head = 0;
  private scheduled = false;

  constructor(
    private readonly each: (item: T) => void,
    private readonly batch: number,
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
    // Under steady load the queue may not empty for a while: items handed over are let go of as it goes.
    if (this.head >= COMPACT_AFTER) {
      this.items.splice(0, this.head);
      this.head = 0;
    }
    if (this.head < this.items.length) {
      // Scheduled from this check phase, it runs in the loop's next turn, after its poll.
      setImmediate(() => this.drain());
      return;
    }
    this.items.length = 0;
    this.head = 0;
    this.scheduled = false;
  }
}
