// The app as the browser tests see it: a fresh database in a temp folder, seeded with the demo world
// (redirect URIs registered for PUBLIC_URL), the production build, and the one-port server.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "guildhall-e2e-"));
process.env.DATABASE_URL = `file:${path.join(dir, "e2e.db")}`;
(process.env as Record<string, string>).NODE_ENV = "production";
process.env.NEXT_TELEMETRY_DISABLED = "1";
process.env.PORT = process.env.E2E_PORT ?? "3210";
process.env.HOST = "127.0.0.1";
// Written for the tests (ids, demo secrets), read by tests/e2e/world.ts.
process.env.GUILDHALL_E2E_STATE = path.join(os.tmpdir(), `guildhall-e2e-${process.env.PORT}.json`);

async function serve(): Promise<void> {
  const { seed } = await import("../../scripts/seed");
  seed({ quiet: true });
  fs.writeFileSync(process.env.GUILDHALL_E2E_STATE!, JSON.stringify({ databaseUrl: process.env.DATABASE_URL }));
  const { main } = await import("../../server");
  await main();
  process.on("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
}

void serve();
