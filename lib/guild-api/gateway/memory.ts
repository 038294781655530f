// Giving back the memory of many closed sockets. A gateway socket's JavaScript objects (net.Socket, ws's WebSocket,
// its receiver and sender, the connection: about 5 KB) live in V8's old generation, and after they close they are
// garbage that only a full collection frees; a flood of refused upgrades leaves its requests' garbage too, and so do
// sessions forgotten at the end of their resume window (their replay buffers). A busy server runs one soon; an idle
// one may not for many minutes
// (measured: 10,000 unidentified sockets closed, the server's RSS stayed 45 MB above idle for a minute, and came back
// to idle at once after one full collection). So once a burst of closes is over, one full collection is asked for,
// through the inspector protocol (HeapProfiler.collectGarbage: the supported way without --expose-gc; an in-process
// session opens no port). It pauses the event loop once (about 40 to 100 ms for such a heap), so only after a burst
// worth it, after a quiet spell, and at most once a minute.
import inspector from "node:inspector";

export interface BurstCollectionOptions {
  /** Closed sockets that make a burst worth a full collection (1,000 sockets: about 5 MB of garbage). */
  minClosed: number;
  /** How long without a close before the burst counts as over. */
  quietMs: number;
  /** The least time between two collections. */
  minIntervalMs: number;
}

const DEFAULTS: BurstCollectionOptions = { minClosed: 1_000, quietMs: 5_000, minIntervalMs: 60_000 };

/** Counts closed sockets and asks V8 for one full collection after a burst of them (see the top of the file). */
export class CollectionAfterBurst {
  private closed = 0;
  private lastCollectionAt = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly options: BurstCollectionOptions;

  constructor(
    options: Partial<BurstCollectionOptions> = {},
    private readonly collect: () => void = collectGarbage,
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  /** `count` sockets closed (or sessions forgotten): the quiet spell starts again. */
  released(count = 1): void {
    if (count === 0) return;
    this.closed += count;
    if (this.timer) this.timer.refresh();
    else this.timer = setTimeout(() => this.quiet(), this.options.quietMs).unref();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private quiet(): void {
    this.timer = null;
    const now = Date.now();
    if (this.closed < this.options.minClosed) return;
    if (now - this.lastCollectionAt < this.options.minIntervalMs) {
      // Too soon after the last one: look again once the interval has passed.
      this.timer = setTimeout(() => this.quiet(), this.options.minIntervalMs - (now - this.lastCollectionAt)).unref();
      return;
    }
    this.closed = 0;
    this.lastCollectionAt = now;
    this.collect();
  }
}

/** One full collection of this isolate, returning freed pages to the system. */
function collectGarbage(): void {
  const session = new inspector.Session();
  try {
    session.connect();
    session.post("HeapProfiler.collectGarbage", () => setImmediate(() => session.disconnect()));
  } catch {
    // No inspector in this build of Node: the next collection V8 runs by itself frees the memory.
    session.disconnect();
  }
}
