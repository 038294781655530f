// npm run db:copy: the demo world's SQLite database into an empty PostgreSQL database, every row of every table as it
// was (compared value by value), counts printed; a non-empty target is refused and left as it was; a copy that fails
// part-way leaves nothing behind (one transaction).
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import pg from "pg";
import { expect, test } from "vitest";
import { BothDatabases, memberNameKeys, membersByJoinDay, newPostgresDatabase, newSqliteDatabase } from "./databases";

const run = promisify(execFile);
const ROOT = new URL("../..", import.meta.url).pathname;
const TSX = path.join(ROOT, "node_modules", ".bin", "tsx");

async function dbCopy(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(TSX, ["scripts/db-copy.ts", ...args], { cwd: ROOT, env: { ...process.env, DATABASE_URL: "" } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

/** One value as text, the same for SQLite's storage and PostgreSQL's type (booleans, times, bytes, big integers). */
function canonical(value: unknown, type: string): string {
  if (value === null || value === undefined) return "null";
  if (type === "boolean") return String(value === true || Number(value) === 1);
  if (type.startsWith("timestamp")) {
    const date =
      typeof value === "bigint"
        ? new Date(Number(value))
        : value instanceof Date
          ? value
          : new Date(/(Z|[+-]\d\d:?\d\d)$/.test(String(value)) ? String(value) : `${String(value).replace(" ", "T")}Z`);
    return date.toISOString();
  }
  if (Buffer.isBuffer(value)) return `\\x${value.toString("hex")}`;
  return String(value);
}

async function tableContents(sqliteFile: string, url: string) {
  const sqlite = new Database(sqliteFile, { readonly: true });
  sqlite.defaultSafeIntegers(true);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  // Times as UTC text, not Dates in the test process's zone.
  await client.query("SET TIME ZONE 'UTC'");
  const contents: Record<string, { sqlite: string[]; postgres: string[] }> = {};
  try {
    // The PostgreSQL-only tables derived from members are checked on their own (expect…Rebuilt).
    const { rows: tables } = await client.query<{ table: string }>(
      "SELECT table_name AS table FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name NOT IN ('_prisma_migrations', 'roleless_members_by_day', 'role_members_by_joined_at', 'member_name_keys', 'members_by_join_day')",
    );
    for (const { table } of tables) {
      const { rows: columns } = await client.query<{ name: string; type: string }>(
        "SELECT column_name AS name, data_type AS type FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1 ORDER BY ordinal_position",
        [table],
      );
      const list = columns.map((c) => `"${c.name}"`).join(", ");
      const render = (row: Record<string, unknown>) =>
        columns.map((c) => `${c.name}=${canonical(row[c.name], c.type)}`).join(" ");
      contents[table] = {
        sqlite: (sqlite.prepare(`SELECT ${list} FROM "${table}"`).all() as Array<Record<string, unknown>>)
          .map(render)
          .sort(),
        postgres: (await client.query(`SELECT ${list} FROM "${table}"`)).rows.map(render).sort(),
      };
    }
  } finally {
    sqlite.close();
    await client.end();
  }
  return contents;
}

/**
 * roleless_members_by_day (PostgreSQL only, kept by triggers the copy turns off): rebuilt by the copy, it holds each
 * guild's members without roles per UTC day of last activity, as counted here from the SQLite source.
 */
async function expectRolelessCountsRebuilt(sqliteFile: string, url: string): Promise<void> {
  const sqlite = new Database(sqliteFile, { readonly: true });
  sqlite.defaultSafeIntegers(true);
  const expected = new Map<string, number>();
  for (const m of sqlite.prepare("SELECT guild_id, last_active_at FROM members WHERE role_count = 0").all() as Array<{
    guild_id: bigint;
    last_active_at: bigint;
  }>) {
    const key = `${m.guild_id}:${Math.floor(Number(m.last_active_at) / 86_400_000)}`;
    expected.set(key, (expected.get(key) ?? 0) + 1);
  }
  sqlite.close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ key: string; n: number }>(
      "SELECT guild_id || ':' || day AS key, member_count AS n FROM roleless_members_by_day",
    );
    expect(new Map(rows.map((r) => [r.key, r.n]))).toEqual(expected);
    expect(expected.size).toBeGreaterThan(1);
  } finally {
    await client.end();
  }
}

/**
 * role_members_by_joined_at (PostgreSQL only, kept by triggers the copy turns off): rebuilt by the copy, it holds every
 * role assignment with its member's join date, as the SQLite source's member_roles joined to members gives them.
 */
async function expectRoleMembersByJoinedAtRebuilt(sqliteFile: string, url: string): Promise<void> {
  const sqlite = new Database(sqliteFile, { readonly: true });
  sqlite.defaultSafeIntegers(true);
  const expected = (
    sqlite
      .prepare(
        `SELECT r.guild_id || ':' || r.user_id || ':' || r.role_id || ':' || m.joined_at AS row
         FROM member_roles r JOIN members m ON m.guild_id = r.guild_id AND m.user_id = r.user_id`,
      )
      .all() as Array<{ row: string }>
  )
    .map((r) => r.row)
    .sort();
  sqlite.close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ row: string }>(
      "SELECT guild_id || ':' || user_id || ':' || role_id || ':' || joined_at AS row FROM role_members_by_joined_at",
    );
    expect(rows.map((r) => r.row).sort()).toEqual(expected);
    expect(expected.length).toBeGreaterThan(1);
  } finally {
    await client.end();
  }
}

