// npm start with a postgres:// DATABASE_URL: the PostgreSQL migrations are applied and, on a database with no demo
// world yet, the demo world is seeded the way the embedded database is — into a temporary SQLite file, then copied in
// one PostgreSQL transaction (scripts/copy-sqlite-to-postgresql.ts), so there is one seed and one copy to trust. The
// demo's secrets go beside the PostgreSQL database's name in .data (lib/db/database-url.ts secretsPathBase). Several
// instances starting together on one empty database: the first copy wins, the others find it seeded.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { migrateDatabase } from "@/lib/db/migrate";
import { PRIVATE_FILE_MODE } from "@/lib/db/file-mode";
import { secretsPathBase } from "@/lib/db/database-url";
import { openDatabase } from "@/lib/guild-api/store/db";
import { DEMO_PASSWORD, DEMO_USERNAMES, seedDemoWorld } from "@/lib/seed/demo-world";
import { copySqliteToPostgresql, CopyRefusedError } from "./copy-sqlite-to-postgresql";

/** user:password@host:port/database without the password. */
export function describePostgresqlUrl(url: string): string {
  const parsed = new URL(url);
  const user = parsed.username ? `${decodeURIComponent(parsed.username)}@` : "";
  return `${user}${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}`;
}

async function isSeeded(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query("SELECT 1 FROM applications LIMIT 1")).rowCount !== 0;
  } finally {
    await client.end();
  }
}

/** Migrates the PostgreSQL database and seeds the demo world if it has none. */
export async function seedPostgresql(url: string, log: (line: string) => void = console.log): Promise<void> {
  migrateDatabase(url);
  log(`Applied the PostgreSQL migrations (prisma/postgresql/migrations) to ${describePostgresqlUrl(url)}.`);
  if (await isSeeded(url)) return;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "guildhall-seed-"));
  const file = path.join(dir, "seed.db");
  const previous = process.env.DATABASE_URL;
  try {
    // The seed writes the demo's secrets beside the database it seeds: the temporary file, for now.
    process.env.DATABASE_URL = `file:${file}`;
    migrateDatabase(process.env.DATABASE_URL);
    const db = openDatabase(file);
    let world;
    try {
      world = seedDemoWorld(db);
    } finally {
      db.close();
    }
    process.env.DATABASE_URL = url;
    try {
      await copySqliteToPostgresql({ from: file, to: url, migrated: true });
    } catch (error) {
      if (error instanceof CopyRefusedError && (await isSeeded(url))) return; // another instance seeded it first
      throw error;
    }
    fs.copyFileSync(`${file}.secrets.json`, `${secretsPathBase(url)}.secrets.json`);
    fs.chmodSync(`${secretsPathBase(url)}.secrets.json`, PRIVATE_FILE_MODE);
    log(`Seeded the demo world: guild ${world.guildId}, application ${world.applicationId}.`);
    log(`Demo sign-ins: ${DEMO_USERNAMES.join(", ")} (password "${DEMO_PASSWORD}").`);
  } finally {
    if (previous === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = previous;
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
