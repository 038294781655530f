// The README's bot-mode guide, walked in bot mode against the strict API (npm run test:e2e:bot): the application's
// OAuth2 page lists the dashboard's redirect URI, its Bot page has the Server Members intent on, signing in asks only
// for identify and guilds, and the roles the bot cannot reach are read-only with the reason. Its screenshots are the
// guide's: `DOC_SCREENSHOTS=1 npm run test:e2e:bot -- bot-mode-guide` writes them into docs/images/bot-mode/.
import fs from "node:fs";
import Database from "better-sqlite3";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { E2E_URL } from "../../playwright.config";
import { e2eDatabaseFile, hydrated, signIn, SHOTS } from "./helpers";
import { botMode } from "./mode";
import { e2eWorld } from "./world";

const DOCS = "docs/images/bot-mode";
const shotsDir = process.env.DOC_SCREENSHOTS === "1" ? DOCS : `${SHOTS}/bot-mode`;

/** A guide screenshot of `what` (a part of the page), at the width the README shows. */
async function guideShot(what: Page | Locator, name: string): Promise<void> {
  fs.mkdirSync(shotsDir, { recursive: true });
  await what.screenshot({ path: `${shotsDir}/${name}.png`, animations: "disabled" });
}

test.skip(!botMode, "the guide is bot mode's: npm run test:e2e:bot");
test.use({ viewport: { width: 1100, height: 760 } });

test("steps 1–3: the application's OAuth2 page lists the dashboard's redirect URI, its Bot page the members intent", async ({
  page,
}) => {
  const world = e2eWorld();
  await page.goto(`/developers/applications/${world.applicationId}`);
  await page.getByLabel("Username").fill("owner");
  await page.getByLabel("Password").fill("guildhall");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "General Information" })).toBeVisible();

  const oauth2 = page.locator("#oauth2");
  await expect(oauth2.getByText(world.applicationId).first()).toBeVisible();
  await expect(oauth2.getByRole("button", { name: "Reset Secret" })).toBeVisible();
  await expect(oauth2.getByRole("list", { name: "Redirect URIs" })).toContainText(
    `${E2E_URL}/api/auth/callback/guildhall`,
  );
  await guideShot(oauth2, "1-oauth2");

  const bot = page.locator("#bot");
  await expect(bot.getByRole("button", { name: "Reset Token" })).toBeVisible();
  await expect(bot.getByRole("switch", { name: /Server Members Intent/ })).toBeChecked();
  await guideShot(bot, "2-bot");
});

test("steps 6–7: signing in asks only for identify and guilds; roles above the bot's are read-only, with the reason", async ({
  page,
}) => {
  const world = e2eWorld();
  const path = `/guilds/${world.guildId}/roles`;
  await page.goto(path);
  await page.getByRole("button", { name: "Sign in with Guildhall" }).click();
  await page.getByLabel("Username").fill("owner");
  await page.getByLabel("Password").fill("guildhall");
  await page.getByRole("button", { name: "Sign in" }).click();
  // Bot mode asks for no management scope: the bot's token makes every change.
  const consent = page.locator("main");
  await expect(consent).toContainText("Access your username, avatar and banner");
  await expect(consent).toContainText("Know what servers you're in");
  await expect(consent).not.toContainText(/guildhall\.manage|Manage your servers/);
  await guideShot(page, "3-authorize");
  await page.getByRole("button", { name: "Authorize" }).click();
  await page.waitForURL((url) => url.pathname === path, { timeout: 30_000 });
  await hydrated(page);

  const demo = page.getByRole("row").filter({ hasText: "Guildhall Demo" });
  await expect(demo.getByText("Read-only: role is the bot's highest role")).toBeVisible();
  await expect(page.getByRole("button", { name: "Move Guildhall Demo up" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Edit Helper" })).toBeEnabled();
  await guideShot(page.locator("main"), "4-roles");
});

test("step 4: a server the bot is not in is listed with the link that adds it, not opened", async ({ page }) => {
  const world = e2eWorld();
  // A server of the owner's that the bot has not joined, written straight into the API's database.
  const lounge = 1191169799225399999n;
  const db = new Database(e2eDatabaseFile());
  db.pragma("busy_timeout = 5000");
  db.defaultSafeIntegers(true);
  const owner = BigInt(world.userId("owner"));
  const remove = db.transaction(() => {
    db.prepare("DELETE FROM members WHERE guild_id = ?").run(lounge);
    db.prepare("DELETE FROM roles WHERE guild_id = ?").run(lounge);
    db.prepare("DELETE FROM guilds WHERE id = ?").run(lounge);
  });
  remove();
  db.transaction(() => {
    db.prepare(
      "INSERT INTO guilds (id, name, owner_id, created_at, member_count) VALUES (?, 'Bot-less Lounge', ?, ?, 1)",
    ).run(lounge, owner, BigInt(Date.now()));
    db.prepare("INSERT INTO roles (id, guild_id, name, permissions, position) VALUES (?, ?, '@everyone', 0, 0)").run(
      lounge,
      lounge,
    );
    db.prepare(
      "INSERT INTO members (guild_id, user_id, username_key, joined_at, last_active_at, role_count, status) VALUES (?, ?, 'owner', ?, ?, 0, 'offline')",
    ).run(lounge, owner, BigInt(Date.now()), BigInt(Date.now()));
  })();
  try {
    await signIn(page, "owner", "/guilds");
    const card = page.getByRole("group", { name: "Bot-less Lounge" });
    await expect(card).toContainText("The bot isn't in this server, so the dashboard can't manage it yet.");
    const add = card.getByRole("link", { name: "Add the bot" });
    const href = new URL((await add.getAttribute("href"))!);
    expect(href.pathname).toBe("/oauth2/authorize");
    expect(Object.fromEntries(href.searchParams)).toMatchObject({
      client_id: world.applicationId,
      scope: "bot",
      permissions: "27497886385335",
      guild_id: String(lounge),
    });
    // The server the bot is in opens as before.
    await expect(page.getByRole("link", { name: /Guildhall HQ/ })).toHaveAttribute("href", `/guilds/${world.guildId}`);
    await guideShot(page.getByRole("list", { name: "Servers you can manage" }), "5-servers");
  } finally {
    remove();
    db.close();
  }
});
