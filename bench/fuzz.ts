// The long fuzz pass of issue 12 (run by `npm run bench`, or alone: `tsx bench/fuzz.ts`). The same generators and
// properties as tests/security/fuzz, FUZZ_RUNS requests per operation (default 500) instead of the suite's 16, and
// every failure collected instead of stopping at the first: prints the request count, the failure count and one line
// per distinct cause with an example request. Its own seeded database in a temporary directory, a fresh copy per
// operation; the bench database is never touched. Exit code 1 when anything failed.
import "@/tests/security/fuzz/rate-limits-off";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { apiRoutes } from "@/lib/guild-api/routes";
import { DEFAULT_SEED, groupFailures, sweepOperation } from "@/tests/security/fuzz/campaign";
import type { Verdict } from "@/tests/security/fuzz/engine";

const RUNS = Number(process.env.FUZZ_RUNS ?? 500);
const SEED = Number(process.env.FUZZ_SEED ?? DEFAULT_SEED);

async function seededTemplate(dir: string): Promise<string> {
  const file = path.join(dir, "template.db");
  process.env.DATABASE_URL = `file:${file}`;
  const { migrateDatabase } = await import("@/lib/db/migrate");
  const { openDatabase } = await import("@/lib/guild-api/store/db");
  const { seedDemoWorld } = await import("@/lib/seed/demo-world");
  migrateDatabase(process.env.DATABASE_URL);
  const db = openDatabase(file);
  seedDemoWorld(db);
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
  return file;
}

async function main(): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "guildhall-bench-fuzz-"));
  try {
    const template = await seededTemplate(dir);
    const started = performance.now();
    let requests = 0;
    const failures: Array<{ key: string; verdict: Verdict }> = [];
    const statuses: Record<number, number> = {};
    for (const route of apiRoutes) {
      const key = `${route.method} ${route.path}`;
      const result = await sweepOperation(template, key, RUNS, SEED);
      if (!result) {
        failures.push({
          key,
          verdict: { request: noGenerator(route.method), answer: null, problems: ["no generator"] },
        });
        continue;
      }
      requests += result.requests;
      for (const [status, count] of Object.entries(result.statuses))
        statuses[Number(status)] = (statuses[Number(status)] ?? 0) + count;
      if (process.env.FUZZ_VERBOSE) console.log(`${key}: ${JSON.stringify(result.statuses)}`);
      for (const verdict of result.failures) failures.push({ key, verdict });
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `Fuzz: ${requests.toLocaleString("en-US")} requests to ${apiRoutes.length} operations in ${seconds.toFixed(1)} s ` +
        `(seed ${SEED}, ${RUNS} per operation): ${failures.length.toLocaleString("en-US")} failures`,
    );
    console.log(`  answers by status: ${JSON.stringify(statuses)}`);
    for (const line of groupFailures(failures)) console.log(`  ${line}`);
    return failures.length === 0 ? 0 : 1;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const noGenerator = (method: string) => ({ caller: "none" as const, method, path: "", query: "", variant: "none" });

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
