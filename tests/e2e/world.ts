// What browser tests need to know about the demo world of a running e2e server: ids by name, read from the
// server's own database (its path is in the state file tests/e2e/serve.ts writes).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";

export interface E2EWorld {
  /** The dashboard's application (sign-in, the bot). */
  applicationId: string;
  /** The dashboard application's bot: the one acting in bot mode. */
  bot: { id: string; username: string };
  /** The sample Activity's own application. */
  activityApplicationId: string;
  guildId: string;
  userId(username: string): string;
  channelId(name: string): string;
  roleId(name: string): string;
  /** Runs a read-only query against the server's database (for assertions). */
  query<T>(sql: string, ...params: unknown[]): T[];
  /**
   * A plain member of the demo guild that no spec names: no roles, not a bot, not a demo sign-in. `rank` 0 is the
   * newest such member, 1 the next; each spec that bans one takes its own rank so specs never share a target.
   */
  spareMember(rank: number): { id: string; username: string };
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
    activityApplicationId: id("SELECT id FROM applications WHERE name = 'Guildhall Activity'"),
    bot: db
      .prepare(
        "SELECT CAST(u.id AS TEXT) AS id, u.username FROM applications a JOIN users u ON u.id = a.bot_user_id WHERE a.name = 'Guildhall Demo'",
      )
      .get() as { id: string; username: string },
    guildId,
    userId: (username) => id("SELECT id FROM users WHERE username = ?", username),
    channelId: (name) => id("SELECT id FROM channels WHERE guild_id = ? AND name = ?", BigInt(guildId), name),
    roleId: (name) => id("SELECT id FROM roles WHERE guild_id = ? AND name = ?", BigInt(guildId), name),
    query: <T>(sql: string, ...params: unknown[]) => db.prepare(sql).all(...params) as T[],
    spareMember: (rank) => {
      const row = db
        .prepare(
          `SELECT u.id, u.username FROM members m JOIN users u ON u.id = m.user_id
            WHERE m.guild_id = ? AND u.bot = 0
              AND u.username NOT IN ('owner', 'admin', 'mod', 'helper', 'member', 'ada_fox', 'bo_fox')
              AND NOT EXISTS (SELECT 1 FROM member_roles r WHERE r.guild_id = m.guild_id AND r.user_id = m.user_id)
            ORDER BY u.id DESC LIMIT 1 OFFSET ?`,
        )
        .get(BigInt(guildId), rank) as { id: bigint; username: string } | undefined;
      if (!row) throw new Error(`e2e world: no spare member of rank ${rank}`);
      return { id: String(row.id), username: row.username };
    },
  };
}
