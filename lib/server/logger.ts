// The process's log: pino, one JSON object per line in production (for a log shipper), readable lines in development.
// LOG_LEVEL picks the least severe level written (default info); LOG_FORMAT=json|pretty overrides the format. Every
// component logs through its own child (componentLogger("api")), and every line written while a request's id is
// current carries it as `request_id` (request-id.ts). Credentials never reach a line: the fields that could hold one are
// redacted where a line carries them (REDACTED_PATHS), and nothing logs a query string or a body's text. Kept on
// globalThis: the server loads this module outside Next's bundles and the dashboard's code inside them, and both
// write through one logger. A worker thread (the moderation scheduler's) has a logger of its own that hands each line
// to the main thread (forwardLogs), which writes it as its own: one output, in one format, seen by the same taps.
import pino, { type DestinationStream, type Logger } from "pino";
import { currentRequestId } from "./request-id";

export type { Logger };

const LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** Field names whose value is a credential. */
const SECRET_FIELDS = [
  "authorization",
  "cookie",
  "password",
  "secret",
  "client_secret",
  "token",
  "access_token",
  "refresh_token",
  "code_verifier",
];
/**
 * Where they are written as [redacted]: at the top of what is logged, and in the objects a line can carry them in
 * (headers, a request's headers, a body, an error's own fields). Named paths, not wildcards: pino's wildcard paths
 * cost a line about 20–50 µs, explicit ones about 2 µs (measured on the API's line).
 */
const REDACTED_PATHS = ["", "headers.", "req.headers.", "body.", "err.", "err.headers.", "err.config.headers."].flatMap(
  (prefix) => SECRET_FIELDS.map((field) => `${prefix}${field}`),
);

export interface LogTap {
  (line: Record<string, unknown>): void;
}

/**
 * Where lines go: stdout, and the taps tests listen with. Written synchronously (a pipe's writes are otherwise queued
 * in the process), so the lines before an exit (the shutdown's last) are out when it exits. The format is read at the
 * first line: `npm start` sets NODE_ENV=production after its own modules have loaded this one.
 */
class LogSink implements DestinationStream {
  readonly taps = new Set<LogTap>();
  /** In a worker thread: where its lines go instead (to the main thread's sink). */
  forward: ((line: string) => void) | null = null;
  private readonly stdout = pino.destination({ dest: 1, sync: true });
  private format: "json" | "pretty" | null = null;

  write(line: string): void {
    if (this.forward) {
      this.forward(line);
      return;
    }
    if (this.taps.size > 0) {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      for (const tap of this.taps) tap(parsed);
    }
    this.format ??= formatFromEnvironment();
    this.stdout.write(this.format === "json" ? line : prettyLine(line));
  }
}

const LEVEL_NAMES: Record<number, string> = {
  10: "TRACE",
  20: "DEBUG",
  30: "INFO",
  40: "WARN",
  50: "ERROR",
  60: "FATAL",
};

/** `12:00:00.123 INFO  api: Create Guild Ban 204 request_id=… ms=3.1`, and an error's stack below its line. */
function prettyLine(json: string): string {
  const {
    time,
    level,
    msg,
    component,
    err,
    pid: _pid,
    hostname: _hostname,
    ...rest
  } = JSON.parse(json) as Record<string, unknown>;
  const clock = new Date(Number(time)).toISOString().slice(11, 23);
  const fields = Object.entries(rest)
    .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`)
    .join(" ");
  const stack = err && typeof err === "object" && "stack" in err ? `\n${String(err.stack)}` : "";
  const name = (LEVEL_NAMES[Number(level)] ?? String(level)).padEnd(5);
  return `${clock} ${name} ${component ? `${String(component)}: ` : ""}${String(msg ?? "")}${fields ? ` ${fields}` : ""}${stack}\n`;
}

function levelFromEnvironment(): (typeof LEVELS)[number] {
  const wanted = (process.env.LOG_LEVEL ?? "info").toLowerCase();
  return (LEVELS as readonly string[]).includes(wanted) ? (wanted as (typeof LEVELS)[number]) : "info";
}

function formatFromEnvironment(): "json" | "pretty" {
  const wanted = process.env.LOG_FORMAT?.toLowerCase();
  if (wanted === "json" || wanted === "pretty") return wanted;
  return process.env.NODE_ENV === "production" ? "json" : "pretty";
}

interface SharedLog {
  logger: Logger;
  sink: LogSink;
  components: Map<string, Logger>;
  /** The worker thread whose lines these are (forwardLogs), written on each; null in the main thread. */
  origin: { thread: string | null };
}

const SHARED_KEY = Symbol.for("guildhall.logger");

function createLog(): SharedLog {
  const sink = new LogSink();
  const origin: SharedLog["origin"] = { thread: null };
  const logger = pino(
    {
      level: levelFromEnvironment(),
      base: { pid: process.pid },
      redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
      // The current request's id on every line written for it; none outside a request. A worker thread's lines
      // say which thread wrote them.
      mixin: () => {
        const requestId = currentRequestId();
        const fields: { request_id?: string; thread?: string } =
          requestId === undefined ? {} : { request_id: requestId };
        if (origin.thread !== null) fields.thread = origin.thread;
        return fields;
      },
    },
    sink,
  );
  const wanted = process.env.LOG_LEVEL;
  if (wanted !== undefined && wanted.toLowerCase() !== logger.level)
    logger.warn({ LOG_LEVEL: wanted }, `LOG_LEVEL is none of ${LEVELS.join(", ")}: logging at info`);
  return { logger, sink, components: new Map(), origin };
}

const shared: SharedLog = ((globalThis as { [SHARED_KEY]?: SharedLog })[SHARED_KEY] ??= createLog());

/** The process's root logger. */
export const logger: Logger = shared.logger;

/** A component's logger (one per name): its lines say which part of Guildhall wrote them. */
export function componentLogger(component: string): Logger {
  let child = shared.components.get(component);
  if (!child) shared.components.set(component, (child = logger.child({ component })));
  return child;
}

/** Sets the level of the process's loggers (the root and every component's); answers a function that puts it back. */
export function setLogLevel(level: (typeof LEVELS)[number]): () => void {
  const before = logger.level;
  const apply = (to: string) => {
    logger.level = to;
    for (const child of shared.components.values()) child.level = to;
  };
  apply(level);
  return () => apply(before);
}

/**
 * In a worker thread: every line from now on goes to `send` (a message to the main thread, which writes it with
 * writeForwardedLog), carrying `thread: <thread>`.
 */
export function forwardLogs(thread: string, send: (line: string) => void): void {
  shared.origin.thread = thread;
  shared.sink.forward = send;
}

/** Writes a line a worker thread forwarded (forwardLogs), as this thread writes its own. */
export function writeForwardedLog(line: string): void {
  shared.sink.write(line);
}

/** Calls `tap` with every line written from now on, parsed, until the returned function is called (tests). */
export function tapLogs(tap: LogTap): () => void {
  shared.sink.taps.add(tap);
  return () => shared.sink.taps.delete(tap);
}
