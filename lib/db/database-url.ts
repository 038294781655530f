// Which database Guildhall uses, from DATABASE_URL: a `postgres://` or `postgresql://` URL selects PostgreSQL; a
// `file:` URL, or none (.data/guildhall.db in the project), selects the embedded SQLite database.
import fs from "node:fs";
import path from "node:path";

export const DEFAULT_DATABASE_FILE = path.join(process.cwd(), ".data", "guildhall.db");

export type DatabaseProvider = "sqlite" | "postgresql";

const POSTGRESQL_URL = /^postgres(ql)?:\/\//;

/** The provider a database URL selects; anything but `file:` and `postgres(ql)://` is refused with the URL's scheme. */
export function databaseProvider(url = databaseUrl()): DatabaseProvider {
  if (url.startsWith("file:")) return "sqlite";
  if (POSTGRESQL_URL.test(url)) return "postgresql";
  throw new Error(
    `DATABASE_URL must be a file: URL (SQLite) or a postgres:// URL (PostgreSQL), got ${url.split(":")[0]}:…`,
  );
}

/** The database URL (DATABASE_URL, else `file:` the default file); also exported to DATABASE_URL for Prisma's schema. */
export function databaseUrl(): string {
  const url = process.env.DATABASE_URL ?? `file:${DEFAULT_DATABASE_FILE}`;
  process.env.DATABASE_URL = url;
  // better-sqlite3 cannot create the file's folder
  if (databaseProvider(url) === "sqlite") databaseFile(url);
  return url;
}

/** The filesystem path behind a `file:` URL, with its folder created. */
export function databaseFile(url = databaseUrl()): string {
  if (!url.startsWith("file:"))
    throw new Error(
      `This needs the SQLite database (a file: DATABASE_URL), got ${url.split(":")[0]}:…: it works on the SQLite file itself`,
    );
  const file = path.resolve(url.slice("file:".length).replace(/^\/\//, ""));
  // Owner-only: the folder holds the database and the secrets kept beside it.
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  return file;
}

/**
 * Where the files kept beside a database begin (`<base>.secrets.json`, `<base>.nextauth-secret`, …): the SQLite file
 * itself, or for PostgreSQL `.data/postgresql-<host>-<port>-<database>` (GUILDHALL_SECRETS_DIR overrides the folder).
 * Instances on other machines share them by setting the environment variables those files stand in for.
 */
export function secretsPathBase(url = databaseUrl()): string {
  if (databaseProvider(url) === "sqlite") return databaseFile(url);
  const parsed = new URL(url);
  const name = `postgresql-${parsed.hostname}-${parsed.port || "5432"}-${parsed.pathname.slice(1) || "postgres"}`;
  const dir = process.env.GUILDHALL_SECRETS_DIR ?? path.dirname(DEFAULT_DATABASE_FILE);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return path.join(dir, name.replace(/[^A-Za-z0-9._-]/g, "_"));
}
