// Prune, safety and integrations in a real browser, signed in through the real OAuth2 flow, every change checked
// through the guild API with the demo bot's token.
//
// The prune runs in a guild this spec seeds itself ("Prune Yard"), not in Guildhall HQ: in the demo world bo_fox has
// no roles and has been idle for about 41 days, so every prune of HQ (days are at most 30, and members without roles
// are always candidates) would remove bo_fox, whom other specs need. The yard is removed again afterwards.
import Database from "better-sqlite3";
import { expect, test, type Page } from "@playwright/test";
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { e2eWorld } from "./world";
import { api, e2eDatabaseFile, hydrated, screenshot, signIn } from "./helpers";
import { botMode, recordedReason } from "./mode";

const shot = (page: Page, name: string) => screenshot(page, `prune-safety-${name}`);

const DAY = 86_400_000;
const PROTECTED = ["owner", "admin", "mod", "helper", "member", "ada_fox", "bo_fox"] as const;

const YARD = 1_300_000_000_000_000_000n;
const YARD_ROLES = { lurker: YARD + 1n, keeper: YARD + 2n, warden: YARD + 3n, bot: YARD + 4n };
const YARD_INTEGRATION = YARD + 5n;
/** username → [roles, days idle, pruned by 30 days with Lurker included] */
const YARD_MEMBERS: Record<string, [bigint[], number, boolean]> = {
  yard_idle_a: [[], 40, true],
  yard_idle_b: [[], 33, true],
  yard_lurker_idle: [[YARD_ROLES.lurker], 50, true],
  yard_lurker_keeper: [[YARD_ROLES.lurker, YARD_ROLES.keeper], 50, false],
  yard_recent: [[], 10, false],
  yard_lurker_active: [[YARD_ROLES.lurker], 1, false],
};
const yardUserId = (name: string) => YARD + 100n + BigInt(Object.keys(YARD_MEMBERS).indexOf(name));

/** Seeds Prune Yard: mod may prune there (Warden), the demo bot is an administrator, members idle for a set time. */
function seedYard(): void {
  const world = e2eWorld();
  const db = new Database(e2eDatabaseFile());
  db.pragma("busy_timeout = 5000");
  const now = Date.now();
  const owner = BigInt(world.userId("owner"));
  const mod = BigInt(world.userId("mod"));
  const bot = BigInt(
    world.query<{ id: bigint }>(
      "SELECT bot_user_id AS id FROM applications WHERE id = ?",
      BigInt(world.applicationId),
    )[0].id,
  );
  db.transaction(() => {
    db.prepare("INSERT INTO guilds (id, name, owner_id, created_at) VALUES (?, 'Prune Yard', ?, ?)").run(
      YARD,
      owner,
      now - 90 * DAY,
    );
    const role = db.prepare("INSERT INTO roles (id, guild_id, name, permissions, position) VALUES (?, ?, ?, ?, ?)");
    role.run(YARD, YARD, "@everyone", P.ViewChannel, 0);
    role.run(YARD_ROLES.lurker, YARD, "Lurker", 0n, 1);
    role.run(YARD_ROLES.keeper, YARD, "Keeper", 0n, 2);
    role.run(YARD_ROLES.warden, YARD, "Warden", P.ManageGuild | P.KickMembers, 3);
    role.run(YARD_ROLES.bot, YARD, "Yard Bot", P.Administrator, 4);
    const member = db.prepare(
      "INSERT INTO members (guild_id, user_id, username_key, joined_at, last_active_at, role_count, status) VALUES (?, ?, ?, ?, ?, ?, 'offline')",
    );
    const memberRole = db.prepare("INSERT INTO member_roles (guild_id, user_id, role_id) VALUES (?, ?, ?)");
    const add = (userId: bigint, name: string, roles: bigint[], idleDays: number) => {
      member.run(YARD, userId, name, now - 60 * DAY, now - idleDays * DAY, roles.length);
      for (const roleId of roles) memberRole.run(YARD, userId, roleId);
    };
    add(owner, "owner", [], 0);
    add(mod, "mod", [YARD_ROLES.warden], 0);
    add(bot, "guildhall-demo", [YARD_ROLES.bot], 0);
    for (const [name, [roles, idle]] of Object.entries(YARD_MEMBERS)) {
      db.prepare("INSERT INTO users (id, username, discriminator, bot, created_at) VALUES (?, ?, '0', 0, ?)").run(
        yardUserId(name),
        name,
        now - 400 * DAY,
      );
      add(yardUserId(name), name, roles, idle);
    }
    db.prepare("UPDATE guilds SET member_count = ? WHERE id = ?").run(3 + Object.keys(YARD_MEMBERS).length, YARD);
    db.prepare(
      "INSERT INTO integrations (id, guild_id, name, type, enabled, user_id, account_id, account_name, application_id, scopes, created_at) VALUES (?, ?, 'Yard Helper', 'discord', 1, ?, ?, 'Yard Helper', ?, ?, ?)",
    ).run(
      YARD_INTEGRATION,
      YARD,
      owner,
      String(bot),
      BigInt(world.applicationId),
      JSON.stringify(["bot"]),
      now - 30 * DAY,
    );
  })();
  db.close();
}

