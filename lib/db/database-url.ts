// Where the embedded SQLite database lives: DATABASE_URL if set, else .data/guildhall.db in the project.
import fs from "node:fs";
import path from "node:path";

export const DEFAULT_DATABASE_FILE = path.join(process.cwd(), ".data", "guildhall.db");

/** The database URL as `file:/absolute/path`; also exported to DATABASE_URL for Prisma's schema. */
export function databaseUrl(): string {
  const url = process.env.DATABASE_URL ?? `file:${DEFAULT_DATABASE_FILE}`;
  process.env.DATABASE_URL = url;
  databaseFile(url); // better-sqlite3 cannot create the file's folder
  return url;
}

/** The filesystem path behind a `file:` URL, with its folder created. */
export function databaseFile(url = databaseUrl()): string {
  if (!url.startsWith("file:")) throw new Error(`Only SQLite file: URLs are supported, got ${url}`);
  const file = path.resolve(url.slice("file:".length).replace(/^\/\//, ""));
  // Owner-only: the folder holds the database and the secrets kept beside it.
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  return file;
}
