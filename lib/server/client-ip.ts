// The address a request came from. Pages and server actions read it from CLIENT_IP_HEADER, which the one-port
// server sets on every request it hands to Next (replacing anything the client sent), so a caller cannot choose it
// the way it can choose X-Forwarded-For. Behind a reverse proxy every socket is the proxy's: TRUST_PROXY=1 takes
// the last X-Forwarded-For entry instead, the one the proxy itself appended.
import type { IncomingMessage } from "node:http";

export const CLIENT_IP_HEADER = "x-guildhall-client-ip";

/** The client's address as this server can vouch for it. */
export function clientAddress(req: IncomingMessage): string {
  if (process.env.TRUST_PROXY === "1") {
    const forwarded = req.headers["x-forwarded-for"];
    const last = (Array.isArray(forwarded) ? forwarded.join(",") : (forwarded ?? "")).split(",").pop()?.trim();
    if (last) return last;
  }
  return req.socket.remoteAddress ?? "";
}

/** The address the server recorded for this request (pages and server actions). */
export function clientIpFrom(headers: { get(name: string): string | null }): string | null {
  return headers.get(CLIENT_IP_HEADER) || null;
}
