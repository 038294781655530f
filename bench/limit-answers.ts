// The answers the limit server (bench/baseline-server.ts) gives: for each scenario measured against the limit, the
// bytes Guildhall answers its path with, fetched once and stored in the limit's own SQLite file.
import Database from "better-sqlite3";

export const ANSWERS_TABLE = "stored_answers";

export interface LimitRequest {
  /** Path and query, as the limit server sees them in the request line. */
  path: string;
  headers?: Record<string, string>;
}

/** Fetches each request's answer from Guildhall and stores it under its path in `file` (made anew). */
export async function storeLimitAnswers(file: string, appUrl: string, requests: readonly LimitRequest[]) {
  const db = new Database(file);
  try {
    db.exec(`DROP TABLE IF EXISTS ${ANSWERS_TABLE}`);
    db.exec(`CREATE TABLE ${ANSWERS_TABLE} (path TEXT PRIMARY KEY, content_type TEXT NOT NULL, body BLOB NOT NULL)`);
    const insert = db.prepare(`INSERT OR REPLACE INTO ${ANSWERS_TABLE} (path, content_type, body) VALUES (?, ?, ?)`);
    for (const request of requests) {
      const response = await fetch(`${appUrl}${request.path}`, { headers: request.headers });
      const body = Buffer.from(await response.arrayBuffer());
      if (!response.ok) throw new Error(`HTTP ${response.status} for ${request.path}: ${body.toString().slice(0, 80)}`);
      insert.run(request.path, response.headers.get("content-type") ?? "application/octet-stream", body);
    }
  } finally {
    db.close();
  }
}
