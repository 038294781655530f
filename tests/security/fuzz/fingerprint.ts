// "A refused request changes nothing", checked on the server's own SQLite connection (the fuzz server runs in this
// process: the harness, or bench/fuzz.ts, imports the same store/db module, so db() is the connection every request
// writes through).
//
// Why this design:
//  - total_changes() counts every row this connection inserted, updated or deleted, so an unchanged count proves an
//    unchanged database at no cost. But it also counts rows a transaction wrote and then rolled back, which leave the
//    database as it was: a moved count alone would be a false alarm. So when the count moved we compare a hash of
//    every table's rows (order-independent, BLOBs by digest) taken before the request with one taken after.
//  - The "before" hash is cached by total_changes(): it is recomputed only after something really wrote, which keeps
//    the suite fast (the demo world is a few thousand rows; a hash costs a few milliseconds).
//  - Not read through the API or its read cache (store/read-cache.ts): the cache only mirrors rows, and reading
//    through it could hide a write it has not yet seen. Raw SELECTs on the connection see the committed state.
//  - The WAL checkpointer's worker connection only copies pages from the log into the file: no row changes, and it
//    does not move this connection's total_changes(). No other connection writes during the fuzz.
//  - Update Target Users writes from a background job after its 204: a job still running when the next request starts
//    would look like a write by that request, so settle() waits for jobs before every request.
import crypto from "node:crypto";
import type Database from "better-sqlite3";

export interface Fingerprint {
  changes: bigint;
  hash: string;
}

const JOB_WAIT_MS = 5_000;

export class DatabaseFingerprint {
  private cached: Fingerprint | null = null;

  constructor(private readonly database: Database.Database) {}

  private changes(): bigint {
    return BigInt(this.database.prepare("SELECT total_changes()").pluck().get() as bigint | number);
  }

  /** A hash over the rows of every table, independent of row order. */
  hash(): string {
    const tables = this.database
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .pluck()
      .all() as string[];
    const digest = crypto.createHash("sha256");
    for (const table of tables) {
      const rows = (
        this.database
          .prepare(`SELECT * FROM "${table.replaceAll('"', '""')}"`)
          .raw()
          .all() as unknown[][]
      )
        .map((row) => JSON.stringify(row, encodeCell))
        .sort();
      digest.update(`${table}\u0000${rows.length}\u0000${rows.join("\n")}\u0000`);
    }
    return digest.digest("hex");
  }

  /** Waits until no target-users job is still writing. */
  async settle(): Promise<void> {
    const running = this.database.prepare("SELECT 1 FROM invite_target_users_jobs WHERE status = 1 LIMIT 1").pluck();
    const deadline = Date.now() + JOB_WAIT_MS;
    while (running.get() !== undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  }

  /** The state right now (taken just before a request). */
  before(): Fingerprint {
    const changes = this.changes();
    if (this.cached?.changes !== changes) this.cached = { changes, hash: this.hash() };
    return this.cached;
  }

  /** Whether the database is as it was at `before` (checked after a refused request). */
  unchangedSince(before: Fingerprint): boolean {
    const changes = this.changes();
    if (changes === before.changes) return true;
    const hash = this.hash();
    this.cached = { changes, hash };
    return hash === before.hash;
  }
}

function encodeCell(_key: string, value: unknown): unknown {
  if (typeof value === "bigint") return `${value}n`;
  if (value && typeof value === "object" && (value as { type?: string }).type === "Buffer")
    return crypto
      .createHash("sha1")
      .update(Buffer.from((value as { data: number[] }).data))
      .digest("hex");
  return value;
}
