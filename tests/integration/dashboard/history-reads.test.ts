// The audit history's filter menus, grouped in the database (the soak found Prisma's distinct reading every row into
// JavaScript): each person once, under the first of their names, each action once, by source; and the Bans page's
// "banned by", the newest matching entry per target. Against the harness server's database (SQLite, or PostgreSQL
// with INTEGRATION_DATABASE=postgresql).
import { beforeAll, beforeEach, describe, expect, test } from "vitest";
import { actionLabel } from "@/lib/dashboard/audit/sentences";
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
