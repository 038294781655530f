// The store's SQLite driver: better-sqlite3 underneath (synchronous, so a statement costs what it cost before the
// store became asynchronous), one connection per process, prepared statements cached per SQL text and read mode.
// Transactions and who waits for whom: store/serialized-driver.ts.
import type Database from "better-sqlite3";
import { recordStoreStatement } from "@/lib/server/metrics";
import type { Params, RunResult } from "./driver";
import { SerializedDriver, type BeginKind, type QueryKind } from "./serialized-driver";

type Statement = Database.Statement;

// Statements past this many distinct texts are all dropped at once: member search builds its SQL per filter set, and
// a bounded cache costs less than a least-recently-used order kept on every hit of the hot static texts.
const STATEMENT_CACHE_MAX = 4096;

enum Mode {
  Objects,
  Pluck,
  Raw,
}

export class SqliteDriver extends SerializedDriver {
  private readonly statements: Array<Map<string, Statement>> = [new Map(), new Map(), new Map()];

  constructor(readonly connection: Database.Database) {
    super();
  }

  private statement(text: string, mode: Mode): Statement {
    const cache = this.statements[mode];
    let statement = cache.get(text);
    if (!statement) {
      if (cache.size >= STATEMENT_CACHE_MAX) cache.clear();
      statement = this.connection.prepare(text);
      if (mode === Mode.Pluck) statement.pluck(true);
      else if (mode === Mode.Raw) statement.raw(true);
      cache.set(text, statement);
    }
    return statement;
  }

  protected query(kind: QueryKind, text: string, params: Params): unknown {
    const started = performance.now();
    try {
      return this.runStatement(kind, text, params);
    } finally {
      recordStoreStatement(started);
    }
  }

  private runStatement(kind: QueryKind, text: string, params: Params): unknown {
    switch (kind) {
      case "get":
        return this.statement(text, Mode.Objects).get(...params);
      case "all":
        return this.statement(text, Mode.Objects).all(...params);
      case "value":
        return this.statement(text, Mode.Pluck).get(...params);
      case "values":
        return this.statement(text, Mode.Pluck).all(...params);
      case "row":
        return this.statement(text, Mode.Raw).get(...params);
      case "rows":
        return this.statement(text, Mode.Raw).all(...params);
      case "run": {
        const { changes } = this.statement(text, Mode.Objects).run(...params);
        return { changes } satisfies RunResult;
      }
    }
  }

  protected begin(kind: BeginKind): void {
    this.control(kind === "write" ? "BEGIN IMMEDIATE" : "BEGIN");
  }

  protected control(text: string): void {
    this.statement(text, Mode.Objects).run();
  }

  protected connectionInTransaction(): boolean {
    return this.connection.inTransaction;
  }

  connectionUp(): boolean {
    return this.connection.open;
  }

  dataVersion(): bigint {
    return this.statement("PRAGMA data_version", Mode.Pluck).get() as bigint;
  }

  totalChanges(): bigint {
    return this.statement("SELECT total_changes()", Mode.Pluck).get() as bigint;
  }

  protected closeConnection(): void {
    for (const cache of this.statements) cache.clear();
    this.connection.close();
  }
}
