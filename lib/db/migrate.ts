// Applies the committed Prisma migrations to the database (prisma migrate deploy, offline with the JS engine).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { databaseUrl } from "./database-url";

export function migrateDatabase(url = databaseUrl()): void {
  const prisma = path.join(process.cwd(), "node_modules", ".bin", "prisma");
  const result = spawnSync(prisma, ["migrate", "deploy"], {
    env: { ...process.env, DATABASE_URL: url },
    encoding: "utf8",
  });
  if (result.status !== 0) {
    throw new Error(`prisma migrate deploy failed:\n${result.stdout}\n${result.stderr}`);
  }
}
