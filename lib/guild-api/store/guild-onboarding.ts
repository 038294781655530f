// The guild_onboarding table: one row per guild that saved its onboarding (prompts and default channels as JSON).
import { sql } from "./db";

export interface GuildOnboardingRow {
  guild_id: bigint;
  enabled: bigint;
  mode: bigint;
  default_channel_ids: string;
  prompts: string;
}

export async function findGuildOnboarding(guildId: bigint): Promise<GuildOnboardingRow | undefined> {
  return (await sql.get("SELECT * FROM guild_onboarding WHERE guild_id = ?", guildId)) as
    GuildOnboardingRow | undefined;
}

export async function saveGuildOnboarding(row: {
  guildId: bigint;
  enabled: boolean;
  mode: number;
  defaultChannelIds: string;
  prompts: string;
}): Promise<void> {
  await sql.run(
    `INSERT INTO guild_onboarding (guild_id, enabled, mode, default_channel_ids, prompts) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (guild_id) DO UPDATE SET enabled = excluded.enabled, mode = excluded.mode,
       default_channel_ids = excluded.default_channel_ids, prompts = excluded.prompts`,
    row.guildId,
    row.enabled ? 1 : 0,
    row.mode,
    row.defaultChannelIds,
    row.prompts,
  );
}
