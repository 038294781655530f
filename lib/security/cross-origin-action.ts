// Server actions are POSTs to a page with a `Next-Action` header. Next refuses one whose Origin is not this site,
// but by throwing, which answers 500; the proxy refuses it first with a 403, the status that says what happened.
// Same rule as Next's: the Origin's host must be the request's own host (or the public URL's); a missing Origin
// (old browsers, non-browser clients) is left to Next, which only logs it.

/** The hosts ("name:port") a server action may come from for this request. */
export function actionHosts(headers: { get(name: string): string | null }, publicUrl: string | undefined): string[] {
  const hosts = [headers.get("x-forwarded-host"), headers.get("host")]
    .flatMap((value) => (value ? value.split(",").map((host) => host.trim()) : []))
    .filter(Boolean);
  if (publicUrl) {
    try {
      hosts.push(new URL(publicUrl).host);
    } catch {
      // An unparseable PUBLIC_URL adds nothing.
    }
  }
  return hosts.map((host) => host.toLowerCase());
}

/** True when the request is a server action sent from another site. */
export function isCrossOriginAction(
  method: string,
  headers: { get(name: string): string | null },
  publicUrl: string | undefined,
): boolean {
  if (method !== "POST" || !headers.get("next-action")) return false;
  const origin = headers.get("origin");
  if (origin === null) return false;
  let host: string;
  try {
    host = new URL(origin).host.toLowerCase();
  } catch {
    return true; // "null" (sandboxed frames, file:) and garbage are no site of ours
  }
  return !host || !actionHosts(headers, publicUrl).includes(host);
}
