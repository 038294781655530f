// The seed's scale guild (as `npm run seed -- --members N` grows it) in this file's database, with the demo bot
// joined and online, so gateway clients receive it in GUILD_CREATE and can page its members.
import type { TestServer } from "./harness";
import { serverDb } from "./harness";

/** Adds a guild of `members` members plus the bot; answers its id. Call after the server has started. */
export async function addScaleGuildWithBot(server: TestServer, members: number): Promise<string> {
  const { scaleGuild } = await import("@/lib/seed/scale");
  const db = serverDb();
  const { guildId } = scaleGuild(db, members);
  const now = Date.now();
  db.prepare(
    "INSERT INTO members (guild_id, user_id, username_key, joined_at, last_active_at, role_count, status) VALUES (?, ?, 'guildhall-demo', ?, ?, 0, 'online')",
  ).run(guildId, BigInt(server.world.botUserId), now, now);
  db.prepare("UPDATE guilds SET member_count = member_count + 1 WHERE id = ?").run(guildId);
  return String(guildId);
}
