// The floor every scenario is compared with: bare node:http + better-sqlite3, one primary-key lookup of a
// guild row per request, serialized to JSON. Started by bench/run.ts in its own process.
import http from "node:http";
import Database from "better-sqlite3";

const file = process.env.BENCH_DB!;
const port = Number(process.env.PORT ?? 0);
const db = new Database(file, { readonly: true });
db.defaultSafeIntegers(true);
const byId = db.prepare("SELECT * FROM guilds WHERE id = ?");

const server = http.createServer((req, res) => {
  const id = (req.url ?? "").split("/")[4];
  const row = id && /^\d+$/.test(id) ? (byId.get(BigInt(id)) as Record<string, unknown> | undefined) : undefined;
  if (!row) {
    res.writeHead(404, { "content-type": "application/json" }).end('{"message":"404: Not Found","code":0}');
    return;
  }
  const body = JSON.stringify(row, (_key, value: unknown) => (typeof value === "bigint" ? String(value) : value));
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body);
});
server.listen(port, "127.0.0.1", () => {
  const address = server.address() as import("node:net").AddressInfo;
  process.stdout.write(`listening ${address.port}\n`);
});
