// Moderation beyond the dashboard, in a real browser: a ban a bot made through the API shows in the audit history as
// a sentence naming the bot (imported from the guild's own audit log) and on the Bans page as who banned; and an
// invite link opened signed out leads to a landing page where outsider joins through the built-in provider. Unknown,
// used-up and expired invites answer their own pages with 404 and 410, and the widget's Join link lands there too.
import Database from "better-sqlite3";
import { expect, test, type Page } from "@playwright/test";
import { E2E_URL } from "../../playwright.config";
import { api, e2eDatabaseFile, hydrated, screenshot, signIn } from "./helpers";
import { botMode } from "./mode";

const shot = (page: Page, name: string) => screenshot(page, `moderation-${name}`);

test("as mod: a ban a bot made through the API reads as a sentence naming the bot, in the history and on Bans", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { world, call } = api();
  const guildId = world.guildId;
  // A plain member no other spec needs, banned by the bot and unbanned again afterwards.
  const target = world.spareMember(0);
  const targetId = target.id;
  try {
    const ban = await call("PUT", `/guilds/${guildId}/bans/${targetId}`, {}, { "x-audit-log-reason": "e2e bot ban" });
    expect(ban.status).toBe(204);

    await signIn(page, "mod", `/guilds/${guildId}/audit-history`);
    const history = page.getByRole("table", { name: "Audit history" });
    // The entry's row: who (the bot), what (the sentence's predicate) and why, each in its column.
    const entry = history
      .locator("tbody tr")
      .filter({ hasText: "Guildhall Demo" })
      .filter({ hasText: `banned ${target.username}` })
      .filter({ hasText: "e2e bot ban" });
    // The guild's log is imported when the page is read; an entry a few seconds old may wait for the next read.
    await expect(async () => {
      await page.reload();
      await expect(entry).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await expect(entry).toContainText("via bot Guildhall Demo");
    // The whole sentence names its Details button.
    await expect(
      entry.getByRole("button", { name: `Details: Guildhall Demo banned ${target.username} — reason: e2e bot ban` }),
    ).toBeVisible();
    await expect(entry.getByText("Bot", { exact: true }).first()).toBeVisible();
    await expect(entry.getByRole("button", { name: /Copy the id of Guildhall Demo/ })).toBeVisible();
    await page.getByLabel("Done in").selectOption("guild-log");
    await expect(entry).toBeVisible();
    await shot(page, "audit-bot-ban");
    await page.setViewportSize({ width: 390, height: 844 });
    await hydrated(page);
    await expect(entry).toBeVisible();
    // A card per entry: nothing wider than the phone.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await shot(page, "audit-bot-ban-phone");
    await page.setViewportSize({ width: 1440, height: 900 });

    // The Bans page names who banned: the bot, outside the dashboard.
    await page.goto(`/guilds/${guildId}/bans?q=${targetId}`);
    await hydrated(page);
    const row = page.getByRole("table", { name: "Bans" }).getByRole("row").filter({ hasText: target.username });
    await expect(row).toContainText("Guildhall Demo");
    await expect(row).toContainText("by a bot");
    await shot(page, "bans-banned-by");
  } finally {
    await call("DELETE", `/guilds/${guildId}/bans/${targetId}`);
  }
});

test("as mod: the history's Target filter finds a member by id, username, global name and the nickname they had then (issue 30)", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { world, call } = api();
  const guildId = world.guildId;
  const target = world.spareMember(6);
  // A global name unlike the username (as most people on Discord have), written straight into the database.
  const db = new Database(e2eDatabaseFile());
  db.pragma("busy_timeout = 5000");
  const setGlobalName = (name: string | null) =>
    db.prepare("UPDATE users SET global_name = ? WHERE id = ?").run(name, BigInt(target.id));
  const stamp = Date.now() % 100_000;
  const globalName = `Quill ${stamp}`;
  const nick = `Nightjar${stamp}`;
  try {
    setGlobalName(globalName);
    await signIn(page, "mod", `/guilds/${guildId}/members?member=${target.id}`);
    const panel = page.getByRole("dialog");
    await panel.getByRole("textbox", { name: "Nickname" }).fill(nick);
    await panel.getByRole("button", { name: "Save nickname" }).click();
    await expect(page.getByRole("status").filter({ hasText: `Nickname set to ${nick}` })).toBeVisible();
    await panel.getByRole("button", { name: "Time out", exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: "Timed out until" })).toBeVisible();
    await panel.getByRole("button", { name: "Remove timeout" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Timeout removed" })).toBeVisible();

    const history = page.getByRole("table", { name: "Audit history" });
    const found = async (query: string) => {
      await page.goto(`/guilds/${guildId}/audit-history?source=dashboard&target=${encodeURIComponent(query)}`);
      await hydrated(page);
      return history
        .locator("tbody")
        .getByRole("row")
        .filter({ hasText: /changed/ });
    };
    // Three entries: the nickname, the timeout and its removal; every name the member went by finds all three
    // (the nickname: the two made while they had it, and the one that gave it).
    for (const query of [target.id, target.username, target.username.toUpperCase(), globalName, nick]) {
      await expect(await found(query), `target=${query}`).toHaveCount(3);
    }
    await shot(page, "audit-target-filter");
  } finally {
    setGlobalName(null);
    db.close();
    await call("PATCH", `/guilds/${guildId}/members/${target.id}`, { nick: null, communication_disabled_until: null });
  }
});

test("signed out: an invite link leads to a landing page, and outsider joins through the built-in provider", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { world, call } = api();
  const guildId = world.guildId;
  const outsider = world.userId("outsider");
  const created = await call<{ code: string }>("POST", `/channels/${world.channelId("general")}/invites`, {
    max_age: 3600,
    // In bot mode the page joins only through invites without a use count (lib/dashboard/invite-join.ts).
    max_uses: botMode ? 0 : 2,
    unique: true,
  });
  expect(created.status).toBe(200);
  const code = created.body.code;
  try {
    const landing = await page.goto(`/invite/${code}`);
    expect(landing?.status()).toBe(200);
    await expect(page.getByRole("heading", { name: "Guildhall HQ" })).toBeVisible();
    await expect(page.getByText("Guildhall Demo invited you to join")).toBeVisible();
    await expect(page.getByLabel("Members")).toContainText(/\d+ online/);
    await expect(page.getByLabel("Members")).toContainText(/\d+ members/);
    await expect(page.getByText(/Into #general · Expires in (1 hour|60 minutes)/)).toBeVisible();
    await shot(page, "invite-landing");

    await page.getByRole("link", { name: "Join Guildhall HQ" }).click();
    await expect(page).toHaveURL(/\/oauth2\/authorize\?.*scope=identify\+guilds\.join/);
    await page.getByLabel("Username").fill("outsider");
    await page.getByLabel("Password").fill("guildhall");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("button", { name: "Authorize" }).click();
    await page.waitForURL((url) => url.pathname === `/invite/${code}` && url.searchParams.get("join") === "joined");
    await expect(page.getByRole("status").filter({ hasText: "You joined the server." })).toBeVisible();
    await expect(page.getByText("You are a member of Guildhall HQ.")).toBeVisible();
    await shot(page, "invite-joined");
    expect((await call("GET", `/guilds/${guildId}/members/${outsider}`)).status).toBe(200);

    // Signed in at the provider now: the page knows outsider is a member.
    await page.goto(`/invite/${code}`);
    await expect(page.getByText("You are a member of Guildhall HQ.")).toBeVisible();

    const unknown = await page.goto("/invite/nosuchinv1");
    expect(unknown?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "This invite is invalid" })).toBeVisible();

    // An invite past its expiry and one whose uses are all taken (written straight into the database: nobody waits
    // an hour in a test).
    const expiredCode = `e2eold${Date.now() % 10_000}`;
    const usedUpCode = `e2eused${Date.now() % 10_000}`;
    const db = new Database(e2eDatabaseFile());
    db.pragma("busy_timeout = 5000");
    const insert = db.prepare(
      `INSERT INTO invites (code, guild_id, channel_id, inviter_id, max_age, max_uses, uses, temporary, created_at, expires_at)
       VALUES (?, ?, ?, NULL, 60, ?, ?, 0, ?, ?)`,
    );
    const general = BigInt(world.channelId("general"));
    insert.run(expiredCode, BigInt(guildId), general, 0, 0, Date.now() - 120_000, Date.now() - 60_000);
    insert.run(usedUpCode, BigInt(guildId), general, 3, 3, Date.now() - 120_000, null);
    db.close();
    const usedUp = await page.goto(`/invite/${usedUpCode}`);
    expect(usedUp?.status()).toBe(410);
    await expect(page.getByRole("heading", { name: "This invite has been used up" })).toBeVisible();
    const expired = await page.goto(`/invite/${expiredCode}`);
    expect(expired?.status()).toBe(410);
    await expect(page.getByRole("heading", { name: "This invite has expired" })).toBeVisible();
    await shot(page, "invite-expired");

    // The widget's Join link lands on the same page.
    const widget = await call<{ instant_invite: string | null }>("GET", `/guilds/${guildId}/widget.json`);
    expect(widget.body.instant_invite).toMatch(new RegExp(`^${E2E_URL}/invite/[A-Za-z0-9]+$`));
    const fromWidget = await page.goto(widget.body.instant_invite!);
    expect(fromWidget?.status()).toBe(200);
    await expect(page.getByRole("heading", { name: "Guildhall HQ" })).toBeVisible();
  } finally {
    await call("DELETE", `/guilds/${guildId}/members/${outsider}`);
    await call("DELETE", `/invites/${code}`);
  }
});
