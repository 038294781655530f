// Ban appeals in a real browser (issue #32): `mod` opens the appeal form; `outsider`, banned, signs in on
// /appeal/{guildId} through the built-in provider (identify only), sees the ban's reason and answers; `mod` rejects
// with a message the user then reads; a week later (the decision's time moved back in the database) the user appeals
// again and `mod` accepts: the user is unbanned (checked through the API with the bot token) and both decisions are
// cases. Screenshots of each page.
import Database from "better-sqlite3";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { api, e2eDatabaseFile, hydrated, screenshot, signIn } from "./helpers";

test.describe.configure({ mode: "serial" });

const shot = (page: Page, label: string) => screenshot(page, `appeals-${label}`);

async function appellantPage(browser: Browser, guildId: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await page.goto(`/appeal/${guildId}`);
  await page.getByRole("link", { name: "Sign in to appeal" }).click();
  await expect(page).toHaveURL(/\/oauth2\/authorize/);
  await expect(page.getByText(/identify|username/i).first()).toBeVisible();
  await page.getByLabel("Username").fill("outsider");
  await page.getByLabel("Password").fill("guildhall");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: "Authorize" }).click();
  await page.waitForURL((url) => url.pathname === `/appeal/${guildId}`);
  return page;
}

test("a banned user appeals; rejected with a message, then accepted a week later and unbanned", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const { world, call } = api();
  const guildId = world.guildId;
  const outsider = world.userId("outsider");
  expect(
    (await call("PUT", `/guilds/${guildId}/bans/${outsider}`, {}, { "x-audit-log-reason": "Spam raid" })).status,
  ).toBe(204);

  // The moderator opens appeals with one question of their own.
  await signIn(page, "mod", `/guilds/${guildId}/appeals/settings`);
  const form = page.getByRole("form", { name: "Appeal form" });
  await form.getByRole("checkbox", { name: "Take ban appeals" }).check();
  await form.getByRole("button", { name: "Add a question" }).click();
  await form.getByRole("textbox", { name: "Question 3" }).fill("Which channel will you post in?");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Appeals are open.")).toBeVisible();
  await shot(page, "settings");

  // The banned user's side.
  const user = await appellantPage(browser, guildId);
  await expect(user.getByText("Signed in as")).toBeVisible();
  await expect(user.getByText("Spam raid")).toBeVisible();
  const answers = user.getByRole("form", { name: "Your appeal" });
  await answers.getByRole("button", { name: "Send appeal" }).click();
  await expect(answers.getByRole("alert").first()).toHaveText("Answer this question.");
  await answers.getByRole("textbox", { name: "Why were you banned?" }).fill("I posted links in every channel.");
  await answers.getByRole("textbox", { name: "Why should we unban you?" }).fill("I read the rules now.");
  await answers.getByRole("textbox", { name: "Which channel will you post in?" }).fill("#general");
  await answers.getByRole("button", { name: "Send appeal" }).click();
  await expect(user.getByText("Your appeal is waiting for the moderators.")).toBeVisible();
  await shot(user, "waiting");

  // Rejected, with a message.
  await page.goto(`/guilds/${guildId}/appeals`);
  await hydrated(page);
  const card = page.getByRole("listitem").filter({ hasText: "I read the rules now." });
  await card.getByRole("button", { name: "Reject" }).click();
  await expect(card.getByRole("alert")).toHaveText("Tell them why.");
  await card.getByRole("textbox", { name: /Message for them/ }).fill("Too soon after the raid.");
  await card.getByRole("button", { name: "Reject" }).click();
  await expect(page.getByText(/Appeal rejected/)).toBeVisible();
  await shot(page, "rejected");
  await user.reload();
  await expect(user.getByText("Too soon after the raid.")).toBeVisible();
  await expect(user.getByText(/You can appeal again from/)).toBeVisible();

  // A week on (the decision moved back eight days), a second appeal, accepted.
  const db = new Database(e2eDatabaseFile());
  // As Prisma keeps times in SQLite: ISO text with an offset.
  const eightDaysAgo = new Date(Date.now() - 8 * 86_400_000).toISOString().replace("Z", "+00:00");
  db.prepare("UPDATE ban_appeals SET decidedAt = ? WHERE status = 'rejected'").run(eightDaysAgo);
  db.close();
  await user.reload();
  const again = user.getByRole("form", { name: "Your appeal" });
  for (const [i, text] of ["Links.", "A week has passed.", "#help"].entries())
    await again.getByRole("textbox").nth(i).fill(text);
  await again.getByRole("button", { name: "Send appeal" }).click();
  await expect(user.getByText("Your appeal is waiting for the moderators.")).toBeVisible();
  await page.reload();
  const second = page.getByRole("listitem").filter({ hasText: "A week has passed." });
  await second.getByRole("textbox", { name: /Message for them/ }).fill("Welcome back.");
  await second.getByRole("button", { name: "Accept and unban" }).click();
  await expect(page.getByText(/Appeal accepted/)).toBeVisible();
  await expect.poll(async () => (await call("GET", `/guilds/${guildId}/bans/${outsider}`)).status).toBe(404);
  await user.reload();
  await expect(user.getByText("You are not banned from this server")).toBeVisible();
  await expect(user.getByText("Welcome back.")).toBeVisible();
  await shot(user, "accepted");

  // Both decisions are cases, and so is the unban.
  await page.goto(`/guilds/${guildId}/cases?member=${outsider}`);
  const table = page.getByRole("table", { name: "Cases" });
  await expect(table.getByRole("row").filter({ hasText: "Rejected: Too soon after the raid." })).toBeVisible();
  await expect(table.getByRole("row").filter({ hasText: "Accepted: Welcome back." })).toBeVisible();
  await expect(table.getByRole("row").filter({ hasText: "Unban" }).first()).toBeVisible();
});
