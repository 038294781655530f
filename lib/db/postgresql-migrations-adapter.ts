// Prisma's pg driver adapter as the Prisma CLI needs it to run migrations on PostgreSQL (migrate deploy, migrate diff,
// migrate status) with the JS engine, working around faults of @prisma/adapter-pg 6.19 that stop every migration
// command otherwise (and a third, below, that made migrate diff write to the real database):
// 1. The schema engine reads PostgreSQL's catalogue, whose columns are of the internal types `name` and `"char"`;
//    the adapter refuses them ("Column type 'name' could not be deserialized from the database", prisma/orm#27403).
//    Both are text, so the connections report them as text.
// 2. The adapter runs a migration script by splitting it at every ";", which cuts a plpgsql function body (the
//    triggers' functions in prisma/postgresql/migrations) apart. The script is sent whole instead, as one simple
//    query, which PostgreSQL runs as one implicit transaction: a migration applies completely or not at all.
// The dashboard's Prisma client does not need this (lib/dashboard/db.ts uses PrismaPg as it is).
import { randomUUID } from "node:crypto";
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";

/** PostgreSQL's type oids of `"char"` (pg_class.relkind, …), `name` (identifiers) and text. */
const CATALOGUE_TEXT_TYPES = new Set([18, 19]);
const TEXT_TYPE = 25;

function reportCatalogueTypesAsText<T>(result: T): T {
  for (const set of Array.isArray(result) ? result : [result]) {
    const fields = (set as Partial<pg.QueryResult> | undefined)?.fields;
    for (const field of fields ?? []) if (CATALOGUE_TEXT_TYPES.has(field.dataTypeID)) field.dataTypeID = TEXT_TYPE;
  }
  return result;
}

/** A pg client whose results describe catalogue text columns as text (fault 1). */
class CatalogueTextClient extends pg.Client {
  // pg's query() has many overloads (promise or callback, text or config); both result paths are rewritten.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(...args: any[]): any {
    const last: unknown = args[args.length - 1];
    if (typeof last === "function") {
      args[args.length - 1] = (error: Error | null, result: unknown) =>
        (last as (error: Error | null, result: unknown) => void)(
          error,
          error ? result : reportCatalogueTypesAsText(result),
        );
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      return (super.query as (...a: any[]) => unknown)(...args);
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const pending = (super.query as (...a: any[]) => unknown)(...args);
    return pending instanceof Promise ? pending.then(reportCatalogueTypesAsText) : pending;
  }
}

type MigrationConnection = Awaited<ReturnType<PrismaPg["connect"]>>;

/**
 * Runs each migration script whole (fault 2), through the adapter's own executeRaw so a failure reads as PostgreSQL's
 * error: without parameters, pg sends it with the simple query protocol, which takes many statements.
 */
function withWholeScripts(connection: MigrationConnection): MigrationConnection {
  connection.executeScript = async (script: string) => {
    await connection.executeRaw({ sql: script, args: [], argTypes: [] });
  };
  return connection;
}

class PrismaPgForMigrations extends PrismaPg {
  constructor(private readonly url: string) {
    super({ connectionString: url, Client: CatalogueTextClient });
  }

  override async connect(): Promise<MigrationConnection> {
    return withWholeScripts(await super.connect());
  }

  /**
   * Fault 3: the adapter's own shadow database connection keeps the connection string, whose database wins over the
   * shadow's name, so `migrate diff --from-migrations` replays the migrations into the real database (seen failing on
   * its first existing table; on an empty database it would create every table there). The shadow database is
   * reached by its own URL here, and dropped when the CLI lets it go.
   */
  override async connectToShadowDb(): Promise<MigrationConnection> {
    const main = await this.connect();
    const name = `prisma_migrate_shadow_db_${randomUUID().replace(/-/g, "")}`;
    await main.executeScript(`CREATE DATABASE "${name}"`);
    const shadowUrl = new URL(this.url);
    shadowUrl.pathname = `/${name}`;
    const shadow = await new PrismaPgForMigrations(shadowUrl.toString()).connect();
    const disposeShadow = shadow.dispose.bind(shadow);
    shadow.dispose = async () => {
      await disposeShadow();
      await main.executeScript(`DROP DATABASE IF EXISTS "${name}"`);
      await main.dispose();
    };
    return shadow;
  }
}

/** The driver adapter prisma.config.ts gives the Prisma CLI for a PostgreSQL DATABASE_URL. */
export function postgresqlMigrationsAdapter(url: string): PrismaPg {
  return new PrismaPgForMigrations(url);
}
