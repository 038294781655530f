// Who acted, in the cases (issue #32): the audit log's to tell, as on Bans and in the live stream (ACTORS_REQUIREMENT,
// View Audit Log). A moderator who opens Cases without it (Helper here, left with Kick Members) reads their own cases
// with their name and everyone else's as "A moderator": in the list, the member panel's history, the CSV and the
// reasons' edits; the Moderator filter offers only themselves, and a search does not look at moderators' names.
// A moderator with View Audit Log reads every name. Through the dashboard's own data layer and a real API.
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { beforeAll, expect, test } from "vitest";
import { testServerForFile } from "../harness";
import { guildViewerOf } from "./harness";

const server = testServerForFile({ rateLimits: { enabled: false } });

let data: typeof import("@/lib/dashboard/data/cases");

beforeAll(async () => {
  // The dashboard's reads go to this file's server.
  process.env.GUILD_API_URL = `${server.baseUrl}/api`;
  const { prisma } = await import("@/lib/dashboard/db");
  const store = await import("@/lib/dashboard/cases/store");
  data = await import("@/lib/dashboard/data/cases");
  const { guildId, users, roles } = server.world;
  expect(
    (
      await server.api("admin", "PATCH", `/guilds/${guildId}/roles/${roles.helper}`, {
        permissions: String(P.KickMembers),
      })
    ).status,
  ).toBe(200);
  const entry = (actor: "mod" | "helper", action: string, reason: string) =>
    prisma.auditHistoryEntry.create({
      data: {
        guildId,
        actorId: users[actor],
        actorName: actor === "mod" ? "Mod" : "Helper",
        action,
        targetType: "user",
        targetId: users.member,
        targetName: "member",
        reason,
        status: "success",
      },
    });
  await entry("mod", "Warn member", "posting invite links");
  await entry("helper", "Remove Guild Member", "came back to spam");
  await store.syncCases(guildId);
  const [warning] = (await store.listCases(guildId, { types: ["warning"] })).cases;
  await store.editCaseReason(guildId, warning.number, { id: users.mod, name: "Mod" }, "posting invite links twice");
});

const names = (cases: Array<{ moderatorName: string; moderatorId: string }>) =>
  cases.map((c) => [c.moderatorName, c.moderatorId]);

test("without View Audit Log: their own cases named, the others' moderator hidden everywhere", async () => {
  const { users } = server.world;
  const helper = await guildViewerOf(server, "helper", "user");
  const page = await data.getCasesPage(helper, {}, null);
  expect(names(page.cases)).toEqual([
    ["Helper", users.helper],
    ["A moderator", ""],
  ]);
  expect(page.cases[1].edits.map((e) => [e.editorName, e.editorId])).toEqual([["A moderator", ""]]);
  expect(names((await data.getMemberCases(helper, users.member)).cases)).toEqual(names(page.cases));
  expect(names(await data.exportGuildCases(helper, {}))).toEqual(names(page.cases));
  expect(await data.getCaseModerators(helper)).toEqual([{ id: users.helper, name: "Helper" }]);
  // Neither the filter by another moderator nor a search for their name finds what they did.
  expect((await data.getCasesPage(helper, { moderatorId: users.mod }, null)).cases).toHaveLength(2);
  expect((await data.getCasesPage(helper, { search: "Mod" }, null)).cases).toEqual([]);
  expect((await data.getCasesPage(helper, { search: users.mod }, null)).cases).toEqual([]);
});

test("with View Audit Log: every moderator named, filtered and searched", async () => {
  const { users } = server.world;
  const mod = await guildViewerOf(server, "mod", "user");
  const page = await data.getCasesPage(mod, {}, null);
  expect(names(page.cases)).toEqual([
    ["Helper", users.helper],
    ["Mod", users.mod],
  ]);
  expect(page.cases[1].edits.map((e) => e.editorName)).toEqual(["Mod"]);
  expect((await data.getCaseModerators(mod)).map((m) => m.name)).toEqual(["Helper", "Mod"]);
  expect((await data.getCasesPage(mod, { moderatorId: users.mod }, null)).cases.map((c) => c.reason)).toEqual([
    "posting invite links twice",
  ]);
  expect((await data.getCasesPage(mod, { search: "Mod" }, null)).cases).toHaveLength(1);
});