/** Rows of the tables the demo world leaves empty, stored as the dashboard's Prisma client and SQL defaults store them. */
function addDashboardRows(file: string): void {
  const db = new Database(file);
  db.exec(`
    INSERT INTO images (kind, owner_id, hash, content_type, data) VALUES ('icon', 1, 'abc', 'image/png', x'89504e470d0a1a0a00ff');
    INSERT INTO dashboard_users (id, name, email, emailVerified) VALUES ('u1', 'Mod', 'mod@example.test', '2026-11-25T19:05:08.273+00:00');
    INSERT INTO dashboard_accounts (id, userId, type, provider, providerAccountId, expires_at) VALUES ('a1', 'u1', 'oauth', 'guildhall', '42', 1900000000);
    INSERT INTO dashboard_sessions (id, sessionToken, userId, expires) VALUES ('s1', 'token', 'u1', '2026-12-25T00:00:00.000+00:00');
    INSERT INTO audit_history_entries (id, guildId, actorId, actorName, action, status, actorBot, createdAt)
      VALUES ('h1', '1', '2', 'Bot', 'Create Guild Ban', 'success', 1, '2026-11-25T19:05:08.999+00:00');
    INSERT INTO guild_audit_log_syncs (guildId, backfilled) VALUES ('1', 1);
    INSERT INTO bulk_ban_jobs (id, guildId, actorId, actorName, status, updatedAt) VALUES ('j1', '1', '2', 'Mod', 'ready', 1764097508273);
    INSERT INTO bulk_ban_items (jobId, userId, state) VALUES ('j1', '5', 'pending'), ('j1', '6', 'skipped');
    INSERT INTO table_preferences (userId, tableId, hiddenColumns, updatedAt) VALUES ('2', 'members', '["roles"]', '2026-11-29T00:55:27.244+00:00');
  `);
  db.close();
}

