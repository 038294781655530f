// Copies Guildhall's SQLite database into an empty PostgreSQL database (`npm run db:copy`, scripts/db-copy.ts):
// PostgreSQL's migrations first, then every table in foreign-key order, batched, in one PostgreSQL transaction that
// commits only when every table's row count equals the source's. The source is read in one SQLite read transaction,
// a consistent snapshot even while Guildhall keeps writing to it. Rows are copied as stored, with the target's
// triggers off for the copy: the members' wire JSON, the presence counters and the snapshot stamp come over as
// SQLite's triggers kept them (tests/postgres/triggers-parity.test.ts shows PostgreSQL's triggers write the same),
// and PostgreSQL's own derived tables (DERIVED_TABLES) are rebuilt from the copied rows before the commit.
import Database from "better-sqlite3";
import pg from "pg";
import { migrateDatabase } from "@/lib/db/migrate";

export class CopyRefusedError extends Error {}

export interface CopyOptions {
  /** The SQLite database file. */
  from: string;
  /** A postgres:// URL of an empty database (Guildhall's migrations may already be applied to it). */
  to: string;
  /** Called with a line per step. */
  log?: (line: string) => void;
  /** The caller has just applied the PostgreSQL migrations (npm start's seed): not run a second time. */
  migrated?: boolean;
}

export interface CopiedTable {
  table: string;
  rows: number;
}

export interface CopyResult {
  tables: CopiedTable[];
  rows: number;
  milliseconds: number;
}

/** Tables whose rows the migrations write (the snapshot stamp's one row): replaced by the source's, not "data". */
const MIGRATION_SEEDED = new Set(["cache_generations"]);
const PRISMA_MIGRATIONS = "_prisma_migrations";
/**
 * PostgreSQL-only tables that triggers derive from other tables (prisma/postgresql/migrations), with the statement
 * that rebuilds each: SQLite has no such table, and the copy runs with the target's triggers off, so each is rebuilt
 * from the copied rows once they are all in, inside the copy's transaction.
 */
const DERIVED_TABLES = new Map([
  // Get Guild Prune Count's per-day counts (…_roleless_members_by_day), from members.
  ["roleless_members_by_day", "SELECT guildhall_rebuild_roleless_members_by_day()"],
  // Member search's role assignments by join date (…_role_members_by_joined_at), from member_roles and members.
  ["role_members_by_joined_at", "SELECT guildhall_rebuild_role_members_by_joined_at()"],
  // Member search's names and sort columns per member (…_member_name_keys), from members and users.
  ["member_name_keys", "SELECT guildhall_rebuild_member_name_keys()"],
  // Member search's per-day counts of members by join date (…_members_by_join_day), from members.
  ["members_by_join_day", "SELECT guildhall_rebuild_members_by_join_day()"],
]);
/** Bind parameters per INSERT stay far below PostgreSQL's 65,535; one array per column (unnest) needs only a few. */
const BATCH_ROWS = 5_000;
/** Vacuums after the first, half a second apart, while some page of the copy is not yet all-visible. */
const VACUUM_ATTEMPTS = 10;

interface TargetColumn {
  name: string;
  /** PostgreSQL's type name as unnest's array cast needs it: bigint, integer, text, boolean, bytea, timestamp(3) … */
  type: string;
}

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

