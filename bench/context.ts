// What scenarios need: the URLs, the scale guild, tokens for demo users, fixtures (bans, prefixes, member ids
// to ban) prepared once in the bench database, and the raw-SQLite floor for prune counting.
import type Database from "better-sqlite3";
import { readDemoSecrets } from "@/lib/seed/demo-secrets";
import { SCALE_GUILD_NAME } from "@/lib/seed/scale";

/** The users whose tokens the scenarios use. */
const BENCH_USERS = ["owner", "mod"];

export interface BenchContext {
  appUrl: string;
  scaleGuildId: string;
  demoGuildId: string;
  botToken: string;
  /** A member id near the middle of the scale guild, as an `after` cursor. */
  midMemberId: string;
  commonPrefix: string;
  rarePrefix: string;
  /** Name substrings (Search Guild Members v2's `query`): one inside about 2% of the names, one inside very few. */
  commonSubstring: string;
  rareSubstring: string;
  tokenFor(username: string): string;
  /** A dashboard session cookie for the scale guild's owner, stored the way next-auth stores one after sign-in. */
  dashboardCookie(): Promise<string>;
  /** `count` member ids (not the owner) that batch `batch` may ban; batches never overlap. */
  unbannedMemberIds(batch: number, count: number): string[];
  /** The prune count computed directly in SQLite: the floor Get Guild Prune Count is compared with. */
  rawPruneCount(days: number): number;
}

const BAN_FIXTURE = 5_000;

export async function createBenchContext(appUrl: string): Promise<BenchContext> {
  const secrets = readDemoSecrets();
  if (!secrets) throw new Error("bench database has no demo secrets");
  const { issueAccessToken } = await import("@/lib/guild-api/services/access-tokens");
  const { DEVELOPMENT_TOKEN_SCOPES } = await import("@/lib/guild-api/services/oauth2");
  const { db } = await import("@/lib/guild-api/store/db");
  const database: Database.Database = db();
  const guildId = (database.prepare("SELECT id FROM guilds WHERE name = ?").get(SCALE_GUILD_NAME) as { id: bigint }).id;
  const ownerId = (database.prepare("SELECT owner_id FROM guilds WHERE id = ?").get(guildId) as { owner_id: bigint })
    .owner_id;
  const memberCount = Number(
    (database.prepare("SELECT member_count FROM guilds WHERE id = ?").get(guildId) as { member_count: bigint })
      .member_count,
  );

  // Bans to list: users who are not members (created for the bench), inserted once.
  const bans = Number(
    (database.prepare("SELECT COUNT(*) AS n FROM bans WHERE guild_id = ?").get(guildId) as { n: bigint }).n,
  );
  if (bans < BAN_FIXTURE) {
    const now = Date.now();
    database.transaction(() => {
      for (let i = bans; i < BAN_FIXTURE; i++) {
        const id = 9_000_000_000_000_000_000n + BigInt(i);
        database
          .prepare(
            "INSERT OR IGNORE INTO users (id, username, discriminator, bot, created_at) VALUES (?, ?, '0', 0, ?)",
          )
          .run(id, `banned_${i}`, now);
        database
          .prepare(
            "INSERT OR IGNORE INTO bans (guild_id, user_id, reason, created_at) VALUES (?, ?, 'bench fixture', ?)",
          )
          .run(guildId, id, now);
      }
    })();
  }

  const mid = database
    .prepare("SELECT user_id FROM members WHERE guild_id = ? ORDER BY user_id LIMIT 1 OFFSET ?")
    .get(guildId, Math.floor(memberCount / 2)) as { user_id: bigint };
  // Members to bulk-ban: unbanned members from the top of the id range (reseeding may re-add banned users' ids).
  const banPool = (
    database
      .prepare(
        "SELECT m.user_id FROM members m WHERE m.guild_id = ? AND m.user_id != ? AND NOT EXISTS (SELECT 1 FROM bans b WHERE b.guild_id = m.guild_id AND b.user_id = m.user_id) ORDER BY m.user_id DESC LIMIT 8000",
      )
      .all(guildId, ownerId) as Array<{ user_id: bigint }>
  ).map((r) => String(r.user_id));
  const rare = database
    .prepare("SELECT username_key FROM members WHERE guild_id = ? ORDER BY user_id DESC LIMIT 1")
    .get(guildId) as { username_key: string };
  const pruneCount = database.prepare(
    "SELECT COUNT(*) AS n FROM members WHERE guild_id = ? AND role_count = 0 AND last_active_at < ?",
  );

  // Issued up front (issuing writes a token row, asynchronously), so scenarios read them synchronously.
  const tokens = new Map<string, string>();
  for (const username of BENCH_USERS) {
    const user = database.prepare("SELECT id FROM users WHERE username = ?").get(username) as { id: bigint };
    // The scopes `npm run token` grants: the management routes need guildhall.manage.
    tokens.set(
      username,
      (await issueAccessToken(BigInt(secrets.applicationId), user.id, DEVELOPMENT_TOKEN_SCOPES)).access_token,
    );
  }
  let cookie: string | undefined;
  const context: BenchContext = {
    appUrl,
    scaleGuildId: String(guildId),
    demoGuildId: secrets.guildId,
    botToken: secrets.botToken,
    midMemberId: String(mid.user_id),
    commonPrefix: "ka",
    // The longest name prefix is shared by very few members: the worst case for a scan, the best for an index.
    rarePrefix: rare.username_key.slice(0, 5),
    commonSubstring: "zumi",
    rareSubstring: rare.username_key.slice(1, 6),
    tokenFor(username) {
      const token = tokens.get(username);
      if (!token) throw new Error(`No token issued for ${username}: add them to BENCH_USERS in bench/context.ts`);
      return token;
    },
    async dashboardCookie() {
      if (!cookie) {
        const { prisma } = await import("@/lib/dashboard/db");
        const { createDashboardSession } = await import("@/lib/dashboard/auth/test-session");
        cookie = (
          await createDashboardSession(prisma, {
            userId: String(ownerId),
            name: "Bench Owner",
            accessToken: context.tokenFor("owner"),
          })
        ).cookie;
      }
      return cookie;
    },
    unbannedMemberIds(batch, count) {
      const slice = banPool.slice(batch * count, batch * count + count);
      if (slice.length < count) throw new Error("bench ban pool exhausted: grow the scale guild");
      return slice;
    },
    rawPruneCount(days) {
      return Number((pruneCount.get(guildId, BigInt(Date.now() - days * 86_400_000)) as { n: bigint }).n);
    },
  };
  return context;
}
