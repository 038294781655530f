// The gateway's tunables, Discord's values by default. Tests and benchmarks loosen the identify limits (they identify
// far more often than a bot would); the environment can too (GATEWAY_MAX_CONCURRENCY, GATEWAY_SESSION_START_LIMIT,
// GATEWAY_IDENTIFY_INTERVAL_MS, GATEWAY_HEARTBEAT_INTERVAL_MS, GATEWAY_IDENTIFY_TIMEOUT_MS, GATEWAY_MAX_UNIDENTIFIED,
// GATEWAY_MAX_UNIDENTIFIED_PER_ADDRESS).

export interface GatewayOptions {
  /** HELLO's heartbeat_interval (Discord: 41,250 ms). */
  heartbeatIntervalMs: number;
  /**
   * A connection that sends no heartbeat for heartbeatIntervalMs × this is a zombie and is closed with 4009. Clients
   * beat at a random offset within the first interval, then every interval.
   */
  heartbeatTimeoutFactor: number;
  /** Identify buckets (shard_id % max_concurrency), each allowing one IDENTIFY per identifyIntervalMs. */
  maxConcurrency: number;
  identifyIntervalMs: number;
  /** Sessions an application (or a user, for Bearer tokens) may start per day (Discord: 1,000). */
  sessionStartLimit: number;
  sessionStartResetMs: number;
  /** How long a dropped session stays resumable. */
  resumeWindowMs: number;
  /** Dispatches a session keeps for replay on RESUME, the newest; older sequences need a new session. */
  replayLimit: number;
  /** How often the outbox is checked for commits by other connections (this one's commits wake it at once). */
  pollIntervalMs: number;
  /** How often heartbeat deadlines, identify deadlines and resume windows are checked. */
  sweepIntervalMs: number;
  /**
   * A connection that has not identified (or resumed) this long after it opened is closed with 4009. By default the
   * zombie deadline (heartbeatIntervalMs × heartbeatTimeoutFactor, 61.9 s): @discordjs/ws opens every shard's socket
   * at once and each waits there, heartbeating, for its identify turn (one per identifyIntervalMs per bucket).
   */
  identifyTimeoutMs: number;
  /**
   * Sockets not identified yet, in all and per client address (an IPv6 /64 counts as one). Past an address's cap its
   * upgrades are refused with 429 before any WebSocket state exists; past the total the oldest unidentified socket is
   * closed (4009) to make room. See UnidentifiedSockets in limits.ts.
   */
  maxUnidentified: number;
  maxUnidentifiedPerAddress: number;
  /**
   * How long a drain of the outbox delivers before it sends what it has written and lets the event loop serve
   * requests (8 ms; 0 yields before every event, which tests use to check the order holds across yields).
   */
  drainSliceMs: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

const fromEnv = (name: string): number | undefined => {
  const value = process.env[name];
  if (value === undefined || value === "") return undefined;
  const parsed = Number(value);
  return Number.isFinite(parsed) && parsed >= 0 ? parsed : undefined;
};

export function gatewayOptions(overrides: Partial<GatewayOptions> = {}): GatewayOptions {
  const heartbeatIntervalMs = overrides.heartbeatIntervalMs ?? fromEnv("GATEWAY_HEARTBEAT_INTERVAL_MS") ?? 41_250;
  const heartbeatTimeoutFactor = overrides.heartbeatTimeoutFactor ?? 1.5;
  return {
    heartbeatIntervalMs,
    heartbeatTimeoutFactor,
    maxConcurrency: Math.max(1, fromEnv("GATEWAY_MAX_CONCURRENCY") ?? 1),
    identifyIntervalMs: fromEnv("GATEWAY_IDENTIFY_INTERVAL_MS") ?? 5_000,
    sessionStartLimit: fromEnv("GATEWAY_SESSION_START_LIMIT") ?? 1_000,
    sessionStartResetMs: DAY_MS,
    resumeWindowMs: 3 * 60_000,
    replayLimit: 5_000,
    pollIntervalMs: 250,
    sweepIntervalMs: 5_000,
    identifyTimeoutMs: fromEnv("GATEWAY_IDENTIFY_TIMEOUT_MS") ?? heartbeatIntervalMs * heartbeatTimeoutFactor,
    maxUnidentified: fromEnv("GATEWAY_MAX_UNIDENTIFIED") ?? 10_000,
    maxUnidentifiedPerAddress: fromEnv("GATEWAY_MAX_UNIDENTIFIED_PER_ADDRESS") ?? 100,
    drainSliceMs: 8,
    ...overrides,
  };
}
