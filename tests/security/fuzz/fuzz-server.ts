// A guild API server for one fuzzed operation: a fresh copy of the seeded template database, the real server on a
// free port in this process (so the fingerprint reads the server's own connection), and the fuzz callers' tokens.
// A fresh world per operation keeps each operation's run reproducible from its seed alone: an earlier operation's
// accepted writes (a deleted role, a kicked moderator) never change what a later one meets.
// Used by the vitest suite (template from the integration global setup) and by bench/fuzz.ts (its own template).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseFingerprint } from "./fingerprint";
import type { FuzzTarget } from "./engine";
import type { Caller, FuzzWorld } from "./operations";

export interface FuzzServer {
  target: FuzzTarget;
  world: FuzzWorld;
  close(): Promise<void>;
}

/** Generated members writes may target: never the fuzz callers, the owner or the bot. */
const EXPENDABLE_USERS = 12;

export async function startFuzzServer(templateFile: string): Promise<FuzzServer> {
  // Rate limits off (see rate-limits-off.ts; set again here for callers that did not import it first).
  process.env.RATE_LIMITS = "off";
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "guildhall-fuzz-"));
  const file = path.join(dir, "fuzz.db");
  fs.copyFileSync(templateFile, file);
  fs.copyFileSync(`${templateFile}.secrets.json`, `${file}.secrets.json`);
  process.env.DATABASE_URL = `file:${file}`;

  const { startGuildhallServer } = await import("@/lib/server/create-server");
  const { db, closeDatabase } = await import("@/lib/guild-api/store/db");
  const { readDemoSecrets } = await import("@/lib/seed/demo-secrets");
  const { issueAccessToken } = await import("@/lib/guild-api/services/access-tokens");
  const server = await startGuildhallServer({ port: 0, host: "127.0.0.1", withNext: false });
  const secrets = readDemoSecrets();
  if (!secrets) throw new Error("template database has no demo secrets");
  const database = db();
  const world = readFuzzWorld(database, secrets.applicationId, secrets.clientSecret);

  const userId = (username: string) =>
    (database.prepare("SELECT id FROM users WHERE username = ?").get(username) as { id: bigint }).id;
  const { OAUTH2_SCOPES } = await import("@/lib/guild-api/services/oauth2");
  // Every scope the provider grants (so a scope added for guild management is held too), except bot, which is not a
  // user's: these callers are refused by permissions. "narrow" holds identify alone and is refused by scope.
  const allScopes = Object.keys(OAUTH2_SCOPES).filter((scope) => scope !== "bot");
  const bearer = async (username: string, scopes = allScopes) =>
    `Bearer ${(await issueAccessToken(BigInt(secrets.applicationId), userId(username), scopes)).access_token}`;
  const authorizations: Record<Caller, string | undefined> = {
    bot: `Bot ${secrets.botToken}`,
    owner: await bearer("owner"),
    mod: await bearer("mod"),
    member: await bearer("member"),
    narrow: await bearer("mod", ["identify"]),
    none: undefined,
    bogus: "Bot not-a-token",
  };

  return {
    target: {
      baseUrl: server.url,
      authorization: (caller) => authorizations[caller],
      fingerprint: new DatabaseFingerprint(database),
    },
    world,
    async close() {
      // The WAL checkpointer's worker is unref'd and close() waits for its exit: outside vitest nothing else may keep
      // the event loop alive meanwhile (bench/fuzz.ts), and Node would quit mid-close with code 0.
      const keepAlive = setInterval(() => undefined, 1_000);
      await server.close().finally(() => clearInterval(keepAlive));
      closeDatabase();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function readFuzzWorld(
  database: import("better-sqlite3").Database,
  applicationId: string,
  clientSecret: string,
): FuzzWorld {
  const ids = (query: string, ...args: unknown[]) =>
    (
      database
        .prepare(query)
        .pluck()
        .all(...args) as Array<bigint | string>
    ).map(String);
  const guildId = ids("SELECT id FROM guilds WHERE name = 'Guildhall HQ'")[0];
  const named = ["owner", "admin", "mod", "helper", "member", "outsider"];
  const botUserId = ids("SELECT bot_user_id FROM applications WHERE id = ?", BigInt(applicationId))[0];
  return {
    guildId,
    sideGuildId: ids("SELECT id FROM guilds WHERE name = 'Side Project'")[0],
    applicationId,
    clientSecret,
    namedUserIds: [
      ...ids(`SELECT id FROM users WHERE username IN (${named.map(() => "?").join(",")})`, ...named),
      botUserId,
    ],
    expendableUserIds: ids(
      `SELECT m.user_id FROM members m JOIN users u ON u.id = m.user_id
       WHERE m.guild_id = ? AND u.bot = 0 AND u.username NOT IN (${named.map(() => "?").join(",")})
       ORDER BY m.user_id LIMIT ?`,
      BigInt(guildId),
      ...named,
      EXPENDABLE_USERS,
    ),
    roleIds: ids("SELECT id FROM roles WHERE guild_id = ? ORDER BY position", BigInt(guildId)),
    channelIds: ids("SELECT id FROM channels WHERE guild_id = ? ORDER BY position LIMIT 12", BigInt(guildId)),
    voiceUserIds: ids("SELECT user_id FROM voice_states WHERE guild_id = ? LIMIT 6", BigInt(guildId)),
    voiceChannelIds: ids("SELECT id FROM channels WHERE guild_id = ? AND type IN (2, 13) LIMIT 4", BigInt(guildId)),
    integrationIds: ids("SELECT id FROM integrations WHERE guild_id = ?", BigInt(guildId)),
    inviteCodes: ids("SELECT code FROM invites LIMIT 8"),
    scheduledEventIds: ids("SELECT id FROM guild_scheduled_events WHERE guild_id = ?", BigInt(guildId)),
  };
}
