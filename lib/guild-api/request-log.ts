// The guild API's log line per request (lib/server/logger.ts): what every change did, at info, so an operator can
// follow a moderator's action into the API calls it made (the same request_id); reads and 429s only at debug, since a
// busy client reads (and a flood is refused) thousands of times a second; and every 5xx at error. The path is not logged (only the operation's
// name and the guild): a path can hold a code or a token.
import { componentLogger } from "@/lib/server/logger";

const log = componentLogger("api");

export function logApiRequest(
  requestId: string,
  operation: string,
  method: string | undefined,
  status: number,
  seconds: number,
  guildId: string | undefined,
): void {
  const changes = method !== "GET" && method !== "HEAD";
  // A 429 changed nothing, and a flood is thousands of them a second: counted in /metrics, logged at debug.
  const level = status >= 500 ? "error" : changes && status !== 429 ? "info" : "debug";
  if (!log.isLevelEnabled(level)) return;
  log[level](
    { request_id: requestId, operation, method, status, ms: Math.round(seconds * 1e5) / 100, guild_id: guildId },
    `${operation} ${status}`,
  );
}
