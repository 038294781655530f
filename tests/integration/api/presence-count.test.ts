// approximate_presence_count is a counter kept by triggers on members (migration 20261125160700_presence_count), no
// longer a count over the members table per request. It must agree with a fresh count after every kind of write: a
// kick, a ban, a bulk ban, a prune, and a status changed by another writer straight in SQL.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Routes } from "discord-api-types/v10";
import { startTestServer, type TestServer } from "../harness";
import { sql } from "@/lib/guild-api/store/db";

let server: TestServer;
let hq: string;
beforeAll(async () => {
  server = await startTestServer({ rateLimits: { enabled: false } });
  hq = server.world.guildId;
});
afterAll(() => server?.close());

/** The count the counter stands for, taken the slow way. */
async function countedOnline(): Promise<number> {
  const row = (await sql.get(
    "SELECT COUNT(*) AS n FROM members WHERE guild_id = ? AND status IN ('online', 'idle', 'dnd')",
    BigInt(hq),
  )) as { n: bigint };
  return Number(row.n);
}

async function presenceCount(): Promise<number> {
  const guild = (await server
    .rest("owner")
    .get(Routes.guild(hq), { query: new URLSearchParams({ with_counts: "true" }) })) as {
    approximate_presence_count: number;
  };
  return guild.approximate_presence_count;
}

/** Members without roles (the owner may act on any of them) with the given status, fewest first by id. */
async function membersWith(status: "online" | "offline", limit: number): Promise<string[]> {
  const rows = (await sql.all(
    `SELECT m.user_id FROM members m JOIN users u ON u.id = m.user_id
       WHERE m.guild_id = ? AND m.status = ? AND u.bot = FALSE AND m.user_id != (SELECT owner_id FROM guilds WHERE id = ?)
         AND NOT EXISTS (SELECT 1 FROM member_roles r WHERE r.guild_id = m.guild_id AND r.user_id = m.user_id)
       ORDER BY m.user_id LIMIT ?`,
    BigInt(hq),
    status,
    BigInt(hq),
    limit,
  )) as Array<{ user_id: bigint }>;
  expect(rows).toHaveLength(limit);
  return rows.map((row) => String(row.user_id));
}

describe("approximate_presence_count follows every write", () => {
  test("it starts equal to a fresh count", async () => {
    const before = await countedOnline();
    expect(before).toBeGreaterThan(0);
    expect(await presenceCount()).toBe(before);
  });

  test("a kick and a ban of online members take one each; an offline member's kick takes none", async () => {
    const before = await presenceCount();
    const [kicked, banned] = await membersWith("online", 2);
    const [offline] = await membersWith("offline", 1);
    await server.rest("owner").delete(Routes.guildMember(hq, kicked));
    expect(await presenceCount()).toBe(before - 1);
    await server.rest("owner").put(Routes.guildBan(hq, banned), { body: {} });
    expect(await presenceCount()).toBe(before - 2);
    await server.rest("owner").delete(Routes.guildMember(hq, offline));
    expect(await presenceCount()).toBe(before - 2);
    expect(await countedOnline()).toBe(before - 2);
  });

  test("a bulk ban takes the online members it removes", async () => {
    const before = await presenceCount();
    const online = await membersWith("online", 3);
    const offline = await membersWith("offline", 2);
    await server.rest("owner").post(Routes.guildBulkBan(hq), { body: { user_ids: [...online, ...offline] } });
    expect(await presenceCount()).toBe(before - 3);
    expect(await countedOnline()).toBe(before - 3);
  });

  test("a status changed by another writer moves the counter both ways; a change between present statuses does not", async () => {
    const before = await presenceCount();
    const [goingOnline] = await membersWith("offline", 1);
    const [goingOffline, goingIdle] = await membersWith("online", 2);
    const setStatus = (status: string, guildId: bigint, userId: bigint) =>
      sql.run("UPDATE members SET status = ? WHERE guild_id = ? AND user_id = ?", status, guildId, userId);
    await setStatus("online", BigInt(hq), BigInt(goingOnline));
    expect(await presenceCount()).toBe(before + 1);
    await setStatus("offline", BigInt(hq), BigInt(goingOffline));
    expect(await presenceCount()).toBe(before);
    await setStatus("idle", BigInt(hq), BigInt(goingIdle));
    expect(await presenceCount()).toBe(before);
    expect(await countedOnline()).toBe(before);
  });

  test("a prune takes the online members it removes", async () => {
    const before = await countedOnline();
    const pruned = (await server.rest("owner").post(Routes.guildPrune(hq), {
      body: { days: 1, compute_prune_count: true },
    })) as { pruned: number };
    expect(pruned.pruned).toBeGreaterThan(0);
    const after = await countedOnline();
    expect(after).toBeLessThan(before);
    expect(await presenceCount()).toBe(after);
  });
});
