// The machine's limit every scenario is compared with: bare node:http answering a primary-key lookup from SQLite
// that returns a stored JSON text of about 1 KB, as is. No JSON is built, no token is read: what is left is the
// HTTP round trip and one indexed read, the least any API answer can cost here. Started by bench/run.ts in its own
// process, on its own database file (BENCH_BASELINE_DB) that it fills once from the bench database's guilds.
import http from "node:http";
import Database from "better-sqlite3";

const benchFile = process.env.BENCH_DB!;
const baselineFile = process.env.BENCH_BASELINE_DB!;
const port = Number(process.env.PORT ?? 0);

/** About the size of a guild object on the wire (Get Guild answers 1.2–1.5 KB for the bench's guilds). */
const STORED_JSON_BYTES = 1024;

function fillBaselineDatabase(): Database.Database {
  const db = new Database(baselineFile);
  db.pragma("journal_mode = WAL");
  db.defaultSafeIntegers(true);
  db.exec("CREATE TABLE IF NOT EXISTS stored_json (id INTEGER PRIMARY KEY, json TEXT NOT NULL)");
  const source = new Database(benchFile, { readonly: true });
  source.defaultSafeIntegers(true);
  const rows = source.prepare("SELECT * FROM guilds").all() as Array<Record<string, unknown> & { id: bigint }>;
  source.close();
  const insert = db.prepare("INSERT OR REPLACE INTO stored_json (id, json) VALUES (?, ?)");
  db.transaction(() => {
    for (const row of rows) insert.run(row.id, storedJson(row));
  })();
  return db;
}

/** The guild row as JSON, padded to at least STORED_JSON_BYTES so the baseline's body is never smaller. */
function storedJson(row: Record<string, unknown>): string {
  const text = JSON.stringify(row, (_key, value: unknown) => (typeof value === "bigint" ? String(value) : value));
  const padding = STORED_JSON_BYTES - Buffer.byteLength(text) - '"_":"",'.length;
  return padding > 0 ? `{"_":"${"x".repeat(padding)}",${text.slice(1)}` : text;
}

const db = fillBaselineDatabase();
const jsonById = db.prepare("SELECT json FROM stored_json WHERE id = ?").pluck();

const server = http.createServer((req, res) => {
  const id = (req.url ?? "").split("/")[4];
  const json = id && /^\d+$/.test(id) ? (jsonById.get(BigInt(id)) as string | undefined) : undefined;
  if (json === undefined) {
    res.writeHead(404, { "content-type": "application/json" }).end('{"message":"404: Not Found","code":0}');
    return;
  }
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(json) }).end(json);
});
server.listen(port, "127.0.0.1", () => {
  const address = server.address() as import("node:net").AddressInfo;
  process.stdout.write(`listening ${address.port}\n`);
});
