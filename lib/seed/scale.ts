// Grows a guild to N members for benchmarks: generated users, members spread over realistic activity,
// a fifth of them holding one or two roles. Raw prepared statements in large transactions: 1,000,000
// members take well under two minutes.
import type { Db } from "@/lib/guild-api/store/db";
import { DiscordSnowflake } from "@sapphire/snowflake";
import { EVERYONE_PERMISSIONS, rng } from "./demo-world";

const DAY = 86_400_000;
export const SCALE_GUILD_NAME = "Guildhall Scale";
const SCALE_EPOCH_MS = Date.UTC(2023, 0, 1);
const SYLLABLES = [
  "ka",
  "zu",
  "mi",
  "ro",
  "te",
  "la",
  "no",
  "vi",
  "sha",
  "qu",
  "be",
  "do",
  "fi",
  "gu",
  "ha",
  "ji",
  "ke",
  "ly",
  "mo",
  "pe",
  "ri",
  "su",
  "to",
  "wa",
  "xe",
  "yo",
];

const scaleId = (n: number) =>
  DiscordSnowflake.generate({
    timestamp: BigInt(SCALE_EPOCH_MS + Math.floor(n / 4096)),
    increment: BigInt(n % 4096),
    processId: 1n,
    workerId: 1n,
  });

function nameFor(n: number): string {
  let s = "";
  let x = n;
  do {
    s += SYLLABLES[x % SYLLABLES.length];
    x = Math.floor(x / SYLLABLES.length);
  } while (x > 0);
  return `${s}${n % 97}`;
}

