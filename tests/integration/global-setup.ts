// Once per run: a migrated, seeded template database. Each test file copies it and starts its own server.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { migrateDatabase } from "@/lib/db/migrate";
import { openDatabase } from "@/lib/guild-api/store/db";
import { seedDemoWorld } from "@/lib/seed/demo-world";
import { copySqliteToPostgresql } from "@/scripts/copy-sqlite-to-postgresql";
import { startPostgresCluster } from "../postgres/cluster";

declare module "vitest" {
  export interface ProvidedContext {
    /** The migrated SQLite file seeded with the demo world (its secrets beside it). */
    templateDatabase: string;
    /** With INTEGRATION_DATABASE=postgresql: the cluster's superuser URL and the seeded template database's name. */
    integrationPostgres: { adminUrl: string; template: string } | null;
  }
}

/** The PostgreSQL template the harness clones per file (INTEGRATION_DATABASE=postgresql). */
const POSTGRES_TEMPLATE = "guildhall_integration_template";

export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "guildhall-it-"));
  const file = path.join(dir, "template.db");
  const url = `file:${file}`;
  const previous = process.env.DATABASE_URL;
  process.env.DATABASE_URL = url;
  migrateDatabase(url);
  const db = openDatabase(file);
  seedDemoWorld(db);
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
  if (previous === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = previous;
  project.provide("templateDatabase", file);
  project.provide("integrationPostgres", null);
  const removeFiles = () => fs.rmSync(dir, { recursive: true, force: true });
  // The second run of the suite (.ci/run): the same seeded world, copied into a PostgreSQL template database on a
  // throwaway cluster; the harness gives each test file a clone of it (CREATE DATABASE … TEMPLATE).
  if (process.env.INTEGRATION_DATABASE !== "postgresql") return removeFiles;
  const cluster = await startPostgresCluster();
  try {
    await copySqliteToPostgresql({ from: file, to: await cluster.createDatabase(POSTGRES_TEMPLATE) });
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  project.provide("integrationPostgres", { adminUrl: cluster.url(), template: POSTGRES_TEMPLATE });
  return async () => {
    await cluster.stop();
    removeFiles();
  };
}
