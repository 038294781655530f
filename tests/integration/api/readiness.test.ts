// GET /readyz (issue #36): 200 while the database answers with every migration applied and the gateway accepts
// connections; 503 with the reason while the database is gone or behind, and 200 again once it is back. /healthz
// answers 200 throughout: the process is up. A flood of probes makes one database check a second.
import fs from "node:fs";
import pg from "pg";
import { afterAll, describe, expect, test } from "vitest";
import { testServerForFile } from "../harness";

const onPostgresql = process.env.INTEGRATION_DATABASE === "postgresql";
const server = testServerForFile();

async function readiness(): Promise<{ status: number; body: { ok: boolean; reason?: string } }> {
  const response = await fetch(`${server.baseUrl}/readyz`, { signal: AbortSignal.timeout(5_000) });
  return { status: response.status, body: (await response.json()) as { ok: boolean; reason?: string } };
}

const health = async () => (await fetch(`${server.baseUrl}/healthz`)).status;

/** Readiness once the database's answer has had time to be checked again (one check serves the probes of a second). */
const settlesAt = (expected: Awaited<ReturnType<typeof readiness>>) =>
  expect.poll(readiness, { timeout: 15_000, interval: 250 }).toEqual(expected);

/** Runs `text` on a connection of its own, to the maintenance database (an administrator's). */
async function asAdministrator(text: string): Promise<void> {
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = "/postgres";
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

test("ready with the database up to date", async () => {
  expect(await readiness()).toEqual({ status: 200, body: { ok: true } });
  expect(await health()).toBe(200);
});

test("not ready while a shipped migration is not applied, ready again once it is", async () => {
  const { sql } = await import("@/lib/guild-api/store/db");
  const [newest] = await sql.all<Record<string, unknown>>(
    "SELECT * FROM _prisma_migrations ORDER BY migration_name DESC LIMIT 1",
  );
  await sql.run("DELETE FROM _prisma_migrations WHERE id = ?", newest.id);
  try {
    await settlesAt({
      status: 503,
      body: { ok: false, reason: `migrations not applied: ${String(newest.migration_name)}` },
    });
    expect(await health()).toBe(200);
  } finally {
    const columns = Object.keys(newest);
    await sql.run(
      `INSERT INTO _prisma_migrations (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
      ...columns.map((column) => newest[column]),
    );
  }
  await settlesAt({ status: 200, body: { ok: true } });
});

test("a flood of probes shares one database check a second", async () => {
  const { metricsRegistry } = await import("@/lib/server/metrics");
  const statements = async () =>
    (await metricsRegistry.getSingleMetric("guildhall_store_statements_total")!.get()).values[0]?.value ?? 0;
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  const before = await statements();
  const answers = await Promise.all(Array.from({ length: 200 }, () => readiness()));
  expect(answers.every((answer) => answer.status === 200)).toBe(true);
  // One check's statement (the applied migrations), not 200: the answer of a second ago had lapsed, so one was made.
  const made = (await statements()) - before;
  expect(made).toBeGreaterThanOrEqual(1);
  expect(made).toBeLessThanOrEqual(2);
});

describe.runIf(!onPostgresql)("SQLite", () => {
  const file = () => process.env.DATABASE_URL!.replace(/^file:/, "");
  const aside = () => `${file()}.aside`;
  afterAll(() => {
    if (fs.existsSync(aside())) fs.renameSync(aside(), file());
  });

  test("not ready while the database file is gone, ready again once it is back", async () => {
    fs.renameSync(file(), aside());
    await settlesAt({ status: 503, body: { ok: false, reason: "the database file is missing" } });
    expect(await health()).toBe(200);
    fs.renameSync(aside(), file());
    await settlesAt({ status: 200, body: { ok: true } });
  });
});

describe.runIf(onPostgresql)("PostgreSQL", () => {
  const database = () => new URL(process.env.DATABASE_URL!).pathname.slice(1);
  afterAll(() => asAdministrator(`ALTER DATABASE "${database()}" ALLOW_CONNECTIONS true`));

  test("not ready while the database refuses connections, ready again once it takes them", async () => {
    await asAdministrator(`ALTER DATABASE "${database()}" ALLOW_CONNECTIONS false`);
    await asAdministrator(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${database()}' AND pid <> pg_backend_pid()`,
    );
    await settlesAt({ status: 503, body: { ok: false, reason: "the database does not answer" } });
    expect(await health()).toBe(200);
    await asAdministrator(`ALTER DATABASE "${database()}" ALLOW_CONNECTIONS true`);
    await settlesAt({ status: 200, body: { ok: true } });
  });
});
