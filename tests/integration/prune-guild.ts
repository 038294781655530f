// A hand-built guild to prune, written straight into the API's database: roles in position order, the staff who
// act on it, and members whose roles and time since last activity decide who a prune removes. Shared by the API's
// prune tests and the dashboard's prune actions, so both read the same rule off the same kind of guild.
import type { Database } from "better-sqlite3";

export const DAY = 86_400_000;

export interface PruneGuildSeed {
  guildId: bigint;
  name: string;
  /** Above @everyone, lowest first: [id, name, permissions]. */
  roles: ReadonlyArray<readonly [id: bigint, name: string, permissions: bigint]>;
  /** Members who act (owner, moderators, bot): [user id, username, role ids, ms since last activity]. */
  staff: ReadonlyArray<readonly [userId: bigint, username: string, roleIds?: bigint[], idleMs?: number]>;
  ownerId: bigint;
  /** Members to prune or keep, each a new user: name → [role ids, ms since last activity]. */
  idle: Readonly<Record<string, readonly [roleIds: bigint[], idleMs: number]>>;
  /** The first new user's id; the others follow it. */
  firstUserId: bigint;
}

/** Writes the guild; answers the new users' ids by name. */
export async function seedPruneGuild(db: Database, seed: PruneGuildSeed): Promise<Record<string, bigint>> {
  const { insertMember } = await import("@/lib/guild-api/store/membership");
  const now = Date.now();
  db.prepare("INSERT INTO guilds (id, name, owner_id, created_at) VALUES (?, ?, ?, 0)").run(
    seed.guildId,
    seed.name,
    seed.ownerId,
  );
  const role = db.prepare("INSERT INTO roles (id, guild_id, name, permissions, position) VALUES (?, ?, ?, ?, ?)");
  role.run(seed.guildId, seed.guildId, "@everyone", 0n, 0);
  seed.roles.forEach(([id, name, permissions], index) => role.run(id, seed.guildId, name, permissions, index + 1));
  for (const [userId, username, roleIds = [], idleMs = 0] of seed.staff)
    await insertMember({ guildId: seed.guildId, userId, username, roleIds, now: now - idleMs });
  const user = db.prepare("INSERT INTO users (id, username, discriminator, bot, created_at) VALUES (?, ?, '0', 0, 0)");
  const ids: Record<string, bigint> = {};
  let next = seed.firstUserId;
  for (const [name, [roleIds, idleMs]] of Object.entries(seed.idle)) {
    const id = next++;
    user.run(id, name);
    await insertMember({ guildId: seed.guildId, userId: id, username: name, roleIds, now: now - idleMs });
    ids[name] = id;
  }
  return ids;
}
