// `npm start` with a postgres:// DATABASE_URL on an empty database: the PostgreSQL migrations are applied, the demo
// world is seeded (through a temporary SQLite file and the copy), and Guildhall serves from PostgreSQL. Started again
// on the same database, nothing is applied or seeded twice.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { expect, inject, test } from "vitest";
import { freePort } from "../integration/server-process";
import { newPostgresDatabase } from "./databases";

const ROOT = new URL("../..", import.meta.url).pathname;
const TSX = path.join(ROOT, "node_modules", ".bin", "tsx");

/** Runs `npm start`'s script (the guild API only, no Next build) until it says it is ready; returns what it printed. */
async function startGuildhall(
  url: string,
  secretsDir: string,
): Promise<{ output: string; stop: () => Promise<void>; baseUrl: string }> {
  const port = await freePort();
  const child = spawn(TSX, ["scripts/start.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: url,
      PORT: String(port),
      GUILDHALL_API_ONLY: "1",
      GUILDHALL_SECRETS_DIR: secretsDir,
      // Its "ready" line is at info.
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start not ready in time:\n${output}`)), 90_000);
    child.stdout.on("data", () => {
      if (output.includes("Guildhall ready on")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited with ${code}:\n${output}`));
    });
  });
  return {
    get output() {
      return output;
    },
    baseUrl: `http://127.0.0.1:${port}`,
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

test("npm start migrates and seeds an empty PostgreSQL database and serves the guild API from it", async () => {
  const url = await newPostgresDatabase(null);
  const secretsDir = fs.mkdtempSync(path.join(inject("scratchDirectory"), "secrets-"));
  const first = await startGuildhall(url, secretsDir);
  try {
    expect(first.output).toContain(
      "Applied the PostgreSQL migrations (prisma/postgresql/migrations) to postgres@127.0.0.1",
    );
    expect(first.output).toContain("Seeded the demo world");
    const [secretsFile] = fs.readdirSync(secretsDir).filter((name) => name.endsWith(".secrets.json"));
    expect(fs.statSync(path.join(secretsDir, secretsFile)).mode & 0o777).toBe(0o600);
    const { botToken } = JSON.parse(fs.readFileSync(path.join(secretsDir, secretsFile), "utf8")) as {
      botToken: string;
    };
    const guilds = await fetch(`${first.baseUrl}/api/v10/users/@me/guilds`, {
      signal: AbortSignal.timeout(10_000),
      headers: { authorization: `Bot ${botToken}` },
    });
    expect(guilds.status).toBe(200);
    const names = ((await guilds.json()) as Array<{ name: string }>).map((guild) => guild.name);
    expect(names).toContain("Guildhall HQ");
  } catch (error) {
    throw new Error(`${String(error)}\n${first.output}`);
  } finally {
    await first.stop();
  }

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const applied = await client.query<{ name: string }>(
      "SELECT migration_name AS name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name",
    );
    const folder = fs
      .readdirSync(path.join(ROOT, "prisma", "postgresql", "migrations"))
      .filter((name) => /^\d{14}_/.test(name))
      .sort();
    expect(applied.rows.map((row) => row.name)).toEqual(folder);
  } finally {
    await client.end();
  }

  // Started again: already seeded, so the same world is served and nothing is seeded twice.
  const second = await startGuildhall(url, secretsDir);
  try {
    expect(second.output).not.toContain("Seeded the demo world");
    const check = new pg.Client({ connectionString: url });
    await check.connect();
    try {
      expect((await check.query("SELECT id FROM guilds WHERE name = 'Guildhall HQ'")).rowCount).toBe(1);
    } finally {
      await check.end();
    }
  } finally {
    await second.stop();
  }
});
