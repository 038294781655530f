// The audit history's filter menus, read in the database by skipping along an index (the soak found them reading the
// whole history on every visit): each person once, under the first of their names, each action once, by source; and the Bans page's
// "banned by", the newest matching entry per target. Against the harness server's database (SQLite, or PostgreSQL
// with INTEGRATION_DATABASE=postgresql).
import { beforeAll, beforeEach, describe, expect, test } from "vitest";
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
    // Interleaved: actor i writes action i % 12 in both sources, three times over, and another guild shares the values.
    for (let round = 0; round < 3; round++)
      for (let i = 0; i < 24; i++) {
        const actor = { actorId: String(100 + i), actorName: `Person ${String(i).padStart(2, "0")}` };
        await entry({ ...actor, action: actions[i % actions.length], source: i % 2 ? "dashboard" : "guild-log" });
        await entry({ ...actor, action: "Delete Guild", guildId: "100000000000000002" });
      }
    await entry({ actorId: "100", actorName: "A newer name", action: actions[0] });
    const facets = await history.auditFacets(GUILD, ["dashboard", "guild-log"]);
    expect(facets.actions).toEqual([...new Set(actions.map(actionLabel))].sort());
    expect(facets.actors).toHaveLength(24);
    expect(facets.actors[0]).toEqual({ id: "100", name: "A newer name" });
    expect(facets.actors.slice(1).map((a) => a.name)).toEqual(
      Array.from({ length: 23 }, (_, i) => `Person ${String(i + 1).padStart(2, "0")}`),
    );
    const dashboardOnly = await history.auditFacets(GUILD, ["dashboard"]);
    expect(dashboardOnly.actors.map((a) => a.id)).toEqual(Array.from({ length: 12 }, (_, i) => String(101 + 2 * i)));
    expect(dashboardOnly.actions).toEqual([...new Set(actions.filter((_, i) => i % 2).map(actionLabel))].sort());
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
    const latest = await history.latestActionsOn(GUILD, ["Create Guild Ban", "Bulk Guild Ban"], ["500", "501", "502"]);
    expect(Object.fromEntries(latest)).toEqual({
      "500": {
        targetId: "500",
        actorId: "2",
        actorName: "Newer",
        actorBot: true,
        source: "guild-log",
        createdAt: new Date(BASE + 60_000).toISOString(),
      },
      "501": {
        targetId: "501",
        actorId: "5",
        actorName: "Other",
        actorBot: false,
        source: "dashboard",
        createdAt: new Date(BASE).toISOString(),
      },
    });
  });
});
