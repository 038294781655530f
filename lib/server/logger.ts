// The process's log: pino, one JSON object per line in production (for a log shipper), readable lines in development.
// LOG_LEVEL picks the least severe level written (default info); LOG_FORMAT=json|pretty overrides the format. Every
// component logs through a child (`logger.child({ component: "api" })`), and every line written while a request's id is
// current carries it as `request_id` (request-id.ts). Credentials never reach a line: the fields that could hold one are
// redacted wherever they appear in what is logged. Kept on globalThis: the server loads this module outside Next's
// bundles and the dashboard's code inside them, and both write through one logger.
import pino, { type DestinationStream, type Logger } from "pino";
import { currentRequestId } from "./request-id";

export type { Logger };

const LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** Field names whose value is a credential, wherever they sit in a logged object (two levels deep). */
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
const REDACTED_PATHS = SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`]);

export interface LogTap {
  (line: Record<string, unknown>): void;
}

/** Where lines go: stdout, and the taps tests listen with. */
class LogSink implements DestinationStream {
  readonly taps = new Set<LogTap>();
  constructor(private readonly format: "json" | "pretty") {}

  write(line: string): void {
    if (this.taps.size > 0) {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      for (const tap of this.taps) tap(parsed);
    }
    process.stdout.write(this.format === "json" ? line : prettyLine(line));
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
}

const SHARED_KEY = Symbol.for("guildhall.logger");

function createLog(): SharedLog {
  const sink = new LogSink(formatFromEnvironment());
  const logger = pino(
    {
      level: levelFromEnvironment(),
      base: { pid: process.pid },
      redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
      // The current request's id on every line written for it; none outside a request.
      mixin: () => {
        const requestId = currentRequestId();
        return requestId === undefined ? {} : { request_id: requestId };
      },
    },
    sink,
  );
  const wanted = process.env.LOG_LEVEL;
  if (wanted !== undefined && wanted.toLowerCase() !== logger.level)
    logger.warn({ LOG_LEVEL: wanted }, `LOG_LEVEL is none of ${LEVELS.join(", ")}: logging at info`);
  return { logger, sink, components: new Map() };
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

/** Calls `tap` with every line written from now on, parsed, until the returned function is called (tests). */
export function tapLogs(tap: LogTap): () => void {
  shared.sink.taps.add(tap);
  return () => shared.sink.taps.delete(tap);
}
