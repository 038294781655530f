// Appended rows (Executor.append: gateway events, audit entries, bans) may be held by the driver and sent later as
// multi-row INSERTs (PostgreSQL), but a transaction never sees the difference: its next read finds them, in the order
// they were appended; a rolled-back savepoint drops its own; a row that cannot be written fails the whole
// transaction; outside a transaction an append is written at once. Runs on both engines.
import { expect, test } from "vitest";
import { sql, transaction } from "@/lib/guild-api/store/db";
import { testServerForFile } from "../harness";

testServerForFile();

const EVENT = "INSERT INTO gateway_events (id, guild_id, type, payload, created_at) VALUES (?, ?, ?, ?, ?)";
const AUDIT =
  "INSERT INTO audit_log_entries (id, guild_id, user_id, action_type, target_id, reason, changes, options) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";

let nextId = 7_300_000_000_000_000_000n;
// Written now: the outbox's retention sweep (every minute, in the harness's server too) deletes old rows.
const now = () => BigInt(Date.now());
const appendEvent = (type: string) => sql.append(EVENT, nextId++, null, type, "{}", now());
const eventTypes = (prefix: string) =>
  sql.values<string>("SELECT type FROM gateway_events WHERE type LIKE ? ORDER BY id", `${prefix}%`);

test("a transaction's next read finds its appended rows, in order, interleaved with other texts", async () => {
  const types = Array.from({ length: 300 }, (_, i) => `ORDER_${String(i).padStart(3, "0")}`);
  const seen = await transaction(async () => {
    for (const type of types) {
      await appendEvent(type);
      await sql.append(AUDIT, nextId++, 1n, null, 22n, type, null, null, null);
    }
    return eventTypes("ORDER_");
  });
  expect(seen).toEqual(types);
  expect(await sql.value("SELECT COUNT(*) FROM audit_log_entries WHERE target_id LIKE 'ORDER_%'")).toBe(300n);
  // Commit order is append order: the gateway outbox replays events by position (rowid on SQLite).
  const byPosition = await sql.values<string>(
    process.env.INTEGRATION_DATABASE === "postgresql"
      ? "SELECT type FROM gateway_events WHERE type LIKE 'ORDER_%' ORDER BY position"
      : "SELECT type FROM gateway_events WHERE type LIKE 'ORDER_%' ORDER BY rowid",
  );
  expect(byPosition).toEqual(types);
});

test("a rolled-back savepoint drops the rows it appended, and only those", async () => {
  await transaction(async () => {
    await appendEvent("SAVEPOINT_KEPT_1");
    await expect(
      transaction(async () => {
        await appendEvent("SAVEPOINT_DROPPED");
        throw new Error("abort the savepoint");
      }),
    ).rejects.toThrow("abort the savepoint");
    await appendEvent("SAVEPOINT_KEPT_2");
  });
  expect(await eventTypes("SAVEPOINT_")).toEqual(["SAVEPOINT_KEPT_1", "SAVEPOINT_KEPT_2"]);
});

test("a row that cannot be written fails its whole transaction, even when it is sent at the commit", async () => {
  const duplicate = nextId++;
  await expect(
    transaction(async () => {
      await sql.run("INSERT INTO users (id, username, created_at) VALUES (?, 'append_rollback_probe', 0)", nextId++);
      await sql.append(EVENT, duplicate, null, "FAILED_FIRST", "{}", now());
      await sql.append(EVENT, duplicate, null, "FAILED_DUPLICATE", "{}", now());
    }),
  ).rejects.toThrow();
  expect(await eventTypes("FAILED_")).toEqual([]);
  expect(await sql.value("SELECT COUNT(*) FROM users WHERE username = 'append_rollback_probe'")).toBe(0n);
});

test("outside a transaction an appended row is written at once", async () => {
  await appendEvent("STANDALONE");
  expect(await eventTypes("STANDALONE")).toEqual(["STANDALONE"]);
});
