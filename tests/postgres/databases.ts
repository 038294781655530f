// Databases for one test: a PostgreSQL database cloned from the migrated template, a SQLite file copied from a
// template, and dialect-neutral statements run on both (the parity tests write the same rows to each).
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { inject } from "vitest";

let clones = 0;

/** A new PostgreSQL database: empty but for `template` (default: every migration applied). Returns its URL. */
export async function newPostgresDatabase(template: string | null = inject("postgresTemplate")): Promise<string> {
  const admin = new pg.Client({ connectionString: inject("postgresAdminUrl") });
  await admin.connect();
  const name = `test_${process.pid}_${++clones}`;
  try {
    await admin.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ""}`);
  } finally {
    await admin.end();
  }
  const url = new URL(inject("postgresAdminUrl"));
  url.pathname = `/${name}`;
  return url.toString();
}

/** A copy of a SQLite template (the seeded demo world by default), as a file path. */
export function newSqliteDatabase(template: string = inject("sqliteDemoTemplate")): string {
  const dir = fs.mkdtempSync(path.join(inject("scratchDirectory"), "sqlite-"));
  const file = path.join(dir, "guildhall.db");
  fs.copyFileSync(template, file);
  return file;
}

export type Value = string | number | bigint | boolean | null;

/**
 * The same statement on SQLite and PostgreSQL: `?` placeholders (numbered for PostgreSQL), booleans as 1/0 for
 * SQLite, bigints as text for PostgreSQL. Both run it, or both must refuse it.
 */
export class BothDatabases {
  constructor(
    readonly sqlite: Database.Database,
    readonly postgres: pg.Client,
  ) {}

  static async open(sqliteFile: string, postgresUrl: string): Promise<BothDatabases> {
    const sqlite = new Database(sqliteFile);
    sqlite.defaultSafeIntegers(true);
    const postgres = new pg.Client({ connectionString: postgresUrl });
    await postgres.connect();
    return new BothDatabases(sqlite, postgres);
  }

  async run(statement: string, params: Value[] = []): Promise<void> {
    let n = 0;
    const numbered = statement.replace(/\?/g, () => `$${++n}`);
    const sqliteError = this.attempt(() =>
      this.sqlite.prepare(statement).run(...params.map((p) => (typeof p === "boolean" ? (p ? 1 : 0) : p))),
    );
    let postgresError: unknown;
    try {
      await this.postgres.query(
        numbered,
        params.map((p) => (typeof p === "bigint" ? p.toString() : p)),
      );
    } catch (error) {
      postgresError = error;
    }
    if (Boolean(sqliteError) !== Boolean(postgresError))
      throw new Error(
        `Only one database refused ${statement}: SQLite ${String(sqliteError ?? "ran it")}; PostgreSQL ${String(postgresError ?? "ran it")}`,
      );
    if (sqliteError) throw Object.assign(new Error(`Both refused: ${String(sqliteError)}`), { bothRefused: true });
  }

  private attempt(fn: () => void): unknown {
    try {
      fn();
      return undefined;
    } catch (error) {
      return error;
    }
  }

  async close(): Promise<void> {
    this.sqlite.close();
    await this.postgres.end();
  }
}

/**
 * PostgreSQL's member_name_keys and SQLite's members joined to users, as sorted rows of the key, the sort's columns
 * and the three names lower-cased (SQLite's lower() folds ASCII only: JavaScript lowers its names, as PostgreSQL's
 * lower() does in the database's collation).
 */
export async function memberNameKeys(both: BothDatabases): Promise<{ sqlite: string[]; postgres: string[] }> {
  type Row = [bigint | string, bigint | string, bigint | string, string, string, string | null, string | null];
  const line = (row: Row) => JSON.stringify(row.map((value) => (value === null ? null : String(value))));
  const sqlite = (
    both.sqlite
      .prepare(
        `SELECT m.guild_id, m.user_id, m.joined_at, m.username_key, u.username, u.global_name, m.nick
         FROM members m JOIN users u ON u.id = m.user_id`,
      )
      .raw(true)
      .all() as Row[]
  ).map(([guildId, userId, joinedAt, key, username, globalName, nick]) =>
    line([
      guildId,
      userId,
      joinedAt,
      key,
      username.toLowerCase(),
      globalName?.toLowerCase() ?? null,
      nick?.toLowerCase() ?? null,
    ]),
  );
  const postgres = (
    await both.postgres.query<Row>({
      text: `SELECT guild_id, user_id, joined_at, username_key, username_lower, global_name_lower, nick_lower
             FROM member_name_keys`,
      rowMode: "array",
    })
  ).rows.map(line);
  return { sqlite: sqlite.sort(), postgres: postgres.sort() };
}

type DayCounts = { sqlite: Record<string, number>; postgres: Record<string, number> };

/**
 * SQLite's members grouped by UTC day of a time column (`filter`ed), and the PostgreSQL table that counts them per day
 * (days left at 0 aside), both as "guild:day" → count.
 */
async function dayCounts(both: BothDatabases, column: string, table: string, filter = "TRUE"): Promise<DayCounts> {
  // Integer division is the floor for the non-negative times here.
  const sqlite = both.sqlite
    .prepare(
      `SELECT guild_id || ':' || (${column} / 86400000) AS key, COUNT(*) AS n FROM members WHERE ${filter}
       GROUP BY guild_id, ${column} / 86400000`,
    )
    .all() as Array<{ key: string; n: bigint | number }>;
  const postgres = (
    await both.postgres.query<{ key: string; n: number }>(
      `SELECT guild_id || ':' || day AS key, member_count AS n FROM ${table} WHERE member_count <> 0`,
    )
  ).rows;
  const record = (rows: Array<{ key: string; n: bigint | number }>) =>
    Object.fromEntries(rows.map((r) => [r.key, Number(r.n)]));
  return { sqlite: record(sqlite), postgres: record(postgres) };
}

/** PostgreSQL's roleless_members_by_day and SQLite's members without roles by UTC day of last activity. */
export const rolelessByDay = (both: BothDatabases) =>
  dayCounts(both, "last_active_at", "roleless_members_by_day", "role_count = 0");

/** PostgreSQL's members_by_join_day and SQLite's members by UTC day of joining. */
export const membersByJoinDay = (both: BothDatabases) => dayCounts(both, "joined_at", "members_by_join_day");
