// The hot path's caches (store/read-cache.ts) answer from memory only while the database cannot have changed. Each
// cache on a request's path is checked here against a write made through another connection, as the seed, the token
// tool or the dashboard's Prisma would make it: the very next request must see the write.
import pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { StoreDriver } from "@/lib/guild-api/store/driver";
import { WRITE_LOCK_KEY } from "@/lib/guild-api/store/postgresql-driver";
import { startTestServer, type TestServer } from "../harness";
import { openOtherConnection } from "../other-connection";

let server: TestServer;
let other: StoreDriver;
let hashSecret: (secret: string) => string;
beforeAll(async () => {
  server = await startTestServer({ rateLimits: { enabled: false } });
  other = openOtherConnection();
  ({ hashSecret } = await import("@/lib/guild-api/tokens"));
});
afterAll(async () => {
  other?.close();
  await server?.close();
});

const get = (authorization: string, route: string) =>
  fetch(`${server.baseUrl}/api/v10${route}`, { headers: { authorization } });

test("a token revoked through another connection is refused on the next request", async () => {
  const token = await server.tokenFor("member");
  expect((await get(`Bearer ${token}`, "/users/@me")).status).toBe(200);
  expect((await get(`Bearer ${token}`, "/users/@me")).status).toBe(200); // answered from the cache

  await other.run("UPDATE oauth2_tokens SET revoked_at = ? WHERE access_token_hash = ?", Date.now(), hashSecret(token));
  expect((await get(`Bearer ${token}`, "/users/@me")).status).toBe(401);
});

test("a bot token replaced through another connection stops working on the next request", async () => {
  const authorization = `Bot ${server.botToken}`;
  const app = BigInt(server.world.applicationId);
  expect((await get(authorization, "/users/@me")).status).toBe(200);

  const stored = await other.value("SELECT bot_token_hash FROM applications WHERE id = ?", app);
  await other.run("UPDATE applications SET bot_token_hash = ? WHERE id = ?", hashSecret("another token"), app);
  try {
    expect((await get(authorization, "/users/@me")).status).toBe(401);
    expect((await get("Bot another token", "/users/@me")).status).toBe(200);
  } finally {
    await other.run("UPDATE applications SET bot_token_hash = ? WHERE id = ?", stored, app);
  }
  expect((await get(authorization, "/users/@me")).status).toBe(200);
});

test("a cached token is judged expired at the request after its expiry, with no write in between", async () => {
  const { authenticate } = await import("@/lib/guild-api/auth");
  const header = `Bearer ${await server.tokenFor("member")}`;
  const identity = await authenticate(header);
  expect(identity?.kind).toBe("bearer");
  if (identity?.kind !== "bearer") return;
  expect(await authenticate(header, identity.expiresAt - 1)).not.toBeNull(); // from the cache
  expect(await authenticate(header, identity.expiresAt)).toBeNull();
});

test("Get Guild answers the guild, its roles and emojis as changed through another connection", async () => {
  const owner = `Bearer ${await server.tokenFor("owner")}`;
  const route = `/guilds/${server.world.guildId}`;
  const guildOf = async () =>
    (await (await get(owner, route)).json()) as {
      name: string;
      roles: Array<{ id: string; name: string }>;
      emojis: Array<{ name: string }>;
    };
  const before = await guildOf();
  expect(await guildOf()).toEqual(before); // answered from the cache

  const guildId = BigInt(server.world.guildId);
  await other.run("UPDATE guilds SET name = 'Renamed elsewhere' WHERE id = ?", guildId);
  expect((await guildOf()).name).toBe("Renamed elsewhere");

  await other.run("UPDATE roles SET name = 'Helpers elsewhere' WHERE id = ?", BigInt(server.world.roles.helper));
  expect((await guildOf()).roles.find((role) => role.id === server.world.roles.helper)?.name).toBe("Helpers elsewhere");

  await other.run(
    "INSERT INTO emojis (id, guild_id, name, roles, require_colons, managed, animated, available) VALUES (?, ?, 'added_elsewhere', '[]', TRUE, FALSE, FALSE, TRUE)",
    9_000_000_000_000_000_001n,
    guildId,
  );
  expect((await guildOf()).emojis.map((emoji) => emoji.name)).toContain("added_elsewhere");
});

