// The provider's public origin, for the URLs its pages show or hand out (redirect URIs, a widget's instant invite):
// PUBLIC_URL when set, else the origin the browser reached (behind a proxy, its forwarded host and scheme).
import { headers } from "next/headers";

export async function publicOrigin(): Promise<string> {
  if (process.env.PUBLIC_URL) return process.env.PUBLIC_URL.replace(/\/$/, "");
  const h = await headers();
  const host = h.get("x-forwarded-host") ?? h.get("host") ?? "localhost:3000";
  const proto =
    h.get("x-forwarded-proto") ?? (host.startsWith("localhost") || host.startsWith("127.") ? "http" : "https");
  return `${proto}://${host}`;
}
