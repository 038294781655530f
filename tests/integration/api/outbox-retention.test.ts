// The gateway outbox keeps its rows for GATEWAY_OUTBOX_RETENTION_MINUTES (lib/guild-api/outbox-retention.ts): a sweep
// deletes older ones batch by batch, never the newest (on SQLite a position is the rowid, and an emptied table would
// number its next row 1 again, behind the readers' cursors). Runs on both engines.
import { expect, test } from "vitest";
import { minimumOutboxRetentionMs, outboxRetentionMs, sweepOutbox } from "@/lib/guild-api/outbox-retention";
import { sql } from "@/lib/guild-api/store/db";
import { outboxHead, pruneOutbox } from "@/lib/guild-api/store/gateway-outbox";
import { testServerForFile } from "../harness";

testServerForFile();

const MINUTE = 60_000;
let nextId = 7_400_000_000_000_000_000n;
const insertEvent = (type: string, createdAt: number) =>
  sql.run(
    "INSERT INTO gateway_events (id, guild_id, type, payload, created_at) VALUES (?, ?, ?, ?, ?)",
    nextId++,
    null,
    type,
    "{}",
    BigInt(createdAt),
  );
const countOf = async (type: string) =>
  Number(await sql.value<bigint>("SELECT COUNT(*) FROM gateway_events WHERE type = ?", type));

test("rows past the retention go, batch after batch; newer rows stay", async () => {
  const now = Date.now();
  // More than two batches (2,000 rows each) of old rows, then rows inside the retention.
  for (let i = 0; i < 4_500; i++) await insertEvent("RETENTION_OLD", now - 20 * MINUTE + i);
  for (let i = 0; i < 10; i++) await insertEvent("RETENTION_NEW", now - 5 * MINUTE + i);
  // (The server's own sweep may take some first: it runs every minute here too. Counted by what is left.)
  await sweepOutbox(15 * MINUTE, now);
  expect(await countOf("RETENTION_OLD")).toBe(0);
  expect(await countOf("RETENTION_NEW")).toBe(10);
  // Nothing more to delete.
  expect(await sweepOutbox(15 * MINUTE, now)).toBe(0);
});

test("the newest row stays even when it is old, so positions keep rising", async () => {
  const now = Date.now();
  await insertEvent("RETENTION_LAST", now - 60 * MINUTE);
  const head = await outboxHead();
  // Everything is past a retention that ends tomorrow: all but the newest row go.
  while ((await pruneOutbox(now + 24 * 60 * MINUTE, 2_000)) > 0);
  expect(Number(await sql.value<bigint>("SELECT COUNT(*) FROM gateway_events"))).toBe(1);
  expect(await countOf("RETENTION_LAST")).toBe(1);
  expect(await outboxHead()).toBe(head);
  await insertEvent("RETENTION_AFTER", now);
  expect(await outboxHead()).toBeGreaterThan(head);
});

test("the retention is read from the environment, never under a dropped session's chance to resume", () => {
  // Discord's values: a zombie found after 61.9 s, then 3 minutes to resume, and a minute more.
  expect(minimumOutboxRetentionMs()).toBe(41_250 * 1.5 + 3 * MINUTE + MINUTE);
  expect(outboxRetentionMs({})).toBe(15 * MINUTE);
  expect(outboxRetentionMs({ GATEWAY_OUTBOX_RETENTION_MINUTES: "120" })).toBe(120 * MINUTE);
  expect(outboxRetentionMs({ GATEWAY_OUTBOX_RETENTION_MINUTES: "1" })).toBe(minimumOutboxRetentionMs());
  expect(outboxRetentionMs({ GATEWAY_OUTBOX_RETENTION_MINUTES: "soon" })).toBe(15 * MINUTE);
});
