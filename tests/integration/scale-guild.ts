// The seed's scale guild (as `npm run seed -- --members N` grows it) in this file's database, with the demo bot
// joined and online, so gateway clients receive it in GUILD_CREATE and can page its members. The seed grows a
// SQLite database, so the guild is grown in a scratch copy of the template and its rows are written to the server's
// database through the store (either engine); the engine's own triggers fill the members' wire JSON and the
// presence count as they do for any insert.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { inject } from "vitest";
import type { TestServer } from "./harness";

/** Rows per INSERT: far below either engine's limit on parameters. */
const ROWS_PER_INSERT = 400;

/** Adds a guild of `members` members plus the bot; answers its id. Call after the server has started. */
export async function addScaleGuildWithBot(server: TestServer, members: number): Promise<string> {
  const { scaleGuild } = await import("@/lib/seed/scale");
  const { sql, transaction } = await import("@/lib/guild-api/store/db");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "guildhall-scale-"));
  const scratch = path.join(dir, "scale.db");
  fs.copyFileSync(inject("templateDatabase"), scratch);
  const db = new Database(scratch);
  db.defaultSafeIntegers(true);
  try {
    const { guildId } = scaleGuild(db, members);
    const rows = (query: string) => db.prepare(query).all(guildId) as Array<Record<string, unknown>>;
    const tables: Array<[string, Array<Record<string, unknown>>, string]> = [
      // Presences are counted again by the server's triggers as the members arrive.
      ["guilds", rows("SELECT * FROM guilds WHERE id = ?").map((g) => ({ ...g, presence_count: 0n })), ""],
      ["roles", rows("SELECT * FROM roles WHERE guild_id = ?"), ""],
      ["channels", rows("SELECT * FROM channels WHERE guild_id = ?"), ""],
      [
        "users",
        rows("SELECT u.* FROM users u JOIN members m ON m.user_id = u.id WHERE m.guild_id = ?"),
        " ON CONFLICT (id) DO NOTHING",
      ],
      ["members", rows("SELECT * FROM members WHERE guild_id = ?").map(({ wire_json: _, ...m }) => m), ""],
      ["member_roles", rows("SELECT * FROM member_roles WHERE guild_id = ?"), ""],
    ];
    await transaction(async () => {
      for (const [table, tableRows, onConflict] of tables) {
        if (tableRows.length === 0) continue;
        const columns = Object.keys(tableRows[0]);
        for (let at = 0; at < tableRows.length; at += ROWS_PER_INSERT) {
          const slice = tableRows.slice(at, at + ROWS_PER_INSERT);
          const values = slice.map(() => `(${columns.map(() => "?").join(", ")})`).join(", ");
          await sql.run(
            `INSERT INTO ${table} (${columns.join(", ")}) VALUES ${values}${onConflict}`,
            ...slice.flatMap((row) => columns.map((column) => row[column])),
          );
        }
      }
      const now = Date.now();
      await sql.run(
        "INSERT INTO members (guild_id, user_id, username_key, joined_at, last_active_at, role_count, status) VALUES (?, ?, 'guildhall-demo', ?, ?, 0, 'online')",
        guildId,
        BigInt(server.world.botUserId),
        now,
        now,
      );
      await sql.run("UPDATE guilds SET member_count = member_count + 1 WHERE id = ?", guildId);
    });
    return String(guildId);
  } finally {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
