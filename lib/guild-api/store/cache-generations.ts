// The cache_generations table: stamps that triggers set to a new random value on every write to the tables they watch
// (migration 20261125163800_guild_snapshot_generation), so a cache built from those tables alone can tell whether it
// is still valid without being emptied by every other write.
import { sql } from "./db";

/** The stamp of the guilds and roles tables. */
export async function guildsAndRolesGeneration(): Promise<bigint> {
  return (await sql.value("SELECT value FROM cache_generations WHERE name = 'guilds_roles'")) as bigint;
}
