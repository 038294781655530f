// Once per run: a migrated, seeded template database. Each test file copies it and starts its own server.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { migrateDatabase } from "@/lib/db/migrate";
import { openDatabase } from "@/lib/guild-api/store/db";
import { seedDemoWorld } from "@/lib/seed/demo-world";

declare module "vitest" {
  export interface ProvidedContext {
    templateDatabase: string;
  }
}

export default function setup(project: TestProject) {
  // The seam for the integration suite's second run, against PostgreSQL (issue 19), once the built-in API's store runs
  // there: with INTEGRATION_DATABASE=postgresql this setup will start a throwaway cluster (tests/postgres/cluster.ts),
  // copy the seeded template below into a PostgreSQL template database (scripts/copy-sqlite-to-postgresql.ts), and
  // the harness will give each test file a clone (CREATE DATABASE … TEMPLATE) as its DATABASE_URL.
  if (process.env.INTEGRATION_DATABASE === "postgresql")
    throw new Error("INTEGRATION_DATABASE=postgresql: the built-in guild API's store does not run on PostgreSQL yet.");
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
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
