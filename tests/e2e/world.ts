// What browser tests need to know about the demo world of a running e2e server: ids by name, read from the
// server's own database (its path is in the state file tests/e2e/serve.ts writes).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";

export interface E2EWorld {
  applicationId: string;
  guildId: string;
  userId(username: string): string;
  channelId(name: string): string;
  roleId(name: string): string;
  /** Runs a read-only query against the server's database (for assertions). */
  query<T>(sql: string, ...params: unknown[]): T[];
}

export function e2eWorld(port = Number(process.env.E2E_PORT ?? 3210)): E2EWorld {
  const stateFile = path.join(os.tmpdir(), `guildhall-e2e-${port}.json`);
  const { databaseUrl } = JSON.parse(fs.readFileSync(stateFile, "utf8")) as { databaseUrl: string };
  const db = new Database(databaseUrl.slice("file:".length), { readonly: true, fileMustExist: true });
  db.defaultSafeIntegers(true);
  const id = (sql: string, ...params: unknown[]) => {
    const row = db.prepare(sql).get(...params) as { id: bigint } | undefined;
    if (!row) throw new Error(`e2e world: nothing for ${sql} ${params.join(", ")}`);
    return String(row.id);
  };
  const guildId = id("SELECT id FROM guilds WHERE name = 'Guildhall HQ'");
  return {
    applicationId: id("SELECT id FROM applications WHERE name = 'Guildhall Demo'"),
    guildId,
    userId: (username) => id("SELECT id FROM users WHERE username = ?", username),
    channelId: (name) => id("SELECT id FROM channels WHERE guild_id = ? AND name = ?", BigInt(guildId), name),
    roleId: (name) => id("SELECT id FROM roles WHERE guild_id = ? AND name = ?", BigInt(guildId), name),
    query: <T>(sql: string, ...params: unknown[]) => db.prepare(sql).all(...params) as T[],
  };
}
