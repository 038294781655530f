// The app's icons (app/favicon.ico, app/icon.svg, app/apple-icon.png), answered here, before Next, with a year's
// caching when asked for by the URL the pages link them with (Next's: "/icon.svg?icon.<content hash>.svg"). Next
// answers them "max-age=0, must-revalidate" with no validator, so a browser fetched the whole icon again whenever a
// live refresh re-rendered the page's head: about 1.5 a second for one open dashboard in the soak (issue #31), each a
// trip through Next on the thread that answers the API. Asked for without the hash, Next answers, as before.
import fs from "node:fs";
import type http from "node:http";
import path from "node:path";
import { NOT_FRAMABLE_HEADERS } from "@/lib/security/headers.mjs";

const ICONS = new Map([
  ["/favicon.ico", "image/x-icon"],
  ["/icon.svg", "image/svg+xml"],
  ["/apple-icon.png", "image/png"],
]);

/**
 * Each icon's bytes, read on first use from the app folder the build was made from (the image copies the three files;
 * a production server is restarted with its build, so they cannot change under it; in development Next answers).
 */
const bytes = new Map<string, Buffer | null>();

function iconBytes(iconPath: string): Buffer | null {
  if (!bytes.has(iconPath)) {
    try {
      bytes.set(iconPath, fs.readFileSync(path.join(process.cwd(), "app", iconPath)));
    } catch {
      bytes.set(iconPath, null); // not there (an image without the sources): Next answers
    }
  }
  return bytes.get(iconPath)!;
}

/** Answers a GET or HEAD of an icon by its hashed URL (`search` without "?"); false when Next should answer. */
export function serveAppIcon(req: http.IncomingMessage, res: http.ServerResponse, urlPath: string, search: string) {
  const type = ICONS.get(urlPath);
  if (!type || (req.method !== "GET" && req.method !== "HEAD")) return false;
  // Next's hashed form: the file's name, a dot, the hash, its extension ("icon.0y1zptqzwtgne.svg").
  const name = urlPath.slice(1, urlPath.lastIndexOf("."));
  if (!new RegExp(`^${name}\\.[a-z0-9]+\\.[a-z]+$`).test(search)) return false;
  const body = iconBytes(urlPath);
  if (!body) return false;
  for (const { key, value } of NOT_FRAMABLE_HEADERS) res.setHeader(key, value);
  res.writeHead(200, {
    "content-type": type,
    "content-length": body.length,
    "cache-control": "public, max-age=31536000, immutable",
  });
  res.end(req.method === "HEAD" ? undefined : body);
  return true;
}
