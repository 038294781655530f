// The audit history's filter menus, read in the database by skipping along an index (the soak found them reading the
// whole history on every visit): each person once, under the first of their names, each action once, by source; and the Bans page's
// "banned by", the newest matching entry per target. Against the harness server's database (SQLite, or PostgreSQL
// with INTEGRATION_DATABASE=postgresql).
import { beforeAll, beforeEach, describe, expect, test } from "vitest";
import type { AuditFilter, AuditSource } from "@/lib/dashboard/audit/history";
import { ACTIONS, actionLabel } from "@/lib/dashboard/audit/sentences";
import { testServerForFile } from "../harness";

testServerForFile();

let prisma: typeof import("@/lib/dashboard/db").prisma;
let history: typeof import("@/lib/dashboard/audit/history");

beforeAll(async () => {
  ({ prisma } = await import("@/lib/dashboard/db"));
  history = await import("@/lib/dashboard/audit/history");
});

beforeEach(async () => {
  await prisma.auditHistoryEntry.deleteMany();
});

const GUILD = "100000000000000001";
const OTHER = "100000000000000002";
const BASE = Date.UTC(2026, 0, 1);

const entry = (over: Record<string, unknown>) =>
  prisma.auditHistoryEntry.create({
    data: {
      guildId: GUILD,
      actorId: "1",
      actorName: "Mod",
      action: "Create Guild Ban",
      targetType: "user",
      targetId: "500",
      status: "success",
      source: "guild-log",
      createdAt: new Date(BASE),
      ...over,
    },
  });