/** Removes every row of Prune Yard (each table with a guild id column) and its users. */
function removeYard(): void {
  const db = new Database(e2eDatabaseFile());
  db.pragma("busy_timeout = 5000");
  const tables = db
    .prepare(
      "SELECT m.name AS tableName, p.name AS column FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE m.type = 'table' AND p.name IN ('guild_id', 'guildId')",
    )
    .all() as Array<{ tableName: string; column: string }>;
  db.transaction(() => {
    for (const { tableName, column } of tables)
      db.prepare(`DELETE FROM "${tableName}" WHERE "${column}" = ?`).run(column === "guildId" ? String(YARD) : YARD);
    db.prepare("DELETE FROM guilds WHERE id = ?").run(YARD);
    for (const name of Object.keys(YARD_MEMBERS)) db.prepare("DELETE FROM users WHERE id = ?").run(yardUserId(name));
  })();
  db.close();
}

const toast = (page: Page, text: string | RegExp) => page.getByRole("status").filter({ hasText: text });

test.describe.configure({ mode: "serial" });

test.beforeAll(() => seedYard());
test.afterAll(() => removeYard());

test("as mod: preview a prune, change the roles, preview again, run it on the fresh preview; only the idle fixtures go", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { world, call } = api();
  const yard = String(YARD);
  const hqMembership = async () =>
    Promise.all(
      PROTECTED.map(
        async (name) => (await call("GET", `/guilds/${world.guildId}/members/${world.userId(name)}`)).status,
      ),
    );
  const protectedBefore = await hqMembership();

  await signIn(page, "mod", `/guilds/${yard}/prune`);
  await expect(page.getByText("No previews yet")).toBeVisible();
  await shot(page, "prune-empty");

  await page.getByLabel("Inactive for at least").fill("30");
  await page.getByRole("button", { name: "Estimate" }).click();
  await expect(toast(page, "2 members would be removed.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "2 members would be removed" })).toBeVisible();

  // Including Lurker: the run form now belongs to an older preview, and says so.
  await page.getByRole("checkbox", { name: "Lurker" }).check();
  await expect(page.getByText("The parameters above changed since this preview.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Run prune" })).toBeDisabled();
  await page.getByRole("button", { name: "Estimate" }).click();
  await expect(toast(page, "3 members would be removed.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "3 members would be removed" })).toBeVisible();
  const count = await call<{ pruned: number }>(
    "GET",
    `/guilds/${yard}/prune?days=30&include_roles=${YARD_ROLES.lurker}`,
  );
  expect(count.body.pruned).toBe(3);

  const history = page.getByRole("table", { name: "Prune previews" });
  await expect(history.getByRole("row")).toHaveCount(3); // header + two previews
  await expect(history.getByRole("row").nth(1)).toContainText("Lurker");
  await expect(history.getByRole("row").nth(1)).toContainText(/Fresh for \d+ min/);
  await expect(history.getByRole("row").nth(1)).toContainText("just now");

  // The count must be typed back, and a reason given.
  const run = page.getByRole("button", { name: "Run prune" });
  await page.getByLabel("Type 3 to confirm").fill("2");
  await page.getByLabel("Reason", { exact: true }).fill("e2e: idle fixtures in Prune Yard");
  await expect(run).toBeDisabled();
  await page.getByLabel("Type 3 to confirm").fill("3");
  await expect(page.getByRole("switch", { name: /Count the removed members/ })).toBeChecked();
  await expect(page.getByText(/Recommended off for large servers/)).toBeVisible();
  await shot(page, "prune-confirm");
  await run.click();
  await expect(toast(page, "Pruned 3 members.")).toBeVisible();
  await expect(page.getByText("Pruned 3 members, as the preview said.")).toBeVisible();
  await expect(history.getByRole("row").nth(1)).toContainText("Pruned 3");

  for (const [name, [, , pruned]] of Object.entries(YARD_MEMBERS)) {
    expect((await call("GET", `/guilds/${yard}/members/${yardUserId(name)}`)).status, name).toBe(pruned ? 404 : 200);
  }
  expect(await hqMembership()).toEqual(protectedBefore);
  expect(protectedBefore.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
  const log = await call<{
    audit_log_entries: Array<{ reason: string; options: { members_removed: string; delete_member_days: string } }>;
  }>("GET", `/guilds/${yard}/audit-logs?action_type=21&limit=1`);
  expect(log.body.audit_log_entries[0]).toMatchObject({
    reason: recordedReason("e2e: idle fixtures in Prune Yard", { name: "Mod", id: world.userId("mod") }),
    options: { members_removed: "3", delete_member_days: "30" },
  });
  await shot(page, "prune-done");

  // The Previewed header sorts oldest first on the server (URL, aria-sort): the first preview, without Lurker, leads.
  const previewed = history.getByRole("columnheader", { name: "Previewed" });
  await expect(previewed).toHaveAttribute("aria-sort", "descending");
  await previewed.getByRole("button").click();
  await expect(page).toHaveURL(/[?&]sort=oldest(&|$)/);
  await expect(previewed).toHaveAttribute("aria-sort", "ascending");
  await expect(page.getByLabel("Sort by")).toHaveValue("oldest");
  await expect(history.getByRole("row").nth(1)).not.toContainText("Lurker");
  await expect(history.getByRole("row").nth(2)).toContainText("Pruned 3");

  await page.goto(`/guilds/${yard}/audit-history`);
  await hydrated(page);
  const auditHistory = page.getByRole("table", { name: "Audit history" });
  // The run, and the preview recorded as a preview (not as the API read it used).
  await expect(
    auditHistory.locator("tbody tr").filter({ hasText: "pruned 3 members inactive for 30 days" }).first(),
  ).toContainText("e2e: idle fixtures in Prune Yard");
  await expect(
    auditHistory
      .locator("tbody tr")
      .filter({ hasText: /previewed a prune: \d+ members? inactive for 30 days/ })
      .first(),
  ).toBeVisible();
  await expect(auditHistory).not.toContainText("Get Guild Prune Count");
});

test("as mod: a prune with the keyboard alone (days, Estimate, the count typed back, a reason, Run prune)", async ({
  page,
}) => {
  const { call } = api();
  const yard = String(YARD);
  await signIn(page, "mod", `/guilds/${yard}/prune`);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const tabTo = async (label: string, target = page.getByLabel(label, { exact: true })) => {
    for (let i = 0; i < 80; i++) {
      if (await target.evaluate((el) => el === document.activeElement)) return;
      await page.keyboard.press("Tab");
    }
    throw new Error(`Tab never reached ${label}`);
  };
  // After the first prune, yard_recent (no roles, idle 10 days) is the only member idle for a week without roles.
  await tabTo("Inactive for at least");
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type("7");
  await tabTo("Estimate", page.getByRole("button", { name: "Estimate" }));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "1 member would be removed" })).toBeVisible();
  await tabTo("Type 1 to confirm");
  await page.keyboard.type("1");
  await tabTo("Reason");
  await page.keyboard.type("e2e: keyboard-only prune");
  await tabTo("Run prune", page.getByRole("button", { name: "Run prune" }));
  await page.keyboard.press("Enter");
  await expect(toast(page, "Pruned 1 member.")).toBeVisible();
  expect((await call("GET", `/guilds/${yard}/members/${yardUserId("yard_recent")}`)).status).toBe(404);
  for (const kept of ["yard_lurker_keeper", "yard_lurker_active"])
    expect((await call("GET", `/guilds/${yard}/members/${yardUserId(kept)}`)).status, kept).toBe(200);
  await shot(page, "prune-keyboard");
});

