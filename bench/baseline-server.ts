// The machine's limit a scenario is compared with: bare node:http answering a scenario's path with the very bytes
// Guildhall answered it with, read by primary key from SQLite as they are. No JSON is built, no token is read: what
// is left is the HTTP round trip and one indexed read, the least that answer can cost here. Started by bench/run.ts
// in its own process, on a database file (BENCH_BASELINE_DB) it has filled with the answers (bench/limit-answers.ts).
import http from "node:http";
import Database from "better-sqlite3";
import { ANSWERS_TABLE } from "./limit-answers";

const db = new Database(process.env.BENCH_BASELINE_DB!, { readonly: true });
const answerByPath = db.prepare(`SELECT content_type, body FROM ${ANSWERS_TABLE} WHERE path = ?`);

const server = http.createServer((req, res) => {
  const answer = answerByPath.get(req.url ?? "") as { content_type: string; body: Buffer } | undefined;
  if (answer === undefined) {
    res.writeHead(404, { "content-type": "application/json" }).end('{"message":"404: Not Found","code":0}');
    return;
  }
  res.writeHead(200, { "content-type": answer.content_type, "content-length": answer.body.length }).end(answer.body);
});
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const address = server.address() as import("node:net").AddressInfo;
  process.stdout.write(`listening ${address.port}\n`);
});