export function scaleGuild(
  db: Db,
  targetMembers: number,
  now = Date.now(),
  log: (line: string) => void = () => {},
): { guildId: bigint; added: number } {
  const owner = db.prepare("SELECT id FROM users WHERE username = 'owner'").get() as { id: bigint } | undefined;
  if (!owner) throw new Error("Seed the demo world first (npm run seed).");
  let guild = db.prepare("SELECT id FROM guilds WHERE name = ?").get(SCALE_GUILD_NAME) as { id: bigint } | undefined;
  const guildId = guild?.id ?? scaleId(0);
  const roleIds = [scaleId(1), scaleId(2), scaleId(3)];
  if (!guild) {
    db.transaction(() => {
      db.prepare(
        "INSERT INTO guilds (id, name, owner_id, features, afk_timeout, widget_enabled, created_at) VALUES (?, ?, ?, '[]', 300, 1, ?)",
      ).run(guildId, SCALE_GUILD_NAME, owner.id, now);
      db.prepare("INSERT INTO roles (id, guild_id, name, permissions, position) VALUES (?, ?, '@everyone', ?, 0)").run(
        guildId,
        guildId,
        EVERYONE_PERMISSIONS,
      );
      ["Regular", "Supporter", "Veteran"].forEach((name, i) =>
        db
          .prepare(
            "INSERT INTO roles (id, guild_id, name, permissions, position, color, hoist) VALUES (?, ?, ?, 0, ?, ?, 1)",
          )
          .run(roleIds[i], guildId, name, i + 1, 0x3498db + i * 0x101010),
      );
      db.prepare(
        "INSERT INTO channels (id, guild_id, type, name, position, permission_overwrites) VALUES (?, ?, 0, 'general', 0, '[]')",
      ).run(scaleId(4), guildId);
      db.prepare(
        "INSERT INTO channels (id, guild_id, type, name, position, permission_overwrites, bitrate, user_limit) VALUES (?, ?, 2, 'Voice', 1, '[]', 64000, 0)",
      ).run(scaleId(5), guildId);
      db.prepare(
        "INSERT INTO members (guild_id, user_id, username_key, joined_at, last_active_at, role_count, status) VALUES (?, ?, 'owner', ?, ?, 0, 'online')",
      ).run(guildId, owner.id, now, now);
      db.prepare("UPDATE guilds SET member_count = 1 WHERE id = ?").run(guildId);
    })();
    guild = { id: guildId };
  }
  const current = Number(
    (db.prepare("SELECT member_count FROM guilds WHERE id = ?").get(guildId) as { member_count: bigint }).member_count,
  );
  const toAdd = Math.max(0, targetMembers - current);
  const insertUser = db.prepare(
    "INSERT OR IGNORE INTO users (id, username, discriminator, bot, created_at) VALUES (?, ?, '0', 0, ?)",
  );
  const insertMember = db.prepare(
    "INSERT OR IGNORE INTO members (guild_id, user_id, nick, nick_key, username_key, joined_at, last_active_at, role_count, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const insertRole = db.prepare("INSERT INTO member_roles (guild_id, user_id, role_id) VALUES (?, ?, ?)");
  const statuses = ["online", "idle", "dnd", "offline", "offline", "offline", "offline", "offline"];
  const random = rng(current + 7);
  const batch = 50_000;
  // Fast bulk load: the data is regenerated on failure, so durability can wait until the end.
  db.pragma("synchronous = OFF");
  // Member n has the id scaleId(n). Benchmarks ban members (removing them), so a regrow can meet ids that are still
  // members: those are skipped, and n keeps counting until enough new members are in.
  let n = 10 + current;
  for (let added = 0; added < toAdd;) {
    const target = Math.min(toAdd, added + batch);
    db.transaction(() => {
      const before = added;
      for (; added < target; n++) {
        const userId = scaleId(n);
        const username = nameFor(n);
        insertUser.run(userId, username, now - Math.floor(random() * 1000) * DAY);
        const roll = random();
        const roles = roll < 0.8 ? [] : roll < 0.95 ? [roleIds[n % 3]] : [roleIds[0], roleIds[1 + (n % 2)]];
        const nick = random() < 0.1 ? `${username.slice(0, 4)}_${n % 1000}` : null;
        const lastActive = now - Math.floor((random() < 0.7 ? random() * 14 : random() * 365) * DAY);
        const inserted = insertMember.run(
          guildId,
          userId,
          nick,
          nick?.toLowerCase() ?? null,
          username,
          now - Math.floor(random() * 700) * DAY,
          lastActive,
          roles.length,
          statuses[n % statuses.length],
        ).changes;
        if (!inserted) continue;
        for (const roleId of roles) insertRole.run(guildId, userId, roleId);
        added++;
      }
      db.prepare("UPDATE guilds SET member_count = member_count + ? WHERE id = ?").run(added - before, guildId);
    })();
    log(`  ${current + added} members`);
  }
  db.pragma("synchronous = NORMAL");
  if (toAdd > 0) db.exec("ANALYZE");
  addScaleExpressions(db, guildId, owner.id);
  return { guildId, added: toAdd };
}

/** A full server's expressions (issue #34's Get Guild goal): 250 emoji (100 animated) and 60 stickers, once. */
export const SCALE_EMOJI = 250;
export const SCALE_STICKERS = 60;

function addScaleExpressions(db: Db, guildId: bigint, ownerId: bigint): void {
  const count = (table: string) =>
    Number((db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE guild_id = ?`).get(guildId) as { n: bigint }).n);
  // Their own id range (worker 2): never a member's.
  const expressionId = (n: number) =>
    DiscordSnowflake.generate({ timestamp: BigInt(SCALE_EPOCH_MS + n), processId: 1n, workerId: 2n });
  db.transaction(() => {
    const emoji = db.prepare(
      "INSERT OR IGNORE INTO emojis (id, guild_id, name, roles, user_id, require_colons, managed, animated, available) VALUES (?, ?, ?, '[]', ?, 1, 0, ?, 1)",
    );
    for (let n = count("emojis"); n < SCALE_EMOJI; n++)
      emoji.run(expressionId(n), guildId, `${nameFor(n)}_${n}`, ownerId, n < 100 ? 1 : 0);
    const sticker = db.prepare(
      "INSERT OR IGNORE INTO stickers (id, guild_id, name, description, tags, format_type, available, user_id) VALUES (?, ?, ?, ?, ?, 1, 1, ?)",
    );
    for (let n = count("stickers"); n < SCALE_STICKERS; n++)
      sticker.run(expressionId(1_000 + n), guildId, `Sticker ${n}`, `Sticker number ${n}`, "star", ownerId);
  })();
}
