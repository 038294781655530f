// Snowflakes: Discord's 64-bit ids (epoch 2015-01-01T00:00:00Z), generated with @sapphire/snowflake.
import { DiscordSnowflake } from "@sapphire/snowflake";

export const SNOWFLAKE_PATTERN = /^(0|[1-9][0-9]{0,19})$/;
/** Ids are stored as signed 64-bit integers, so 2^63 - 1 is the largest one the database can hold. */
export const MAX_SNOWFLAKE = (1n << 63n) - 1n;

const DISCORD_EPOCH_MS = 1_420_070_400_000n;
const MAX_INCREMENT = 4095n;

/**
 * The 10 bits between a snowflake's time and its increment (Discord's worker and process ids) that tell this
 * process's ids from another's: GUILDHALL_INSTANCE_ID (0–1023) when set, as it should be for each of several
 * instances on one database; otherwise drawn at random once per process, so two processes (two instances, or the
 * server and `npm run token`) that make ids in the same millisecond collide only if they also draw the same bits.
 */
function instanceBits(): bigint {
  const configured = typeof process === "undefined" ? undefined : process.env.GUILDHALL_INSTANCE_ID;
  if (configured === undefined || configured === "") return BigInt(Math.floor(Math.random() * 1024));
  const id = Number(configured);
  if (!Number.isInteger(id) || id < 0 || id > 1023) {
    throw new Error(`GUILDHALL_INSTANCE_ID must be an integer from 0 to 1023, not "${configured}"`);
  }
  return BigInt(id);
}

let instance: bigint | undefined;
let lastMs = 0n;
let increment = 0n;

/**
 * A new id, larger than every id this process made before. Within one millisecond the 12-bit increment counts up;
 * past 4,095 ids (or when the clock steps back) the time borrows the next millisecond rather than wrapping the
 * increment into ids already given out.
 */
export function newSnowflake(now: number = Date.now()): bigint {
  instance ??= instanceBits();
  const ms = BigInt(now);
  if (ms > lastMs) {
    lastMs = ms;
    increment = 0n;
  } else if (increment < MAX_INCREMENT) {
    increment++;
  } else {
    lastMs++;
    increment = 0n;
  }
  return ((lastMs - DISCORD_EPOCH_MS) << 22n) | (instance << 12n) | increment;
}

/** A snowflake string in range (0 included: paths and cursors may name it and simply find nothing). */
export function isSnowflake(value: unknown): value is string {
  return typeof value === "string" && toSnowflakeString(value, true) !== null;
}

/**
 * A snowflake as clients send it, a decimal string or a JSON integer (a number while exact, a bigint beyond 2^53),
 * in its canonical decimal form; null when it is not one or is out of range (above 2^63 - 1, or 0 unless
 * `allowZero`: cursors such as `after=0` start before every id).
 */
export function toSnowflakeString(value: unknown, allowZero = false): string | null {
  let text: string;
  if (typeof value === "string") {
    if (!SNOWFLAKE_PATTERN.test(value)) return null;
    text = value;
  } else if (typeof value === "bigint") {
    text = value.toString();
  } else if (typeof value === "number" && Number.isSafeInteger(value)) {
    text = String(value);
  } else {
    return null;
  }
  const id = BigInt(text);
  if (id < 0n || id > MAX_SNOWFLAKE || (id === 0n && !allowZero)) return null;
  return text;
}

/** The creation time encoded in a snowflake, in ms since the Unix epoch. */
export function snowflakeTimestamp(id: bigint | string): number {
  return Number(DiscordSnowflake.timestampFrom(BigInt(id)));
}

/** The smallest snowflake that could have been created at `ms` (for time-bounded id ranges). */
export function snowflakeAt(ms: number): bigint {
  return DiscordSnowflake.generate({ timestamp: BigInt(ms), increment: 0n, processId: 0n, workerId: 0n });
}

/** Discord's first ids (its staff's, before the May 2015 launch) date from early 2015; none is older than this. */
export const EARLIEST_REAL_ID_MS = Date.UTC(2015, 1, 1);

/**
 * An id that can name something real: a snowflake created between Discord's first ids and now (with a day of slack
 * for clock skew). A number such as `12345` is a valid integer but encodes 2015-01-01 + 0 ms, so it names nobody.
 */
export function isRealSnowflake(value: unknown, now = Date.now()): value is string {
  if (!isSnowflake(value) || value === "0") return false;
  const created = snowflakeTimestamp(value);
  return created >= EARLIEST_REAL_ID_MS && created <= now + 86_400_000;
}

/** The positions at which an id of the list repeats one before it (none: every id is there once). */
export function repeatedIdPositions(ids: readonly string[]): number[] {
  const seen = new Set<string>();
  const repeated: number[] = [];
  ids.forEach((id, index) => {
    if (seen.has(id)) repeated.push(index);
    seen.add(id);
  });
  return repeated;
}
