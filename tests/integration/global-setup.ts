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
