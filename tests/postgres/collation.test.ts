// Text compares the same on both databases where the guild API orders or ranges by it, although this cluster's
// default collation is ICU's en-US (as production databases usually have), which SQLite's byte order is not: the
// members' name keys and guild names sort and range in byte order (COLLATE "C"), the global-name index lowers ASCII
// letters only as SQLite's lower() does, and a name substring matches case-insensitively through pg_trgm's index of
// member_name_keys as SQLite's trigram table matches it.
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { BothDatabases, newPostgresDatabase, newSqliteDatabase } from "./databases";

const NAMES = ["alice", "Bob", "bob", "_under", "Zed", "émile", "Émile", "a-b", "ab", "a b", "ÄRGER", "zz", "10", "9"];
const GUILD = 77n;

let both: BothDatabases;
beforeAll(async () => {
  both = await BothDatabases.open(newSqliteDatabase(inject("sqliteEmptyTemplate")), await newPostgresDatabase());
  await both.run("INSERT INTO guilds (id, name, owner_id, created_at) VALUES (?, 'g', 1, 0)", [GUILD]);
  for (const [i, name] of NAMES.entries()) {
    const id = BigInt(1000 + i);
    await both.run("INSERT INTO users (id, username, global_name, created_at) VALUES (?, ?, ?, 0)", [
      id,
      `user_${name}`,
      `Global ${name}`,
    ]);
    // The name keys as the API stores them (lower-cased by JavaScript), and as given: both must sort by bytes.
    await both.run(
      "INSERT INTO members (guild_id, user_id, nick, nick_key, username_key, joined_at, last_active_at) VALUES (?, ?, ?, ?, ?, 0, 0)",
      [GUILD, id, name, name, name.toLowerCase()],
    );
    await both.run("INSERT INTO guilds (id, name, owner_id, created_at) VALUES (?, ?, 1, 0)", [BigInt(2000 + i), name]);
  }
});
afterAll(() => both?.close());

async function column(
  sql: string,
  params: Array<string | bigint> = [],
): Promise<{ sqlite: string[]; postgres: string[] }> {
  let n = 0;
  const numbered = sql.replace(/\?/g, () => `$${++n}`);
  const sqlite = (
    both.sqlite
      .prepare(sql)
      .raw(true)
      .all(...params) as unknown[][]
  ).map((row) => String(row[0]));
  const postgres = (
    await both.postgres.query({ text: numbered, values: params.map(String), rowMode: "array" })
  ).rows.map((row: unknown[]) => String(row[0]));
  return { sqlite, postgres };
}

test("the name keys and guild names sort and range in byte order on both", async () => {
  for (const sql of [
    "SELECT username_key FROM members WHERE guild_id = ? ORDER BY username_key",
    "SELECT nick_key FROM members WHERE guild_id = ? ORDER BY nick_key",
    "SELECT nick_key FROM members WHERE guild_id = ? AND nick_key >= 'B' AND nick_key < 'b' ORDER BY nick_key",
    "SELECT username_key FROM members WHERE guild_id = ? AND username_key >= 'a' AND username_key < 'b' ORDER BY username_key",
  ]) {
    const { sqlite, postgres } = await column(sql, [GUILD]);
    expect({ sql, rows: postgres }).toEqual({ sql, rows: sqlite });
  }
  const guilds = await column("SELECT name FROM guilds WHERE id >= 2000 ORDER BY name");
  expect(guilds.postgres).toEqual(guilds.sqlite);
  // Byte order, not en-US: capitals first, '_' between them and small letters, accented letters last.
  expect(guilds.postgres.slice(0, 4)).toEqual(["10", "9", "Bob", "Zed"]);
  // The database's own collation would have ordered them otherwise: the C collation is doing the work.
  const defaultOrder = await both.postgres.query<{ name: string }>(
    'SELECT name FROM guilds WHERE id >= 2000 ORDER BY name COLLATE "default"',
  );
  expect(defaultOrder.rows.map((row) => row.name)).not.toEqual(guilds.postgres);
});

test("the global-name key lowers ASCII letters only, as SQLite's lower(), and is answered by its index", async () => {
  const sqlite = (
    both.sqlite.prepare("SELECT lower(global_name) AS k FROM users WHERE id >= 1000 ORDER BY k").all() as Array<{
      k: string;
    }>
  ).map((row) => row.k);
  const postgres = (
    await both.postgres.query<{ k: string }>(
      'SELECT lower(global_name COLLATE "C") AS k FROM users WHERE id >= 1000 ORDER BY k',
    )
  ).rows.map((row) => row.k);
  expect(postgres).toEqual(sqlite);
  expect(postgres).toContain("global Émile");
  await both.postgres.query("SET enable_seqscan = off");
  const plan = await both.postgres.query(
    `EXPLAIN SELECT id FROM users WHERE lower(global_name COLLATE "C") >= 'global a' AND lower(global_name COLLATE "C") < 'global b'`,
  );
  expect(JSON.stringify(plan.rows)).toContain("users_global_name_key_idx");
});

test("a name substring matches the same members, whatever its case, through member_name_keys' trigram index", async () => {
  for (const text of ["mil", "ÉMI", "bob", "ärg", "_un", "a b"]) {
    const phrase = `"${text.replace(/"/g, '""')}"`;
    const sqlite = (
      both.sqlite
        .prepare("SELECT rowid AS id FROM user_name_trigrams WHERE user_name_trigrams MATCH ? ORDER BY rowid")
        .all(`{username global_name} : ${phrase}`) as Array<{ id: bigint }>
    ).map((row) => String(row.id));
    // As store/member-search.ts matches: the pattern lowered in the database, as the stored names are.
    const pattern = `%${text.replace(/[\\%_]/g, "\\$&")}%`;
    const postgres = (
      await both.postgres.query<{ id: string }>(
        "SELECT user_id AS id FROM member_name_keys WHERE guild_id = $1 AND (username_lower LIKE lower($2) OR global_name_lower LIKE lower($2)) ORDER BY user_id",
        [String(GUILD), pattern],
      )
    ).rows.map((row) => row.id);
    expect({ text, users: postgres }).toEqual({ text, users: sqlite });
    expect(sqlite.length).toBeGreaterThan(0);
  }
  // A handful of rows would be read whole; the index is what answers a million.
  await both.postgres.query("SET enable_seqscan = off");
  const plan = await both.postgres.query(
    "EXPLAIN SELECT user_id FROM member_name_keys WHERE username_lower LIKE '%mil%'",
  );
  expect(JSON.stringify(plan.rows)).toContain("member_name_keys_trigram_idx");
});
