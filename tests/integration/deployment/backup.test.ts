// Issue 19: backups that lose nothing. `npm run backup` copies the database while Guildhall serves and two writers
// commit without pause: the server itself (channels created over the API) and another process (rows of a probe
// table, each its own transaction). `npm run restore` puts the copy in place of a database; the restored file
// passes PRAGMA integrity_check, holds every row committed before the backup began, and a Guildhall started on it
// answers with the backed-up data.
import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { startTestServer, type TestServer } from "../harness";
import { startServerProcess } from "../server-process";

const run = promisify(execFile);
const ROOT = new URL("../../..", import.meta.url).pathname;
const TSX = path.join(ROOT, "node_modules", ".bin", "tsx");

/** Commits one 2 KB row per transaction, as fast as it can, until killed. */
const PROBE_WRITER = `
const Database = require("better-sqlite3");
const db = new Database(process.env.PROBE_DATABASE);
db.pragma("busy_timeout = 5000");
const insert = db.prepare("INSERT INTO backup_probe (body) VALUES (randomblob(2048))");
process.stdout.write("writing\\n");
(function write() { insert.run(); setImmediate(write); })();
`;

let server: TestServer;
let source: string;
let dir: string;

// SQLite's online backup of the database file. The PostgreSQL run has its own: tests/postgres/backup.test.ts takes a
// pg_dump under continuous writes and restores it.
const onSqlite = inject("integrationPostgres") === null;

beforeAll(async () => {
  if (!onSqlite) return;
  // The API writer creates channels as fast as the server answers: limits off, as for the other bulk-write files.
  server = await startTestServer({ rateLimits: { enabled: false } });
  source = process.env.DATABASE_URL!.slice("file:".length);
  dir = path.dirname(source);
});
afterAll(() => server?.close());

const maxProbeId = (db: Database.Database) =>
  Number((db.prepare("SELECT coalesce(max(id), 0) AS id FROM backup_probe").get() as { id: number | bigint }).id);

test.runIf(onSqlite)(
  "a backup taken under continuous writes holds every earlier commit and restores to a working Guildhall",
  async () => {
    const reader = new Database(source);
    reader.exec("CREATE TABLE IF NOT EXISTS backup_probe (id INTEGER PRIMARY KEY, body BLOB NOT NULL)");
    const writer = spawn(process.execPath, ["-e", PROBE_WRITER], {
      cwd: ROOT,
      env: { ...process.env, PROBE_DATABASE: source },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const writerExited = new Promise((resolve) => writer.once("exit", resolve));
    let apiWriting = true;
    const createdChannels: string[] = [];
    const apiWriter = (async () => {
      for (let i = 0; apiWriting && i < 400; i++) {
        const response = await server.api("bot", "POST", `/guilds/${server.world.guildId}/channels`, {
          name: `backup-${i}`,
        });
        expect(response.status).toBe(201);
        createdChannels.push(((await response.json()) as { id: string }).id);
      }
    })();
    try {
      await new Promise<void>((resolve) => writer.stdout.once("data", () => resolve()));
      // Let both writers get going, so the copy starts in the middle of their commits.
      await expect.poll(() => maxProbeId(reader), { timeout: 10_000 }).toBeGreaterThan(500);
      await expect.poll(() => createdChannels.length, { timeout: 10_000 }).toBeGreaterThan(10);

      // Everything visible to another connection now is committed; the backup begins after this line.
      const probesBefore = maxProbeId(reader);
      const channelsBefore = [...createdChannels];
      const backup = path.join(dir, "backups", "under-load.db");
      const { stdout } = await run(TSX, ["scripts/backup.ts", "--out", backup], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: `file:${source}` },
      });
      expect(stdout).toContain(`Backed up the SQLite database to ${backup}`);
      expect(stdout).toContain("integrity_check ok");
      // The writers kept committing while the backup ran: it really was taken under load.
      expect(maxProbeId(reader)).toBeGreaterThan(probesBefore);
      expect(createdChannels.length).toBeGreaterThan(channelsBefore.length);
      apiWriting = false;
      await apiWriter;
      writer.kill();
      await writerExited;

      // The server has the live database open, so restoring over it is refused and changes nothing.
      const refused = await run(TSX, ["scripts/restore.ts", backup], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: `file:${source}` },
      }).catch((error: { code: number; stderr: string }) => error);
      expect("code" in refused && refused.code).toBe(1);
      expect((refused as { stderr: string }).stderr).toContain("is in use");
      expect(maxProbeId(reader)).toBeGreaterThan(probesBefore);

      // Restored in place of another database (the old one is kept aside), with the secrets beside it.
      const restored = path.join(dir, "restored", "guildhall.db");
      fs.mkdirSync(path.dirname(restored), { recursive: true });
      fs.writeFileSync(restored, "");
      const { stdout: restoreOut } = await run(TSX, ["scripts/restore.ts", backup], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: `file:${restored}` },
      });
      expect(restoreOut).toContain(`Restored ${backup} to ${restored}`);
      expect(restoreOut).toContain("The database it replaced is kept at");
      expect(fs.readFileSync(`${restored}.secrets.json`, "utf8")).toBe(
        fs.readFileSync(`${source}.secrets.json`, "utf8"),
      );

      const copy = new Database(restored, { readonly: true });
      try {
        expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
        // Every probe row committed before the backup began, each exactly once (ids are dense: one writer, no deletes).
        const upTo = copy
          .prepare("SELECT count(*) AS n, count(DISTINCT id) AS d FROM backup_probe WHERE id <= ?")
          .get(probesBefore) as { n: number; d: number };
        expect(upTo).toEqual({ n: probesBefore, d: probesBefore });
        // Every channel the API had answered 201 for, and the dashboard's Prisma tables beside the API's.
        const channelIds = new Set(
          (copy.prepare("SELECT CAST(id AS TEXT) AS id FROM channels").all() as Array<{ id: string }>).map((c) => c.id),
        );
        expect(channelsBefore.filter((id) => !channelIds.has(id))).toEqual([]);
        const tables = new Set(
          (copy.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map(
            (t) => t.name,
          ),
        );
        for (const table of ["_prisma_migrations", "guilds", "members", "dashboard_accounts", "bulk_ban_jobs"])
          expect(tables).toContain(table);
        // One self-contained file: a rollback journal, no -wal needed beside it.
        expect(copy.pragma("journal_mode", { simple: true })).toBe("delete");
      } finally {
        copy.close();
      }

      // A Guildhall started on the restored database serves the backed-up guild and the channels created under load.
      const instance = await startServerProcess(restored);
      try {
        const headers = { authorization: `Bot ${server.botToken}` };
        const guild = await fetch(`${instance.url}/api/v10/guilds/${server.world.guildId}`, { headers });
        expect(guild.status).toBe(200);
        expect(((await guild.json()) as { name: string }).name).toBe("Guildhall HQ");
        const channel = await fetch(`${instance.url}/api/v10/channels/${channelsBefore.at(-1)}`, { headers });
        expect(channel.status).toBe(200);
      } finally {
        await instance.stop();
      }
    } finally {
      apiWriting = false;
      writer.kill();
      await apiWriter.catch(() => {});
      reader.close();
    }
  },
  120_000,
);
