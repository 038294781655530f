// Column visibility, remembered per moderator: saveTableColumnsAction stores the columns the signed-in moderator hides
// in a table, under their own user id and nobody else's, after validating the table and every column against
// lib/dashboard/table-columns.ts; getHiddenColumns reads back only what the table still lets hide. Against the
// harness server's database (SQLite, or PostgreSQL with INTEGRATION_DATABASE=postgresql), with the session the app
// would read from the cookie replaced by a harness session.
import { beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { getDashboardSession } from "@/lib/dashboard/auth/session";
import { HIDEABLE_COLUMNS } from "@/lib/dashboard/table-columns";
import { testServerForFile } from "../harness";
import { dashboardSessionOf, type DemoUser } from "./harness";

// The session comes from next-auth's cookie in the app; outside Next there is no request, so each test says whose it is.
vi.mock("@/lib/dashboard/auth/session", () => ({ getDashboardSession: vi.fn() }));

const server = testServerForFile();

// Imported once the server has set DATABASE_URL: the dashboard's Prisma client is made on import.
let prisma: typeof import("@/lib/dashboard/db").prisma;
let saveTableColumnsAction: typeof import("@/lib/dashboard/actions/table-preferences").saveTableColumnsAction;
let preferences: typeof import("@/lib/dashboard/table-preferences");

beforeAll(async () => {
  ({ prisma } = await import("@/lib/dashboard/db"));
  ({ saveTableColumnsAction } = await import("@/lib/dashboard/actions/table-preferences"));
  preferences = await import("@/lib/dashboard/table-preferences");
});

beforeEach(async () => {
  await prisma.tablePreference.deleteMany();
});

async function signedInAs(who: DemoUser): Promise<string> {
  const session = await dashboardSessionOf(server, who);
  vi.mocked(getDashboardSession).mockResolvedValue(session);
  return session.actor.id;
}

const storedRows = () =>
  prisma.tablePreference.findMany({
    select: { userId: true, tableId: true, hiddenColumns: true },
    orderBy: [{ userId: "asc" }, { tableId: "asc" }],
  });

describe("saving and reading back", () => {
  test("stores the moderator's hidden columns under their Discord user id, in the table's order, once each", async () => {
    const modId = await signedInAs("mod");
    const result = await saveTableColumnsAction({ table: "members", hidden: ["status", "roles", "status"] });
    expect(result).toEqual({ ok: true, data: { table: "members", hidden: ["roles", "status"] } });
    expect(await preferences.getHiddenColumns(modId, "members")).toEqual(["roles", "status"]);
    // The session's actor (a snowflake), not next-auth's DashboardUser id.
    expect(await storedRows()).toEqual([{ userId: modId, tableId: "members", hiddenColumns: '["roles","status"]' }]);
    expect(modId).toMatch(/^\d+$/);
  });

  test("a later save replaces the last choice; an empty list shows every column again", async () => {
    const modId = await signedInAs("mod");
    await saveTableColumnsAction({ table: "bans", hidden: ["by", "reason"] });
    expect(await saveTableColumnsAction({ table: "bans", hidden: ["reason"] })).toMatchObject({ ok: true });
    expect(await preferences.getHiddenColumns(modId, "bans")).toEqual(["reason"]);
    expect(await saveTableColumnsAction({ table: "bans", hidden: [] })).toEqual({
      ok: true,
      data: { table: "bans", hidden: [] },
    });
    expect(await preferences.getHiddenColumns(modId, "bans")).toEqual([]);
    expect(await storedRows()).toHaveLength(1);
  });

  test("each table has its own choice, and nothing stored reads as nothing hidden", async () => {
    const modId = await signedInAs("mod");
    await saveTableColumnsAction({ table: "audit-history", hidden: ["source"] });
    await saveTableColumnsAction({ table: "job-results", hidden: ["detail"] });
    expect(await preferences.getHiddenColumns(modId, "audit-history")).toEqual(["source"]);
    expect(await preferences.getHiddenColumns(modId, "job-results")).toEqual(["detail"]);
    expect(await preferences.getHiddenColumns(modId, "invites")).toEqual([]);
  });

  test("every table's every hideable column can be saved", async () => {
    const modId = await signedInAs("mod");
    for (const [table, columns] of Object.entries(HIDEABLE_COLUMNS)) {
      const result = await saveTableColumnsAction({
        table: table as keyof typeof HIDEABLE_COLUMNS,
        hidden: [...columns],
      });
      expect(result, table).toEqual({ ok: true, data: { table, hidden: [...columns] } });
      expect(await preferences.getHiddenColumns(modId, table as keyof typeof HIDEABLE_COLUMNS), table).toEqual([
        ...columns,
      ]);
    }
  });
});

describe("per moderator", () => {
  test("another moderator's choices are separate, for the same table", async () => {
    const modId = await signedInAs("mod");
    await saveTableColumnsAction({ table: "members", hidden: ["roles"] });
    const helperId = await signedInAs("helper");
    await saveTableColumnsAction({ table: "members", hidden: ["joined", "created"] });
    expect(await preferences.getHiddenColumns(modId, "members")).toEqual(["roles"]);
    expect(await preferences.getHiddenColumns(helperId, "members")).toEqual(["joined", "created"]);
    const adminId = server.world.users.admin;
    expect(await preferences.getHiddenColumns(adminId, "members")).toEqual([]);
  });

  test("only the caller's own row changes: a user id sent with the input is ignored", async () => {
    const helperId = await signedInAs("helper");
    await saveTableColumnsAction({ table: "invites", hidden: ["uses"] });
    const modId = await signedInAs("mod");
    const result = await saveTableColumnsAction({
      table: "invites",
      hidden: ["inviter", "details"],
      userId: helperId,
    } as Parameters<typeof saveTableColumnsAction>[0]);
    expect(result).toMatchObject({ ok: true });
    expect(await preferences.getHiddenColumns(helperId, "invites")).toEqual(["uses"]);
    expect(await preferences.getHiddenColumns(modId, "invites")).toEqual(["inviter", "details"]);
  });

  test("concurrent first saves of one moderator's table all succeed into one row", async () => {
    const modId = await signedInAs("mod");
    const choices = [["who"], ["days"], ["roles", "count"], ["outcome"], []];
    const results = await Promise.all(
      choices.map((hidden) => saveTableColumnsAction({ table: "prune-history", hidden })),
    );
    expect(results.map((result) => result.ok)).toEqual(choices.map(() => true));
    const rows = await storedRows();
    expect(rows).toHaveLength(1);
    // Whichever came last: one of the choices, whole.
    expect(choices.map((hidden) => JSON.stringify(hidden))).toContain(rows[0].hiddenColumns);
    expect(choices).toContainEqual(await preferences.getHiddenColumns(modId, "prune-history"));
  });
});

describe("validation: a field error, and nothing stored", () => {
  const invalid = (fieldErrors: Record<string, string[]>) => ({
    ok: false,
    error: "Some fields need your attention.",
    fieldErrors,
    status: 400,
  });

  test("an unknown table", async () => {
    await signedInAs("mod");
    const result = await saveTableColumnsAction({ table: "secrets", hidden: [] } as unknown as Parameters<
      typeof saveTableColumnsAction
    >[0]);
    expect(result).toEqual(invalid({ table: ["Not one of the dashboard's tables."] }));
    expect(await storedRows()).toEqual([]);
  });

  test("a column the table does not have, or may not hide, leaves the last choice as it was", async () => {
    const modId = await signedInAs("mod");
    await saveTableColumnsAction({ table: "members", hidden: ["status"] });
    // "user" is the members table's first column, which always shows; "reason" is the bans table's.
    const result = await saveTableColumnsAction({ table: "members", hidden: ["roles", "user", "reason"] });
    expect(result).toEqual(
      invalid({
        "hidden.1": ['The members table has no column "user" to hide.'],
        "hidden.2": ['The members table has no column "reason" to hide.'],
      }),
    );
    expect(await preferences.getHiddenColumns(modId, "members")).toEqual(["status"]);
  });

  test("too many entries, or one too long to be a column id", async () => {
    await signedInAs("mod");
    const many = Array.from({ length: 21 }, (_, index) => `column${index}`);
    expect(await saveTableColumnsAction({ table: "members", hidden: many })).toEqual(
      invalid({ hidden: ["At most 20 columns."] }),
    );
    expect(await saveTableColumnsAction({ table: "members", hidden: ["r".repeat(33)] })).toEqual(
      invalid({ "hidden.0": ["Not a column id."] }),
    );
    expect(await storedRows()).toEqual([]);
  });

  test("input that is not the shape at all", async () => {
    await signedInAs("mod");
    const result = await saveTableColumnsAction({ table: "members", hidden: "roles" } as unknown as Parameters<
      typeof saveTableColumnsAction
    >[0]);
    expect(result).toMatchObject({ ok: false, status: 400, fieldErrors: { hidden: [expect.any(String)] } });
    expect(await storedRows()).toEqual([]);
  });
});

test("signed out: refused as every dashboard action refuses, before the input is read, and nothing stored", async () => {
  vi.mocked(getDashboardSession).mockResolvedValue(null);
  expect(await saveTableColumnsAction({ table: "members", hidden: ["roles"] })).toEqual({
    ok: false,
    error: "Your session has expired. Sign in again.",
    fieldErrors: {},
    status: 401,
  });
  expect(await storedRows()).toEqual([]);
});

describe("reading what was stored before the table changed", () => {
  test("a stored id the table no longer lets hide is dropped, the rest kept in the table's order", async () => {
    const modId = server.world.users.mod;
    await prisma.tablePreference.create({
      data: { userId: modId, tableId: "members", hiddenColumns: '["status","nickname","roles"]' },
    });
    expect(await preferences.getHiddenColumns(modId, "members")).toEqual(["roles", "status"]);
  });

  test("a row that is not a JSON list of ids reads as nothing hidden", async () => {
    const modId = server.world.users.mod;
    await prisma.tablePreference.createMany({
      data: [
        { userId: modId, tableId: "bans", hiddenColumns: "by,reason" },
        { userId: modId, tableId: "invites", hiddenColumns: '{"uses":true}' },
        { userId: modId, tableId: "integrations", hiddenColumns: '["bot",7,null]' },
      ],
    });
    expect(await preferences.getHiddenColumns(modId, "bans")).toEqual([]);
    expect(await preferences.getHiddenColumns(modId, "invites")).toEqual([]);
    expect(await preferences.getHiddenColumns(modId, "integrations")).toEqual(["bot"]);
  });

  test("saving through the library keeps only hideable ids too", async () => {
    const modId = server.world.users.mod;
    expect(await preferences.saveHiddenColumns(modId, "bans", ["reason", "moderator"])).toEqual(["reason"]);
    expect(await storedRows()).toEqual([{ userId: modId, tableId: "bans", hiddenColumns: '["reason"]' }]);
  });
});
