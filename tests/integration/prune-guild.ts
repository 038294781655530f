// A hand-built guild to prune, written straight into the API's database (through the store, either engine): roles in position order, the staff who
// act on it, and members whose roles and time since last activity decide who a prune removes. Shared by the API's
// prune tests and the dashboard's prune actions, so both read the same rule off the same kind of guild.

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
export async function seedPruneGuild(seed: PruneGuildSeed): Promise<Record<string, bigint>> {
  const { insertMember } = await import("@/lib/guild-api/store/membership");
  const { sql } = await import("@/lib/guild-api/store/db");
  const now = Date.now();
  await sql.run(
    "INSERT INTO guilds (id, name, owner_id, created_at) VALUES (?, ?, ?, 0)",
    seed.guildId,
    seed.name,
    seed.ownerId,
  );
  const role = (id: bigint, name: string, permissions: bigint, position: number) =>
    sql.run(
      "INSERT INTO roles (id, guild_id, name, permissions, position) VALUES (?, ?, ?, ?, ?)",
      id,
      seed.guildId,
      name,
      permissions,
      position,
    );
  await role(seed.guildId, "@everyone", 0n, 0);
  for (const [index, [id, name, permissions]] of seed.roles.entries()) await role(id, name, permissions, index + 1);
  for (const [userId, username, roleIds = [], idleMs = 0] of seed.staff)
    await insertMember({ guildId: seed.guildId, userId, username, roleIds, now: now - idleMs });
  const ids: Record<string, bigint> = {};
  let next = seed.firstUserId;
  for (const [name, [roleIds, idleMs]] of Object.entries(seed.idle)) {
    const id = next++;
    await sql.run(
      "INSERT INTO users (id, username, discriminator, bot, created_at) VALUES (?, ?, '0', FALSE, 0)",
      id,
      name,
    );
    await insertMember({ guildId: seed.guildId, userId: id, username: name, roleIds, now: now - idleMs });
    ids[name] = id;
  }
  return ids;
}
