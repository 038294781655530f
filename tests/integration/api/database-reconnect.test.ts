// The store's PostgreSQL connection can be lost (the server restarts, a network cut, an administrator terminates the
// backend). Guildhall connects again by itself, with its statements prepared anew and LISTEN renewed; what another
// connection committed meanwhile is seen at once (the read caches were told). While it is gone, requests are answered
// 503 with Retry-After rather than left hanging. PostgreSQL only: a SQLite file has no connection to lose.
import pg from "pg";
import { describe, expect, test } from "vitest";
import { testServerForFile } from "../harness";

const onPostgresql = process.env.INTEGRATION_DATABASE === "postgresql";
const server = testServerForFile();

/** Runs `text` on a connection of its own (an administrator's, another instance's). */
async function elsewhere<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

async function guildName(): Promise<{ status: number; name?: string }> {
  const response = await server.api("owner", "GET", `/guilds/${server.world.guildId}`);
  return {
    status: response.status,
    name: response.ok ? ((await response.json()) as { name: string }).name : undefined,
  };
}

describe.runIf(onPostgresql)("a lost PostgreSQL connection", () => {
  test("comes back by itself, and what was committed elsewhere meanwhile is read, not a cached answer", async () => {
    const before = await guildName();
    expect(before.status).toBe(200);

    // Every other backend of this database is ended: the API's store connection among them.
    const ended = await elsewhere<{ ended: boolean }>(
      "SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
    );
    expect(ended.length).toBeGreaterThan(0);
    await elsewhere("UPDATE guilds SET name = $1 WHERE id = $2", ["Renamed while disconnected", server.world.guildId]);

    const seen: number[] = [];
    const deadline = Date.now() + 10_000;
    let after = await guildName();
    while (after.status !== 200 && Date.now() < deadline) {
      seen.push(after.status);
      await new Promise((resolve) => setTimeout(resolve, 50));
      after = await guildName();
    }
    expect(after).toEqual({ status: 200, name: "Renamed while disconnected" });
    // Meanwhile only "try again" answers: 503, never a 500.
    expect(seen.every((status) => status === 503)).toBe(true);
  });
});

test("while the database cannot be reached, statements fail at once with StoreUnavailableError, answered 503", async () => {
  const { PostgresqlDriver } = await import("@/lib/guild-api/store/postgresql-driver");
  const { StoreUnavailableError } = await import("@/lib/guild-api/store/driver");
  const { errorResult } = await import("@/lib/guild-api/http");
  const { freePort } = await import("../server-process");
  const nobody = new PostgresqlDriver(`postgres://guildhall@127.0.0.1:${await freePort()}/absent`);
  try {
    const error = await nobody.get("SELECT 1").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(String((error as Error).message)).toMatch(/PostgreSQL is unreachable: .*ECONNREFUSED/);
    const answer = errorResult(error);
    expect(answer.status).toBe(503);
    expect(answer.headers).toMatchObject({ "retry-after": "1" });
    expect(answer.json).toMatchObject({ code: 0, message: expect.stringContaining("503: Service Unavailable") });
  } finally {
    nobody.close();
  }
});