export async function copySqliteToPostgresql(options: CopyOptions): Promise<CopyResult> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const source = new Database(options.from, { readonly: true, fileMustExist: true });
  source.defaultSafeIntegers(true);
  const target = new pg.Client({ connectionString: options.to });
  await target.connect();
  try {
    await refuseNonEmptyTarget(target);
    if (!options.migrated) {
      log("Applying the PostgreSQL migrations (prisma/postgresql/migrations)…");
      migrateDatabase(options.to);
    }
    const tables = await tablesInDependencyOrder(target);
    const sourceTables = new Set(
      (source.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map(
        (row) => row.name,
      ),
    );
    const missing = tables.filter((table) => !sourceTables.has(table));
    if (missing.length)
      throw new CopyRefusedError(
        `The SQLite database lacks ${missing.join(", ")}: apply its migrations first (npm start or npm run db:migrate with its DATABASE_URL).`,
      );

    // One snapshot of the source for every table and count.
    source.exec("BEGIN");
    await target.query("BEGIN");
    // Committed durably even where the server commits asynchronously (synchronous_commit=off): until the commit is
    // flushed, no row it wrote can be hinted as committed, and the vacuum below could mark no page all-visible.
    await target.query("SET LOCAL synchronous_commit = on");
    const copied: CopiedTable[] = [];
    for (const table of tables) {
      const columns = await targetColumns(target, table);
      const sourceColumns = new Set(
        (source.prepare(`PRAGMA table_info(${quote(table)})`).all() as Array<{ name: string }>).map((c) => c.name),
      );
      const absent = columns.filter((column) => !sourceColumns.has(column.name)).map((column) => column.name);
      const extra = [...sourceColumns].filter((name) => !columns.some((column) => column.name === name));
      if (absent.length || extra.length)
        throw new CopyRefusedError(
          `${table} differs between the two schemas (only in PostgreSQL: ${absent.join(", ") || "none"}; only in SQLite: ${extra.join(", ") || "none"}): both must be at the same migration.`,
        );
      const rows = await copyTable(source, target, table, columns);
      const expected = Number((source.prepare(`SELECT count(*) AS n FROM ${quote(table)}`).get() as { n: bigint }).n);
      const { rows: counted } = await target.query<{ n: string }>(`SELECT count(*) AS n FROM ${quote(table)}`);
      if (rows !== expected || Number(counted[0].n) !== expected)
        throw new Error(
          `${table}: ${expected} rows in SQLite, ${rows} read, ${counted[0].n} in PostgreSQL: nothing was copied.`,
        );
      copied.push({ table, rows: expected });
      log(`${table}: ${expected} rows`);
    }
    for (const [table, rebuild] of DERIVED_TABLES) {
      await target.query(rebuild);
      const { rows: counted } = await target.query<{ n: string }>(`SELECT count(*) AS n FROM ${quote(table)}`);
      log(`${table}: ${counted[0].n} rows, rebuilt`);
    }
    await resetSequences(target);
    await target.query("COMMIT");
    source.exec("COMMIT");
    log("Vacuuming and analyzing the copy…");
    await vacuumUntilAllVisible(target);
    const rows = copied.reduce((sum, table) => sum + table.rows, 0);
    return { tables: copied, rows, milliseconds: Math.round(performance.now() - started) };
  } catch (error) {
    await target.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    source.close();
    await target.end();
  }
}

/**
 * Statistics for the planner, and the visibility map set on every page the copy wrote: until a vacuum marks them
 * all-visible, PostgreSQL cannot answer a count from an index alone (a prune count read every heap page). A vacuum
 * can only mark rows older than every snapshot still open in the database, and one may be (autovacuum analyzing the
 * catalog the migrations changed, since before the copy committed): vacuum again, a few times, until every page is.
 * Past that, autovacuum finishes it later.
 */
