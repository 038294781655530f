// Cases in a real browser, signed in through OAuth2 as `mod` (issue #32): a warning and a private note from the member
// panel, counted there; the Cases page lists them numbered with the moderator and reason, filters by type, edits a
// reason (the edit kept), exports CSV; a temporary ban by id shows on Bans with when it ends and its case, and Unban
// ends it early. Every change is checked through the API with the bot token, and screenshots are taken.
import { expect, test, type Page } from "@playwright/test";
import { api, hydrated, screenshot, signIn } from "./helpers";

test.describe.configure({ mode: "serial" });

const shot = (page: Page, label: string) => screenshot(page, `cases-${label}`);

test("warn and note from the member panel; the Cases page lists, filters, edits a reason and exports", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { world } = api();
  const guildId = world.guildId;
  const target = "yara_owl";
  const targetId = world.userId(target);
  await signIn(page, "mod", `/guilds/${guildId}/members?member=${targetId}`);
  await hydrated(page);
  const panel = page.getByRole("dialog", { name: new RegExp(target) });
  const cases = panel.getByRole("region", { name: "Cases" });
  const counts = cases.getByTestId("member-case-counts");
  const before = (await counts.textContent()) ?? "";

  const text = cases.getByRole("textbox", { name: "Warning or note" });
  // Empty: refused in the form, nothing sent.
  await cases.getByRole("button", { name: "Warn" }).click();
  await expect(cases.getByRole("alert")).toHaveText("Say what the warning is for.");
  await text.fill("Spamming invite links in #general");
  await cases.getByRole("button", { name: "Warn" }).click();
  await expect(page.getByText(/Warned /)).toBeVisible();
  await expect(counts).toContainText(/\d+ warnings?/);
  await expect(counts).not.toHaveText(before);
  await text.fill("Seems to share an account with an older raider");
  await cases.getByRole("button", { name: "Add note" }).click();
  await expect(counts).toContainText(/\d+ notes?/);
  await expect(cases.getByRole("list", { name: "Latest cases" })).toContainText("Spamming invite links in #general");
  await shot(page, "member-panel");

  await cases.getByRole("link", { name: /All of .* cases/ }).click();
  await expect(page).toHaveURL(new RegExp(`/guilds/${guildId}/cases\\?member=${targetId}`));
  const table = page.getByRole("table", { name: "Cases" });
  const warning = table.getByRole("row").filter({ hasText: "Spamming invite links" });
  await expect(warning).toContainText("Warning");
  await expect(warning).toContainText("Mod");
  const number = Number((await warning.getAttribute("data-case-number")) ?? "0");
  expect(number).toBeGreaterThan(0);
  await expect(table.getByRole("row").filter({ hasText: "older raider" })).toContainText("Note");
  await shot(page, "list");

  // Only warnings.
  await page.getByText("Any type").click();
  // The box follows the URL (checked once the filtered page is there), so a click, then the URL and the box.
  await page.getByRole("checkbox", { name: "Warning" }).click();
  await expect(page).toHaveURL(/types=warning/);
  await expect(page.getByRole("checkbox", { name: "Warning" })).toBeChecked();
  await expect(table.getByRole("row").filter({ hasText: "older raider" })).toHaveCount(0);
  await expect(warning).toBeVisible();

  // The reason, edited: the case shows the new one and says it was edited.
  await warning.getByRole("button", { name: `Edit the reason of case #${number}` }).click();
  const dialog = page.getByRole("dialog", { name: `Case #${number}: reason` });
  await dialog.getByRole("textbox", { name: "Reason" }).fill("Spamming invite links in #general and #help");
  await dialog.getByRole("button", { name: "Save reason" }).click();
  await expect(page.getByText(`Case #${number}'s reason saved.`)).toBeVisible();
  const edited = table.locator(`[data-case-number="${number}"]`);
  await expect(edited).toContainText("and #help");
  await expect(edited).toContainText("edited");
  await shot(page, "reason-edited");

  // CSV of the filtered list.
  const csv = await page.request.get(`/guilds/${guildId}/cases/export?member=${targetId}&types=warning`);
  expect(csv.status()).toBe(200);
  const body = await csv.text();
  expect(body.split("\r\n")[0]).toBe(
    "case,time (UTC),type,member id,member,moderator id,moderator,reason,length,ends (UTC),done in,audit log entry",
  );
  expect(body).toContain(`${number},`);
  expect(body).toContain("Spamming invite links in #general and #help");
  expect(body).not.toContain("older raider");
});

