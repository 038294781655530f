// The address a request came from, as the one-port server saw the socket. Pages and server actions read it from
// this header, which the server sets on every request it hands to Next (replacing anything the client sent), so it
// cannot be chosen by the caller the way X-Forwarded-For can.
export const CLIENT_IP_HEADER = "x-guildhall-client-ip";

export function clientIpFrom(headers: { get(name: string): string | null }): string | null {
  return headers.get(CLIENT_IP_HEADER) || null;
}