test("as mod: pause invites for an hour (invite creation refused, live countdown), lift early; raid alerts off and on; vanity URL", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { world, call } = api();
  const guildId = world.guildId;
  type Guild = {
    features: string[];
    incidents_data: { invites_disabled_until: string | null; dms_disabled_until: string | null } | null;
  };
  const guild = async () => (await call<Guild>("GET", `/guilds/${guildId}`)).body;
  const before = await guild();
  try {
    await signIn(page, "mod", `/guilds/${guildId}/safety`);
    await expect(page.getByTestId("vanity-code")).toHaveText("guildhall");
    await expect(page.getByRole("region", { name: "Pause invites" })).toContainText("Not paused");

    await page.getByRole("button", { name: "Pause invites for 1 hour" }).click();
    await expect(toast(page, "Invites paused for 1 hour.")).toBeVisible();
    const countdown = page.getByTestId("invites-countdown");
    await expect(countdown).toContainText(/Invites are paused for 59 min \d\d s more/);
    const first = await countdown.textContent();
    await expect(countdown).not.toHaveText(first!, { timeout: 3000 });
    const paused = (await guild()).incidents_data!;
    expect(Date.parse(paused.invites_disabled_until!) - Date.now()).toBeGreaterThan(58 * 60_000);
    const refused = await call<{ message: string }>("POST", `/channels/${world.channelId("general")}/invites`, {
      max_age: 60,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/Invites are currently paused/);
    await shot(page, "safety-paused");

    await page.getByRole("region", { name: "Pause invites" }).getByRole("button", { name: "Lift now" }).click();
    await expect(toast(page, "Invites are no longer paused.")).toBeVisible();
    await expect(page.getByRole("region", { name: "Pause invites" })).toContainText("Not paused");
    expect((await guild()).incidents_data?.invites_disabled_until ?? null).toBeNull();

    const raid = page.getByRole("switch", { name: /Raid alerts/ });
    await expect(raid).toBeChecked();
    await raid.uncheck({ force: true });
    await expect(toast(page, "Raid alerts are off.")).toBeVisible();
    expect((await guild()).features).toContain("RAID_ALERTS_DISABLED");
    // The switch stays disabled until the page has refreshed after the toast (a forced click would be lost).
    await expect(raid).toBeEnabled();
    await expect(raid).not.toBeChecked();
    await raid.check({ force: true });
    await expect(toast(page, "Raid alerts are on.")).toBeVisible();
    expect((await guild()).features).not.toContain("RAID_ALERTS_DISABLED");

    await page.goto(`/guilds/${guildId}/audit-history`);
    await hydrated(page);
    await expect(
      page
        .getByRole("table", { name: "Audit history" })
        .locator("tbody tr")
        .filter({ hasText: "changed the safety actions" })
        .first(),
    ).toBeVisible();

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/guilds/${guildId}/safety`);
    await hydrated(page);
    await shot(page, "safety-phone");
  } finally {
    const now = Date.now();
    const keep = (until: string | null | undefined) => (until && Date.parse(until) > now ? until : null);
    await call("PUT", `/guilds/${guildId}/incident-actions`, {
      invites_disabled_until: keep(before.incidents_data?.invites_disabled_until),
      dms_disabled_until: keep(before.incidents_data?.dms_disabled_until),
    });
    await call("PATCH", `/guilds/${guildId}`, { features: before.features });
  }
});

test("as owner: the MFA requirement is shown with who may change it", async ({ page }) => {
  const { world } = api();
  await signIn(page, "owner", `/guilds/${world.guildId}/safety`);
  const card = page
    .locator("section")
    .filter({ has: page.getByRole("heading", { name: "Two-factor requirement for moderators" }) });
  await expect(card).toContainText("Off");
  await expect(card).toContainText("Only the server owner can change this");
  await expect(card).toContainText("As the owner, change it in your Discord client");
  await shot(page, "safety-owner");
});

test("as mod: integrations list their bot and sync state; deleting warns that the bot is kicked", async ({ page }) => {
  test.setTimeout(120_000);
  const { world, call } = api();
  await signIn(page, "mod", `/guilds/${world.guildId}/integrations`);
  const table = page.getByRole("table", { name: "Integrations" });
  const demo = table.getByRole("row").filter({ hasText: "Guildhall Demo" });
  await expect(demo).toContainText("Bot");
  await expect(demo).toContainText("guildhall-demo");
  const live = table.getByRole("row").filter({ hasText: "guildhall_live" });
  await expect(live).toContainText("Twitch");
  await expect(live).toContainText("42 subscribers");
  // The sync time in the reader's locale (the browser's en-US here), in UTC.
  await expect(live).toContainText(/synced [A-Z][a-z]{2} \d{1,2}, \d{4}, .+ UTC/);
  await shot(page, "integrations");

  // HQ's demo bot stays: open the warning and cancel.
  await page.getByRole("button", { name: "Delete Guildhall Demo" }).click();
  let dialog = page.getByRole("dialog", { name: "Delete Guildhall Demo?" });
  await expect(dialog.getByRole("alert")).toContainText("Its bot, guildhall-demo, is kicked from the server.");
  await shot(page, "integrations-warning");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  const hq = await call<Array<{ name: string }>>("GET", `/guilds/${world.guildId}/integrations`);
  expect(hq.body.map((i) => i.name)).toContain("Guildhall Demo");

  // In Prune Yard the bot integration goes, and the bot with it.
  const yard = String(YARD);
  await page.goto(`/guilds/${yard}/integrations`);
  await hydrated(page);
  await page.getByRole("button", { name: "Delete Yard Helper" }).click();
  dialog = page.getByRole("dialog", { name: "Delete Yard Helper?" });
  await expect(dialog.getByRole("alert")).toContainText("Its bot, guildhall-demo, is kicked from the server.");
  await dialog.getByLabel("Reason").fill("e2e: retire the yard bot");
  await dialog.getByRole("button", { name: "Delete integration" }).click();
  await expect(toast(page, "Deleted Yard Helper.")).toBeVisible();
  if (botMode)
    // The bot kicked is the dashboard's own: the server is out of its reach, and the refreshed page says so.
    await expect(page.getByRole("heading", { name: "Server not found" })).toBeVisible();
  else await expect(page.getByText("No integrations")).toBeVisible();
  expect(world.query("SELECT 1 FROM integrations WHERE id = ?", YARD_INTEGRATION)).toHaveLength(0);
  const botId = world.query<{ id: bigint }>(
    "SELECT bot_user_id AS id FROM applications WHERE id = ?",
    BigInt(world.applicationId),
  )[0].id;
  expect(world.query("SELECT 1 FROM members WHERE guild_id = ? AND user_id = ?", YARD, botId)).toHaveLength(0);
  // MEMBER_KICK is not written for it; INTEGRATION_DELETE (82) carries the reason.
  const entries = world.query<{ reason: string }>(
    "SELECT reason FROM audit_log_entries WHERE guild_id = ? AND action_type = 82",
    YARD,
  );
  expect(entries.map((e) => e.reason)).toEqual([
    recordedReason("e2e: retire the yard bot", { name: "Mod", id: world.userId("mod") }),
  ]);
  // The demo bot is still in HQ.
  expect((await call("GET", `/guilds/${world.guildId}/members/${botId}`)).status).toBe(200);
});
