// Snowflakes: Discord's 64-bit ids (epoch 2015-01-01T00:00:00Z), generated with @sapphire/snowflake.
import { DiscordSnowflake } from "@sapphire/snowflake";

export const SNOWFLAKE_PATTERN = /^(0|[1-9][0-9]{0,19})$/;
const MAX_SNOWFLAKE = (1n << 63n) - 1n;

export function newSnowflake(): bigint {
  return DiscordSnowflake.generate();
}

export function isSnowflake(value: unknown): value is string {
  return typeof value === "string" && SNOWFLAKE_PATTERN.test(value) && BigInt(value) <= MAX_SNOWFLAKE;
}

/** The creation time encoded in a snowflake, in ms since the Unix epoch. */
export function snowflakeTimestamp(id: bigint | string): number {
  return Number(DiscordSnowflake.timestampFrom(BigInt(id)));
}

/** The smallest snowflake that could have been created at `ms` (for time-bounded id ranges). */
export function snowflakeAt(ms: number): bigint {
  return DiscordSnowflake.generate({ timestamp: BigInt(ms), increment: 0n, processId: 0n, workerId: 0n });
}