test("a temporary ban shows when it ends on Bans, with its case; Unban ends it early", async ({ page }) => {
  test.setTimeout(120_000);
  const { world, call } = api();
  const guildId = world.guildId;
  const target = world.userId("outsider");
  await signIn(page, "mod", `/guilds/${guildId}/bans`);
  await hydrated(page);
  await page.getByRole("button", { name: "Ban by id" }).click();
  const dialog = page.getByRole("dialog", { name: "Ban by id" });
  await dialog.getByRole("textbox", { name: "User id" }).fill(target);
  await dialog.getByRole("textbox", { name: "Reason" }).fill("cool-off");
  await dialog.getByRole("combobox", { name: "Ban length" }).selectOption("1d");
  await expect(dialog.getByText("This dashboard unbans them after 1 day.")).toBeVisible();
  await dialog.getByRole("button", { name: /^Ban/ }).click();
  await expect(page.getByText(/Banned .* for 1 day\./)).toBeVisible();
  expect((await call("GET", `/guilds/${guildId}/bans/${target}`)).status).toBe(200);

  await page.getByRole("searchbox").fill(target);
  // The search's page first: a dialog opened on the page before it would close when it comes.
  await expect(page).toHaveURL(new RegExp(`[?&]q=${target}`));
  await expect(page.getByRole("table", { name: "Bans" }).locator("tbody tr")).toHaveCount(1);
  const row = page.getByRole("row").filter({ hasText: "cool-off" });
  await expect(row).toContainText(/case #\d+/);
  await expect(row).toContainText(/in 23 h|in 1 day|in 24 h/);
  await shot(page, "bans-ends");

  await row.getByRole("button", { name: /^Unban/ }).click();
  await page
    .getByRole("dialog")
    .getByRole("button", { name: /^Unban/ })
    .click();
  await expect.poll(async () => (await call("GET", `/guilds/${guildId}/bans/${target}`)).status).toBe(404);
});

test("a ban of one minute ends by itself: the scheduler unbans and files it as a case of its own", async ({ page }) => {
  // A minute, then the scheduler's next look (every 5 s).
  test.setTimeout(180_000);
  const { world, call } = api();
  const guildId = world.guildId;
  const target = world.spareMember(20);
  await signIn(page, "mod", `/guilds/${guildId}/bans`);
  await hydrated(page);
  await page.getByRole("button", { name: "Ban by id" }).click();
  const dialog = page.getByRole("dialog", { name: "Ban by id" });
  await dialog.getByRole("textbox", { name: "User id" }).fill(target.id);
  await dialog.getByRole("textbox", { name: "Reason" }).fill("one minute to cool off");
  await dialog.getByRole("combobox", { name: "Ban length" }).selectOption("custom");
  await dialog.getByRole("textbox", { name: "Custom length" }).fill("1");
  await dialog.getByRole("combobox", { name: "Unit" }).selectOption("minutes");
  await expect(dialog.getByText("This dashboard unbans them after 1 minute.")).toBeVisible();
  await dialog.getByRole("button", { name: /^Ban/ }).click();
  await expect(page.getByText(/Banned .* for 1 minute\./)).toBeVisible();
  const bannedAt = Date.now();
  expect((await call("GET", `/guilds/${guildId}/bans/${target.id}`)).status).toBe(200);

  await expect
    .poll(async () => (await call("GET", `/guilds/${guildId}/bans/${target.id}`)).status, {
      timeout: 100_000,
      intervals: [2_000],
    })
    .toBe(404);
  // Not before its minute was up.
  expect(Date.now() - bannedAt).toBeGreaterThanOrEqual(55_000);

  await page.goto(`/guilds/${guildId}/cases?member=${target.id}`);
  const table = page.getByRole("table", { name: "Cases" });
  const ban = table.getByRole("row").filter({ hasText: "one minute to cool off" });
  const number = await ban.getAttribute("data-case-number");
  await expect(ban).toContainText("1 minute");
  await expect(table.getByRole("row").filter({ hasText: `Temporary ban ended (case #${number})` })).toContainText(
    "Unban",
  );
  await shot(page, "temporary-ban-ended");
});