async function vacuumUntilAllVisible(target: pg.Client): Promise<void> {
  await target.query("VACUUM (ANALYZE)");
  for (let attempt = 0; attempt < VACUUM_ATTEMPTS; attempt++) {
    const { rows } = await target.query<{ left: string }>(
      `SELECT COALESCE(SUM(relpages - relallvisible), 0) AS left FROM pg_class
       WHERE relkind = 'r' AND relnamespace = current_schema()::regnamespace`,
    );
    if (Number(rows[0].left) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
    await target.query("VACUUM");
  }
}

/** Refuses a target holding any row (but the migrations' own), or tables that are not Guildhall's. */
async function refuseNonEmptyTarget(target: pg.Client): Promise<void> {
  const { rows: tables } = await target.query<{ table: string }>(
    "SELECT table_name AS table FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
  );
  for (const { table } of tables) {
    if (table === PRISMA_MIGRATIONS || MIGRATION_SEEDED.has(table)) continue;
    const { rows } = await target.query<{ n: string }>(
      `SELECT count(*) AS n FROM (SELECT 1 FROM ${quote(table)} LIMIT 1) t`,
    );
    if (Number(rows[0].n) > 0)
      throw new CopyRefusedError(
        `The target database is not empty (${table} has rows): copy into a new, empty database (createdb …), nothing was changed.`,
      );
  }
}

/** Guildhall's tables, each after the tables its foreign keys reference. */
async function tablesInDependencyOrder(target: pg.Client): Promise<string[]> {
  const { rows: tables } = await target.query<{ table: string }>(
    `SELECT table_name AS table FROM information_schema.tables
     WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> ALL($1) ORDER BY table_name`,
    [[PRISMA_MIGRATIONS, ...DERIVED_TABLES.keys()]],
  );
  const { rows: references } = await target.query<{ child: string; parent: string }>(
    `SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent FROM pg_constraint c
     WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace`,
  );
  const unquote = (name: string) => name.replace(/^"|"$/g, "");
  const parents = new Map<string, string[]>();
  for (const { child, parent } of references)
    parents.set(unquote(child), [...(parents.get(unquote(child)) ?? []), unquote(parent)]);
  const ordered: string[] = [];
  const visit = (table: string, path: string[]) => {
    if (ordered.includes(table)) return;
    if (path.includes(table)) throw new Error(`Foreign keys form a cycle: ${[...path, table].join(" → ")}`);
    for (const parent of parents.get(table) ?? []) if (parent !== table) visit(parent, [...path, table]);
    ordered.push(table);
  };
  for (const { table } of tables) visit(table, []);
  return ordered;
}

async function targetColumns(target: pg.Client, table: string): Promise<TargetColumn[]> {
  const { rows } = await target.query<{ name: string; type: string }>(
    `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type FROM pg_attribute a
     WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
    [quote(table)],
  );
  return rows;
}

/** SQLite's stored value as PostgreSQL's column takes it (as text in a text-format array, or null). */
function converter(type: string): (value: unknown) => unknown {
  if (type === "boolean") return (value) => (value === null ? null : Number(value) !== 0);
  if (type === "bigint" || type === "integer" || type === "smallint")
    return (value) => (value === null ? null : String(value));
  if (type.startsWith("timestamp"))
    // Prisma's SQLite adapter stores DateTime as ISO text with an offset; SQL defaults (CURRENT_TIMESTAMP) as UTC
    // text without one; older clients as epoch milliseconds. PostgreSQL's timestamp(3) holds UTC without a zone.
    return (value) => {
      if (value === null) return null;
      const parsed =
        typeof value === "bigint" || typeof value === "number"
          ? new Date(Number(value))
          : new Date(/(Z|[+-]\d\d:?\d\d)$/.test(String(value)) ? String(value) : `${String(value).replace(" ", "T")}Z`);
      if (Number.isNaN(parsed.getTime())) throw new Error(`Not a time: ${String(value)}`);
      return parsed.toISOString().replace("T", " ").replace("Z", "");
    };
  if (type === "bytea") return (value) => value; // a Buffer; pg writes it as \x… hex
  return (value) => (value === null ? null : typeof value === "bigint" ? String(value) : value);
}

/** The table's rows in batches of BATCH_ROWS, each one INSERT … SELECT FROM unnest(one array per column). */
async function copyTable(
  source: Database.Database,
  target: pg.Client,
  table: string,
  columns: TargetColumn[],
): Promise<number> {
  // The target's triggers would recompute what the source's triggers stored; the rows come over as they are.
  await target.query(`ALTER TABLE ${quote(table)} DISABLE TRIGGER USER`);
  if (MIGRATION_SEEDED.has(table)) await target.query(`DELETE FROM ${quote(table)}`);
  const names = columns.map((column) => quote(column.name)).join(", ");
  const arrays = columns.map((column, index) => `$${index + 1}::${column.type}[]`).join(", ");
  const insert = `INSERT INTO ${quote(table)} (${names}) SELECT * FROM unnest(${arrays})`;
  const convert = columns.map((column) => converter(column.type));
  const read = source.prepare(`SELECT ${names} FROM ${quote(table)}`).raw(true);
  let batch: unknown[][] = columns.map(() => []);
  let pending = 0;
  let total = 0;
  const flush = async () => {
    if (pending === 0) return;
    await target.query({ text: insert, values: batch });
    total += pending;
    batch = columns.map(() => []);
    pending = 0;
  };
  for (const row of read.iterate() as Iterable<unknown[]>) {
    for (let i = 0; i < row.length; i++) batch[i].push(convert[i](row[i]));
    if (++pending === BATCH_ROWS) await flush();
  }
  await flush();
  await target.query(`ALTER TABLE ${quote(table)} ENABLE TRIGGER USER`);
  return total;
}

/** Serial and identity columns continue after the copied rows (Guildhall's ids are snowflakes and cuids today). */
async function resetSequences(target: pg.Client): Promise<void> {
  const { rows } = await target.query<{ table: string; column: string; sequence: string }>(
    `SELECT c.table_name AS table, c.column_name AS column, pg_get_serial_sequence(quote_ident(c.table_name), c.column_name) AS sequence
     FROM information_schema.columns c WHERE c.table_schema = current_schema()
       AND pg_get_serial_sequence(quote_ident(c.table_name), c.column_name) IS NOT NULL`,
  );
  for (const { table, column, sequence } of rows)
    await target.query(
      `SELECT setval($1, coalesce((SELECT max(${quote(column)}) FROM ${quote(table)}), 0) + 1, false)`,
      [sequence],
    );
}
