// Once per `npm run test:postgres`: a throwaway PostgreSQL cluster (tests/postgres/cluster.ts) with a migrated
// template database, and a migrated SQLite template seeded with the demo world. Each test file clones what it needs
// (CREATE DATABASE … TEMPLATE, a file copy), so no test sees another's rows. PostgreSQL missing fails the run.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { migrateDatabase } from "@/lib/db/migrate";
import { openDatabase } from "@/lib/guild-api/store/db";
import { seedDemoWorld } from "@/lib/seed/demo-world";
import { startPostgresCluster } from "./cluster";

declare module "vitest" {
  export interface ProvidedContext {
    /** Superuser URL of the cluster's maintenance database. */
    postgresAdminUrl: string;
    /** A database with every PostgreSQL migration applied, to clone. */
    postgresTemplate: string;
    /** A migrated SQLite file seeded with the demo world, to copy. */
    sqliteDemoTemplate: string;
    /** A migrated SQLite file with no rows but the migrations' own, to copy. */
    sqliteEmptyTemplate: string;
    /** A folder for the run's files (SQLite copies, backups), deleted with the cluster. */
    scratchDirectory: string;
  }
}

export const POSTGRES_TEMPLATE = "guildhall_template";

export default async function setup(project: TestProject) {
  const cluster = await startPostgresCluster();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "guildhall-pg-it-"));
  try {
    migrateDatabase(await cluster.createDatabase(POSTGRES_TEMPLATE));
    const empty = path.join(dir, "empty.db");
    migrateDatabase(`file:${empty}`);
    const demo = path.join(dir, "demo.db");
    migrateDatabase(`file:${demo}`);
    // The seed writes the demo's secrets beside the database DATABASE_URL names: this one, not the project's.
    const previous = process.env.DATABASE_URL;
    process.env.DATABASE_URL = `file:${demo}`;
    const db = openDatabase(demo);
    try {
      seedDemoWorld(db);
      db.pragma("wal_checkpoint(TRUNCATE)");
    } finally {
      db.close();
      if (previous === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = previous;
    }
    project.provide("postgresAdminUrl", cluster.url());
    project.provide("postgresTemplate", POSTGRES_TEMPLATE);
    project.provide("sqliteDemoTemplate", demo);
    project.provide("sqliteEmptyTemplate", empty);
    project.provide("scratchDirectory", dir);
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return async () => {
    await cluster.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
