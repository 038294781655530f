// The host simulator's own origin: http://localhost:3333 (an origin the SDK accepts). It serves only the
// host page and its script; the Activity it embeds, the OAuth2 consent page and the guild API are the app's.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";

const port = Number(process.env.ACTIVITY_HOST_PORT ?? 3333);
const here = path.dirname(new URL(import.meta.url).pathname);
const files: Record<string, [string, string]> = {
  "/": ["host.html", "text/html; charset=utf-8"],
  "/host.js": ["host.js", "text/javascript; charset=utf-8"],
};

http
  .createServer((req, res) => {
    const pathname = (req.url ?? "/").split("?")[0];
    const file = files[pathname];
    if (pathname === "/healthz") return void res.writeHead(200).end("ok");
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": file[1], "cache-control": "no-store" });
    res.end(fs.readFileSync(path.join(here, file[0])));
  })
  .listen(port, "127.0.0.1", () => console.log(`Activity host simulator on http://localhost:${port}`));
