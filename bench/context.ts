// What scenarios need: the URLs, the scale guild's id, tokens for demo users, and the bot token.
import { openDatabase } from "@/lib/guild-api/store/db";
import { readDemoSecrets } from "@/lib/seed/demo-secrets";
import { SCALE_GUILD_NAME } from "@/lib/seed/scale";

export interface BenchContext {
  appUrl: string;
  baselineUrl: string;
  scaleGuildId: string;
  demoGuildId: string;
  botToken: string;
  tokenFor(username: string): string;
}

export async function createBenchContext(appUrl: string, baselineUrl: string): Promise<BenchContext> {
  const db = openDatabase();
  const guild = db.prepare("SELECT id FROM guilds WHERE name = ?").get(SCALE_GUILD_NAME) as { id: bigint };
  db.close();
  const secrets = readDemoSecrets();
  if (!secrets) throw new Error("bench database has no demo secrets");
  const { issueAccessToken } = await import("@/lib/guild-api/services/access-tokens");
  const { db: sharedDb } = await import("@/lib/guild-api/store/db");
  const tokens = new Map<string, string>();
  return {
    appUrl,
    baselineUrl,
    scaleGuildId: String(guild.id),
    demoGuildId: secrets.guildId,
    botToken: secrets.botToken,
    tokenFor(username) {
      let token = tokens.get(username);
      if (!token) {
        const user = sharedDb().prepare("SELECT id FROM users WHERE username = ?").get(username) as { id: bigint };
        token = issueAccessToken(BigInt(secrets.applicationId), user.id, ["identify", "guilds"]).access_token;
        tokens.set(username, token);
      }
      return token;
    },
  };
}