test("a role taken away through another connection takes its permissions away on the next request", async () => {
  const helper = `Bearer ${await server.tokenFor("helper")}`;
  const route = `/guilds/${server.world.guildId}/audit-logs`;
  const guildId = BigInt(server.world.guildId);
  const helperId = BigInt(server.world.users.helper);
  const helperRole = BigInt(server.world.roles.helper);
  expect((await get(helper, route)).status).toBe(200); // VIEW_AUDIT_LOG from the Helper role
  expect((await get(helper, route)).status).toBe(200);

  await other.run(
    "DELETE FROM member_roles WHERE guild_id = ? AND user_id = ? AND role_id = ?",
    guildId,
    helperId,
    helperRole,
  );
  try {
    expect((await get(helper, route)).status).toBe(403);
  } finally {
    await other.run(
      "INSERT INTO member_roles (guild_id, user_id, role_id) VALUES (?, ?, ?)",
      guildId,
      helperId,
      helperRole,
    );
  }
  expect((await get(helper, route)).status).toBe(200);

  // The role's own permissions, changed elsewhere, count at once too.
  const permissions = (await other.value("SELECT permissions FROM roles WHERE id = ?", helperRole)) as bigint;
  await other.run("UPDATE roles SET permissions = 0 WHERE id = ?", helperRole);
  try {
    expect((await get(helper, route)).status).toBe(403);
  } finally {
    await other.run("UPDATE roles SET permissions = ? WHERE id = ?", permissions, helperRole);
  }
});

test("List Guild Members answers a nickname changed through another connection", async () => {
  const owner = `Bearer ${await server.tokenFor("owner")}`;
  const route = `/guilds/${server.world.guildId}/members?limit=100`;
  const nickOf = async (userId: string) =>
    ((await (await get(owner, route)).json()) as Array<{ user: { id: string }; nick: string | null }>).find(
      (member) => member.user.id === userId,
    )?.nick;
  const memberId = server.world.users.member;
  await other.run(
    "UPDATE members SET nick = 'nick from elsewhere', nick_key = 'nick from elsewhere' WHERE guild_id = ? AND user_id = ?",
    BigInt(server.world.guildId),
    BigInt(memberId),
  );
  expect(await nickOf(memberId)).toBe("nick from elsewhere");
});

test("Get Guild Bans answers a ban and an unban made through another connection", async () => {
  const owner = `Bearer ${await server.tokenFor("owner")}`;
  const route = `/guilds/${server.world.guildId}/bans?limit=1000`;
  const bannedIds = async () => {
    const response = await get(owner, route);
    expect(response.status).toBe(200);
    return ((await response.json()) as Array<{ user: { id: string } }>).map((ban) => ban.user.id);
  };
  const userId = server.world.users.member;
  expect(await bannedIds()).not.toContain(userId);
  expect(await bannedIds()).not.toContain(userId); // answered from the cache
  await other.run(
    "INSERT INTO bans (guild_id, user_id, reason, created_at) VALUES (?, ?, 'elsewhere', ?)",
    BigInt(server.world.guildId),
    BigInt(userId),
    Date.now(),
  );
  expect(await bannedIds()).toContain(userId);
  await other.run("DELETE FROM bans WHERE guild_id = ? AND user_id = ?", BigInt(server.world.guildId), BigInt(userId));
  expect(await bannedIds()).not.toContain(userId);
});

test("a kept members page stops showing a timeout once it has ended, with no write in between", async () => {
  const owner = `Bearer ${await server.tokenFor("owner")}`;
  const route = `/guilds/${server.world.guildId}/members?limit=100`;
  const memberId = server.world.users.member;
  const timeoutOf = async () =>
    (
      (await (await get(owner, route)).json()) as Array<{
        user: { id: string };
        communication_disabled_until: string | null;
      }>
    ).find((member) => member.user.id === memberId)?.communication_disabled_until;
  const ends = Date.now() + 1_500;
  await other.run(
    "UPDATE members SET communication_disabled_until = ? WHERE guild_id = ? AND user_id = ?",
    ends,
    BigInt(server.world.guildId),
    BigInt(memberId),
  );
  expect(await timeoutOf()).toBe(new Date(ends).toISOString());
  expect(await timeoutOf()).toBe(new Date(ends).toISOString()); // the kept page
  await new Promise((resolve) => setTimeout(resolve, ends - Date.now() + 50));
  expect(await timeoutOf()).toBeNull();
});

// The read cache's own rules on the engine in use (read-cache.test.ts and read-scope.test.ts check them on a SQLite
// file of their own): inside a request's read scope this connection's writes and rollbacks count at once, another
// connection's commit from the next scope.
test("a read scope sees its own writes and rollbacks at once, and another connection's commit from the next scope", async () => {
  const { sql, transaction } = await import("@/lib/guild-api/store/db");
  const { readCache, readScope } = await import("@/lib/guild-api/store/read-cache");
  const guildId = BigInt(server.world.guildId);
  const nameOf = readCache((id: bigint) => sql.value<string>("SELECT name FROM guilds WHERE id = ?", id));
  const original = await sql.value<string>("SELECT name FROM guilds WHERE id = ?", guildId);
  try {
    await readScope(async () => {
      expect(await nameOf(guildId)).toBe(original);
      await sql.run("UPDATE guilds SET name = 'Own write' WHERE id = ?", guildId);
      expect(await nameOf(guildId)).toBe("Own write");
      await expect(
        transaction(async () => {
          await sql.run("UPDATE guilds SET name = 'Rolled back' WHERE id = ?", guildId);
          expect(await nameOf(guildId)).toBe("Rolled back");
          throw new Error("abort");
        }),
      ).rejects.toThrow("abort");
      expect(await nameOf(guildId)).toBe("Own write");

      // Whether this scope still answers "Own write" is not asked: the stand-in for another process lives in this one,
      // and on PostgreSQL its write is a transaction, which empties the caches here (read-scope.test.ts asks on SQLite).
      await other.run("UPDATE guilds SET name = 'From elsewhere' WHERE id = ?", guildId);
    });
    await readScope(async () => expect(await nameOf(guildId)).toBe("From elsewhere"));
  } finally {
    await sql.run("UPDATE guilds SET name = ? WHERE id = ?", original, guildId);
  }
});