describe("history reads", () => {
  test("the menus: each person once (under the first of their names), each action once, by source", async () => {
    await entry({ actorId: "1", actorName: "Mod" });
    await entry({ actorId: "1", actorName: "Moderator (renamed)", action: "Remove Guild Ban" });
    await entry({ actorId: "2", actorName: "Admin", action: "Modify Guild Role", source: "dashboard" });
    await entry({ actorId: "3", actorName: "Bot", guildId: "100000000000000002" });
    expect(await history.auditFacets(GUILD, ["dashboard", "guild-log"])).toEqual({
      actors: [
        { id: "2", name: "Admin" },
        { id: "1", name: "Mod" },
      ],
      actions: [...new Set(["Create Guild Ban", "Remove Guild Ban", "Modify Guild Role"].map(actionLabel))].sort(),
    });
    expect((await history.auditFacets(GUILD, ["dashboard"])).actors).toEqual([{ id: "2", name: "Admin" }]);
  });

  test("the menus skip along the index: every distinct value of many, once, and none of another guild's", async () => {
    const actions = Object.keys(ACTIONS).slice(0, 12);
    // Interleaved: actor i writes action i % 12, in one source or the other, three times over; another guild has its
    // own actors and an action of its own.
    for (let round = 0; round < 3; round++)
      for (let i = 0; i < 24; i++) {
        const actor = { actorId: String(100 + i), actorName: `Person ${String(i).padStart(2, "0")}` };
        await entry({ ...actor, action: actions[i % actions.length], source: i % 2 ? "dashboard" : "guild-log" });
        await entry({ actorId: String(200 + i), actorName: "Elsewhere", action: "Delete Guild", guildId: OTHER });
      }
    const facets = await history.auditFacets(GUILD, ["dashboard", "guild-log"]);
    expect(facets.actions).toEqual([...new Set(actions.map(actionLabel))].sort());
    expect(facets.actors).toEqual(
      Array.from({ length: 24 }, (_, i) => ({ id: String(100 + i), name: `Person ${String(i).padStart(2, "0")}` })),
    );
    const dashboardOnly = await history.auditFacets(GUILD, ["dashboard"]);
    expect(dashboardOnly.actors.map((a) => a.id)).toEqual(Array.from({ length: 12 }, (_, i) => String(101 + 2 * i)));
    expect(dashboardOnly.actions).toEqual([...new Set(actions.filter((_, i) => i % 2).map(actionLabel))].sort());
  });

  test("a renamed person's first name in byte order, across both sources, on both databases", async () => {
    // Byte order puts capitals before lower case and "Z" before "a"; a language's collation would not.
    await entry({ actorId: "1", actorName: "zed", source: "dashboard" });
    await entry({ actorId: "1", actorName: "Zed", source: "guild-log" });
    await entry({ actorId: "2", actorName: "bob", source: "guild-log" });
    await entry({ actorId: "2", actorName: "alice", source: "dashboard" });
    await entry({ actorId: "3", actorName: "Bob", source: "dashboard" });
    await entry({ actorId: "4", actorName: "émile", source: "guild-log" });
    expect((await history.auditFacets(GUILD, ["dashboard", "guild-log"])).actors).toEqual([
      { id: "3", name: "Bob" },
      { id: "1", name: "Zed" },
      { id: "2", name: "alice" },
      { id: "4", name: "émile" },
    ]);
    expect((await history.auditFacets(GUILD, ["dashboard"])).actors.map((a) => a.name)).toEqual([
      "Bob",
      "alice",
      "zed",
    ]);
  });

  test("a page lists the sources the reader may see, newest first, and never a bulk change's parts", async () => {
    for (const [i, source] of ["dashboard", "guild-log", "part", "guild-log", "dashboard", "part"].entries())
      await entry({ source, reason: `${source} ${i}`, createdAt: new Date(BASE + i * 1_000) });
    const reasons = async (sources: AuditSource[], filter: AuditFilter = {}) =>
      (await history.listAuditEntries(GUILD, filter, { limit: 10 }, sources)).entries.map((e) => e.reason);
    expect(await reasons(["dashboard", "guild-log"])).toEqual([
      "dashboard 4",
      "guild-log 3",
      "guild-log 1",
      "dashboard 0",
    ]);
    expect(await reasons(["guild-log", "dashboard"], { source: "guild-log" })).toEqual(["guild-log 3", "guild-log 1"]);
    expect(await reasons(["dashboard"])).toEqual(["dashboard 4", "dashboard 0"]);
    expect(await reasons(["dashboard"], { source: "guild-log" })).toEqual([]);
  });

  test("the newest successful entry per target, of the given actions only", async () => {
    await entry({ targetId: "500", actorId: "1", actorName: "Old", createdAt: new Date(BASE) });
    await entry({
      targetId: "500",
      actorId: "2",
      actorName: "Newer",
      createdAt: new Date(BASE + 60_000),
      actorBot: true,
    });
    await entry({
      targetId: "500",
      actorId: "3",
      actorName: "Failed",
      createdAt: new Date(BASE + 120_000),
      status: "error",
    });
    await entry({ targetId: "500", actorId: "4", action: "Remove Guild Ban", createdAt: new Date(BASE + 180_000) });
    await entry({ targetId: "501", actorId: "5", actorName: "Other", action: "Bulk Guild Ban", source: "dashboard" });
    // Written newest first: the answer does not depend on the order the rows come in.
    await entry({ targetId: "503", actorId: "6", actorName: "Later", createdAt: new Date(BASE + 60_000) });
    await entry({ targetId: "503", actorId: "7", actorName: "Earlier", createdAt: new Date(BASE) });
    // At the same moment, the greater id in byte order is the newer (the rows' ids are cuids), written first here.
    await entry({ targetId: "504", id: "cm00000000000000000000000b", actorId: "8", actorName: "Second" });
    await entry({ targetId: "504", id: "cm00000000000000000000000a", actorId: "9", actorName: "First" });
    const latest = await history.latestActionsOn(
      GUILD,
      ["Create Guild Ban", "Bulk Guild Ban"],
      ["500", "501", "502", "503", "504"],
    );
    expect(Object.fromEntries(latest)).toEqual({
      "500": {
        actorId: "2",
        actorName: "Newer",
        actorBot: true,
        source: "guild-log",
        createdAt: new Date(BASE + 60_000).toISOString(),
      },
      "501": {
        actorId: "5",
        actorName: "Other",
        actorBot: false,
        source: "dashboard",
        createdAt: new Date(BASE).toISOString(),
      },
      "503": {
        actorId: "6",
        actorName: "Later",
        actorBot: false,
        source: "guild-log",
        createdAt: new Date(BASE + 60_000).toISOString(),
      },
      "504": {
        actorId: "8",
        actorName: "Second",
        actorBot: false,
        source: "guild-log",
        createdAt: new Date(BASE).toISOString(),
      },
    });
  });
});
