// Backups that lose nothing, on PostgreSQL: `npm run backup` runs pg_dump while another process commits rows without
// pause (a probe table, and the dashboard's audit history, each row its own transaction); `npm run restore` puts the
// dump into a new, empty database, which then holds every row committed before the backup began, its sequences and
// its triggers; restoring over a database that has tables is refused and changes nothing.
import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { expect, inject, test } from "vitest";
import { newPostgresDatabase } from "./databases";

const execute = promisify(execFile);
const ROOT = new URL("../..", import.meta.url).pathname;
const TSX = path.join(ROOT, "node_modules", ".bin", "tsx");

/** Commits a probe row and an audit-history row, each in its own transaction, as fast as it can, until killed. */
const PROBE_WRITER = `
const pg = require("pg");
const client = new pg.Client({ connectionString: process.env.PROBE_DATABASE });
client.connect().then(async () => {
  process.stdout.write("writing\\n");
  for (let i = 0; ; i++) {
    await client.query("INSERT INTO backup_probe (body) VALUES (repeat('x', 2048))");
    await client.query(
      "INSERT INTO audit_history_entries (id, \\"guildId\\", \\"actorId\\", \\"actorName\\", action, status) VALUES ($1, '1', '2', 'Probe', 'Probe', 'success')",
      ["probe-" + i],
    );
  }
});
`;

async function script(name: string, args: string[], url: string) {
  return execute(TSX, [`scripts/${name}.ts`, ...args], { cwd: ROOT, env: { ...process.env, DATABASE_URL: url } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

const maxProbe = async (url: string) =>
  Number((await query<{ id: string }>(url, "SELECT coalesce(max(id), 0) AS id FROM backup_probe"))[0].id);

test("a backup taken under continuous commits holds every earlier commit and restores into an empty database", async () => {
  const source = await newPostgresDatabase();
  await query(source, "CREATE TABLE backup_probe (id bigserial PRIMARY KEY, body text NOT NULL)");
  const dir = fs.mkdtempSync(path.join(inject("scratchDirectory"), "backup-"));
  const writer = spawn(process.execPath, ["-e", PROBE_WRITER], {
    cwd: ROOT,
    env: { ...process.env, PROBE_DATABASE: source },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const writerExited = new Promise((resolve) => writer.once("exit", resolve));
  try {
    await new Promise<void>((resolve) => writer.stdout.once("data", () => resolve()));
    await expect.poll(() => maxProbe(source), { timeout: 20_000 }).toBeGreaterThan(500);

    // Everything another connection sees now is committed; the backup begins after this line.
    const probesBefore = await maxProbe(source);
    const backup = path.join(dir, "under-load.dump");
    const backedUp = await script("backup", ["--out", backup], source);
    expect(backedUp.stderr).toBe("");
    expect(backedUp.stdout).toContain(`Backed up the PostgreSQL database to ${backup} (pg_dump custom format`);
    expect(fs.statSync(backup).mode & 0o777).toBe(0o600);
    // The writer kept committing while pg_dump ran: it really was taken under load.
    expect(await maxProbe(source)).toBeGreaterThan(probesBefore);
    writer.kill();
    await writerExited;

    // Over a database that has tables (the live one): refused, nothing changed.
    const probesNow = await maxProbe(source);
    const refused = await script("restore", [backup], source);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("The target database is not empty");
    expect(await maxProbe(source)).toBe(probesNow);

    const target = await newPostgresDatabase(null);
    const restored = await script("restore", [backup], target);
    expect(restored.stderr).toBe("");
    expect(restored.stdout).toContain(`Restored ${backup}`);

    // Every probe row committed before the backup began, each once (one writer, ids dense), and its audit row.
    const [upTo] = await query<{ n: string; d: string }>(
      target,
      `SELECT count(*) AS n, count(DISTINCT id) AS d FROM backup_probe WHERE id <= ${probesBefore}`,
    );
    expect({ n: Number(upTo.n), d: Number(upTo.d) }).toEqual({ n: probesBefore, d: probesBefore });
    const [audit] = await query<{ n: string }>(
      target,
      `SELECT count(*) AS n FROM audit_history_entries WHERE id IN (${Array.from({ length: probesBefore - 1 }, (_, i) => `'probe-${i}'`).join(", ")})`,
    );
    expect(Number(audit.n)).toBe(probesBefore - 1);
    // The restored database is Guildhall's: migrations recorded, sequences continuing, triggers working.
    const migrations = await query<{ name: string }>(target, "SELECT migration_name AS name FROM _prisma_migrations");
    expect(migrations.map((m) => m.name)).toContain("20261125190000_init");
    const [next] = await query<{ id: string }>(target, "INSERT INTO backup_probe (body) VALUES ('after') RETURNING id");
    expect(Number(next.id)).toBeGreaterThan(probesBefore);
    await query(
      target,
      `INSERT INTO users (id, username, created_at) VALUES (1, 'restored', 0);
       INSERT INTO guilds (id, name, owner_id, created_at) VALUES (2, 'g', 1, 0);
       INSERT INTO members (guild_id, user_id, username_key, joined_at, last_active_at, status) VALUES (2, 1, 'restored', 0, 0, 'online');`,
    );
    const [member] = await query<{ wire_json: string; presence_count: number }>(
      target,
      "SELECT m.wire_json, g.presence_count FROM members m JOIN guilds g ON g.id = m.guild_id",
    );
    expect(JSON.parse(member.wire_json)).toMatchObject({ user: { id: "1", username: "restored" }, roles: [] });
    expect(member.presence_count).toBe(1);
  } finally {
    if (writer.exitCode === null && writer.signalCode === null) writer.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("a file that is not a pg_dump archive is refused before anything is restored", async () => {
  const dir = fs.mkdtempSync(path.join(inject("scratchDirectory"), "backup-"));
  const bogus = path.join(dir, "bogus.dump");
  fs.writeFileSync(bogus, "not a dump");
  const target = await newPostgresDatabase(null);
  const refused = await script("restore", [bogus], target);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain("is not a readable pg_dump archive");
  expect(await query(target, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")).toEqual(
    [],
  );
  fs.rmSync(dir, { recursive: true, force: true });
});