// PostgreSQL: a request's read scope starts with a round trip that delivers other connections' notifications
// (store/postgresql-driver.ts, catchUp), shared by the calls waiting for the connection. Sent inside a transaction,
// it would deliver nothing (the server holds them back until the transaction ends), so it waits for another
// context's transaction to end first.
test.runIf(process.env.INTEGRATION_DATABASE === "postgresql")(
  "a catch-up counts every commit made before it, while the connection is busy or inside another context's transaction",
  async () => {
    const { caughtUpWithOtherConnections, dataVersion, sql, transaction } = await import("@/lib/guild-api/store/db");
    const guildId = BigInt(server.world.guildId);
    const countedAfterCatchUp = () => Promise.resolve(caughtUpWithOtherConnections()).then(() => dataVersion());

    // Busy with a statement: the catch-ups asked meanwhile are sent after it, and count a commit made meanwhile.
    const busy = sql.value("SELECT pg_sleep(0.3)");
    const first = countedAfterCatchUp();
    const before = dataVersion();
    await other.run("UPDATE guilds SET name = name WHERE id = ?", guildId);
    const second = countedAfterCatchUp();
    expect(await first).toBeGreaterThan(before);
    expect(await second).toBeGreaterThan(before);
    await busy;

    // Inside another context's transaction: answered once it has ended, with the commit counted.
    let end!: () => void;
    const open = transaction(async () => {
      await sql.value("SELECT 1");
      await new Promise<void>((resolve) => (end = resolve));
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const version = dataVersion();
    const elsewhere = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await elsewhere.connect();
    try {
      await elsewhere.query("UPDATE guilds SET name = name WHERE id = $1", [String(guildId)]);
    } finally {
      await elsewhere.end();
    }
    const counted = countedAfterCatchUp();
    await new Promise((resolve) => setTimeout(resolve, 100));
    end();
    await open;
    expect(await counted).toBeGreaterThan(version);
  },
);

// PostgreSQL holds a connection's notifications back while it is inside a transaction: a write that waited for the
// write lock while another instance committed would be judged by caches that commit made stale. The write stamp read
// with the lock (migration …_write_stamps) tells it.
test.runIf(process.env.INTEGRATION_DATABASE === "postgresql")(
  "a write waiting for the lock while another connection commits is judged by what that commit wrote",
  async () => {
    const helper = `Bearer ${await server.tokenFor("helper")}`;
    const guildId = BigInt(server.world.guildId);
    const helperId = BigInt(server.world.users.helper);
    const helperRole = BigInt(server.world.roles.helper);
    // Kicking nobody: 404 Unknown Member once Kick Members (from the Helper role) is granted, 403 without it.
    const kickNobody = () =>
      fetch(`${server.baseUrl}/api/v10/guilds/${server.world.guildId}/members/1000000000000000001`, {
        method: "DELETE",
        headers: { authorization: helper },
      }).then((response) => response.status);
    expect(await kickNobody()).toBe(404);
    // A read after the last write (a transaction's end empties the caches): the helper's roles are cached now.
    expect((await get(helper, `/guilds/${server.world.guildId}/audit-logs`)).status).toBe(200);

    // Another instance's transaction, on a plain connection (the store's other driver would count as this process's).
    const elsewhere = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await elsewhere.connect();
    let kick: Promise<number>;
    try {
      await elsewhere.query("BEGIN");
      await elsewhere.query("SELECT pg_advisory_xact_lock($1)", [String(WRITE_LOCK_KEY)]);
      await elsewhere.query("DELETE FROM member_roles WHERE guild_id = $1 AND user_id = $2 AND role_id = $3", [
        String(guildId),
        String(helperId),
        String(helperRole),
      ]);
      kick = kickNobody(); // its transaction begins and waits for this one's lock
      await new Promise((resolve) => setTimeout(resolve, 300));
      await elsewhere.query("COMMIT");
    } finally {
      await elsewhere.end();
    }
    try {
      expect(await kick).toBe(403);
    } finally {
      await other.run(
        "INSERT INTO member_roles (guild_id, user_id, role_id) VALUES (?, ?, ?)",
        guildId,
        helperId,
        helperRole,
      );
    }
    expect(await kickNobody()).toBe(404);
  },
);
