// Many rows of one table in few INSERTs (one per MAX_VALUES bound values), for the dashboard's hot bulk writes (a
// batch of history entries, a batch of cases). Prisma's createMany compiles every row of its data: 50 history entries cost 30–39 ms of this process's one
// thread (0.6 ms a row), where the same rows in one statement cost 3 ms; a scheduler ending 10,000 temporary bans
// spends that 10,000 times. Values are bound, never spliced: a Date goes through the driver adapter as Prisma's own
// writes do (SQLite's ISO text, PostgreSQL's timestamp), so the rows read back through Prisma like any other.
import { randomBytes } from "node:crypto";
import { dashboardOnPostgresql } from "@/lib/dashboard/db";
import type { Prisma } from "@/lib/generated/prisma";

type Tx = Pick<Prisma.TransactionClient, "$executeRawUnsafe">;
type Value = string | number | boolean | Date | null;

let sequence = 0;

/**
 * A new row id, as Prisma's cuid() defaults are: unique, and in the order made within this process (rows written in
 * the same millisecond keep their order where the history sorts by time, then id).
 */
export function newRowId(): string {
  sequence = (sequence + 1) % 36 ** 4;
  return `c${Date.now().toString(36)}${sequence.toString(36).padStart(4, "0")}${randomBytes(6).toString("hex")}`;
}

/**
 * Values bound per statement: under SQLite's limit in this build (32,766) and PostgreSQL's (65,535). A members-page
 * job's end makes up to 25,000 cases at once, 17 values each: they go in several statements.
 */
const MAX_VALUES = 30_000;

/**
 * The statements inserting the rows into `table` (its mapped name, a constant of the caller's), to await in order
 * or to put in a transaction's list: one per MAX_VALUES values. Every row names the same columns (those left out take
 * their defaults: one statement cannot leave a column out for some rows only).
 */
export function insertRows(tx: Tx, table: string, rows: ReadonlyArray<Record<string, Value>>) {
  if (rows.length === 0) return [];
  const columns = Object.keys(rows[0]);
  for (const row of rows)
    if (Object.keys(row).length !== columns.length || columns.some((column) => row[column] === undefined))
      throw new Error(`insertRows(${table}): every row must name the same columns`);
  const perStatement = Math.floor(MAX_VALUES / columns.length);
  const statements = [];
  for (let at = 0; at < rows.length; at += perStatement)
    statements.push(insertStatement(tx, table, columns, rows.slice(at, at + perStatement)));
  return statements;
}

function insertStatement(tx: Tx, table: string, columns: string[], rows: ReadonlyArray<Record<string, Value>>) {
  // Parameters in each driver's own form (Prisma's Sql helpers belong to one generated client, and the dashboard
  // has two: they would not pass between them).
  let n = 0;
  const placeholder = dashboardOnPostgresql() ? () => `$${++n}` : () => "?";
  const tuples = rows.map(() => `(${columns.map(placeholder).join(", ")})`).join(", ");
  // Table and column names are the callers' constants, quoted for PostgreSQL's camelCase columns (SQLite takes the
  // quotes too). The dashboard's one INSERT of its own, for the reason above.
  // eslint-disable-next-line no-restricted-syntax
  const statement = ["INSERT INTO", `"${table}"`, `(${columns.map((c) => `"${c}"`).join(", ")})`, "VALUES", tuples];
  return tx.$executeRawUnsafe(statement.join(" "), ...rows.flatMap((row) => columns.map((column) => row[column])));
}