test("the demo world is copied whole, table by table, with its counts printed; a second copy into it is refused", async () => {
  const source = newSqliteDatabase();
  addDashboardRows(source);
  const url = await newPostgresDatabase(null);
  const copied = await dbCopy("--to", url, "--from", `file:${source}`);
  expect(copied.stderr).toBe("");
  expect(copied.code).toBe(0);
  expect(copied.stdout).toMatch(/members: \d+ rows/);
  expect(copied.stdout).toMatch(/Copied \d+ rows in \d+ tables in [\d.]+ s; every table's count matches the source\./);

  const contents = await tableContents(source, url);
  expect(Object.keys(contents).length).toBeGreaterThan(30);
  let rows = 0;
  for (const [table, { sqlite, postgres }] of Object.entries(contents)) {
    expect({ table, rows: postgres }).toEqual({ table, rows: sqlite });
    rows += sqlite.length;
  }
  expect(rows).toBeGreaterThan(100);
  // Times stored three ways (ISO with an offset, CURRENT_TIMESTAMP's text, epoch milliseconds), booleans and bytes.
  // The planted icon, beside the demo world's expression files (3 emoji, 2 stickers, 3 sounds), each byte for byte
  // as the loop above compared them.
  expect(contents.images.postgres).toContain(
    "kind=icon owner_id=1 hash=abc content_type=image/png data=\\x89504e470d0a1a0a00ff",
  );
  expect(contents.images.postgres.map((row) => row.split(" ")[0]).sort()).toEqual([
    ...Array<string>(3).fill("kind=emojis"),
    "kind=icon",
    ...Array<string>(3).fill("kind=soundboard-sounds"),
    ...Array<string>(2).fill("kind=stickers"),
  ]);
  expect(contents.dashboard_users.postgres[0]).toContain("emailVerified=2026-11-25T19:05:08.273Z");
  expect(contents.audit_history_entries.postgres[0]).toContain("actorBot=true");
  expect(contents.bulk_ban_jobs.postgres[0]).toContain("updatedAt=2025-11-25T19:05:08.273Z");
  expect(contents.guild_audit_log_syncs.postgres[0]).toMatch(/syncedAt=20\d\d-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z/);
  expect(contents.bulk_ban_items.postgres).toHaveLength(2);
  expect(contents.table_preferences.postgres).toEqual([
    'userId=2 tableId=members hiddenColumns=["roles"] updatedAt=2026-11-29T00:55:27.244Z',
  ]);
  expect(copied.stdout).toMatch(/roleless_members_by_day: \d+ rows, rebuilt/);
  await expectRolelessCountsRebuilt(source, url);
  expect(copied.stdout).toMatch(/role_members_by_joined_at: \d+ rows, rebuilt/);
  await expectRoleMembersByJoinedAtRebuilt(source, url);
  // member_name_keys and members_by_join_day (kept by triggers the copy turns off): from the source's members.
  expect(copied.stdout).toMatch(/member_name_keys: \d+ rows, rebuilt/);
  expect(copied.stdout).toMatch(/members_by_join_day: \d+ rows, rebuilt/);
  const both = await BothDatabases.open(source, url);
  try {
    const nameKeys = await memberNameKeys(both);
    expect(nameKeys.postgres).toEqual(nameKeys.sqlite);
    expect(nameKeys.sqlite.length).toBeGreaterThan(5);
    const joinDays = await membersByJoinDay(both);
    expect(joinDays.postgres).toEqual(joinDays.sqlite);
    expect(Object.keys(joinDays.sqlite).length).toBeGreaterThan(1);
  } finally {
    await both.close();
  }

  // Vacuumed and analyzed: statistics for the planner, every page of members all-visible (index-only counts).
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows: members } = await client.query<{ pages: number; visible: number; analyzed: Date | null }>(
    `SELECT c.relpages AS pages, c.relallvisible AS visible, s.last_analyze AS analyzed
     FROM pg_class c JOIN pg_stat_user_tables s ON s.relid = c.oid WHERE c.relname = 'members'`,
  );
  await client.end();
  expect(members[0].pages).toBeGreaterThan(0);
  expect(members[0].visible).toBe(members[0].pages);
  expect(members[0].analyzed).not.toBeNull();

  const again = await dbCopy("--to", url, "--from", `file:${source}`);
  expect(again.code).toBe(1);
  expect(again.stderr).toContain("The target database is not empty");
  expect(await tableContents(source, url)).toEqual(contents);
});

test("a database holding other tables with rows is refused before anything is created in it", async () => {
  const url = await newPostgresDatabase(null);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("CREATE TABLE someone_elses (id int); INSERT INTO someone_elses VALUES (1)");
    const refused = await dbCopy("--to", url, "--from", `file:${newSqliteDatabase()}`);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("someone_elses has rows");
    const { rows } = await client.query(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
    );
    expect(rows).toEqual([{ table_name: "someone_elses" }]);
  } finally {
    await client.end();
  }
});

test("a row PostgreSQL cannot take fails the copy and leaves every table empty", async () => {
  const source = newSqliteDatabase();
  const sqlite = new Database(source);
  // SQLite's TEXT holds a NUL character; PostgreSQL's text cannot.
  sqlite.prepare("UPDATE users SET global_name = 'nul' || char(0) || 'inside' WHERE username = 'member'").run();
  sqlite.close();
  const url = await newPostgresDatabase(null);
  const failed = await dbCopy("--to", url, "--from", `file:${source}`);
  expect(failed.code).toBe(1);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const table of ["users", "guilds", "members", "roles", "channels"]) {
      const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM "${table}"`);
      expect({ table, rows: Number(rows[0].n) }).toEqual({ table, rows: 0 });
    }
  } finally {
    await client.end();
  }
  // Fixed at the source, the copy goes through into the same database.
  const fixed = new Database(source);
  fixed.prepare("UPDATE users SET global_name = 'Member' WHERE username = 'member'").run();
  fixed.close();
  expect((await dbCopy("--to", url, "--from", `file:${source}`)).code).toBe(0);
});

test("bad arguments get the usage line", async () => {
  const usage = await dbCopy("--from", "file:/tmp/x.db");
  expect(usage.code).toBe(2);
  expect(usage.stderr).toContain("usage: npm run db:copy -- --to postgres://");
  const wrong = await dbCopy("--to", "file:/tmp/y.db");
  expect(wrong.code).toBe(2);
  expect(wrong.stderr).toContain("--to must be a postgres:// URL");
});
