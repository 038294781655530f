// The members table as `mod` in a real browser: filter by "joined in the last 7 days", sort by account age, search by
// exact id, the member panel's unsaved-changes guard, and a bulk timeout of three members with each one's result.
// Expected answers come from the server's own database; changes are checked through the guild API.
import { expect, test, type Page } from "@playwright/test";
import { api, hydrated, screenshot, signIn } from "./helpers";

const shot = (page: Page, name: string) => screenshot(page, `members-${name}`);
const DAY = 86_400_000;

test.describe.configure({ mode: "serial" });

/** The user ids of the table's rows, in order. */
const rowIds = (page: Page) =>
  page
    .getByRole("table", { name: "Members" })
    .locator("[data-member-link]")
    .evaluateAll((links) => links.map((link) => link.getAttribute("data-member-link")!));

test("filter by joined in the last 7 days, sort by account age, search by id", async ({ page }) => {
  const { world } = api();
  const base = `/guilds/${world.guildId}/members`;
  await signIn(page, "mod", base);
  const table = page.getByRole("table", { name: "Members" });

  // Joined in the last 7 days: exactly the members the database says, newest first.
  const recent = world
    .query<{ user_id: bigint }>(
      "SELECT user_id FROM members WHERE guild_id = ? AND joined_at >= ? ORDER BY joined_at DESC, user_id DESC",
      BigInt(world.guildId),
      BigInt(Date.now() - 7 * DAY + 60_000),
    )
    .map((r) => String(r.user_id));
  expect(recent.length).toBeGreaterThan(0);
  await page.getByLabel("Joined the server in").selectOption("7d");
  await expect(page).toHaveURL(/[?&]joined=7d/);
  await expect.poll(() => rowIds(page)).toEqual(recent);
  await expect(page.getByRole("navigation", { name: "Pages" })).toContainText(`of ${recent.length} matching`);
  await shot(page, "joined-7-days");

  // Account age, oldest first, on the whole table: the ids ascend (a snowflake is its account's creation time).
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page).not.toHaveURL(/joined=/);
  await page.getByLabel("Sort by").selectOption("created-asc");
  await expect(page).toHaveURL(/[?&]sort=created-asc/);
  const oldest = world
    .query<{ user_id: bigint }>(
      "SELECT user_id FROM members WHERE guild_id = ? ORDER BY user_id LIMIT 50",
      BigInt(world.guildId),
    )
    .map((r) => String(r.user_id));
  await expect.poll(() => rowIds(page)).toEqual(oldest);
  await expect(table.getByRole("columnheader", { name: "Account created" })).toBeVisible();
  // The next page continues in the same order.
  await page.getByRole("link", { name: "Next →" }).click();
  await expect(page).toHaveURL(/[?&]after=/);
  await expect
    .poll(async () => (await rowIds(page))[0])
    .toBe(
      String(
        world.query<{ user_id: bigint }>(
          "SELECT user_id FROM members WHERE guild_id = ? ORDER BY user_id LIMIT 1 OFFSET 50",
          BigInt(world.guildId),
        )[0].user_id,
      ),
    );
  await shot(page, "account-age");

  // Search by exact id.
  const yaraId = world.userId("yara_owl");
  await page.getByRole("searchbox").fill(yaraId);
  await expect(page).toHaveURL(new RegExp(`[?&]q=${yaraId}`));
  await expect.poll(() => rowIds(page)).toEqual([yaraId]);
  await expect(table.getByRole("link", { name: "Open yara_owl" })).toBeVisible();
  await shot(page, "search-by-id");

  // The panel keeps unsaved edits until the moderator agrees to drop them (the dashboard's one unsaved-changes guard),
  // whether they close it or press the browser's Back button; closed, focus is back on the row.
  await table.getByRole("link", { name: "Open yara_owl" }).click();
  const panel = page.getByRole("dialog", { name: /yara_owl/ });
  const nickname = panel.getByRole("textbox", { name: "Nickname" });
  await expect(nickname).toHaveAttribute("maxlength", "32");
  await nickname.fill("Yara the Owl");
  await panel.getByRole("button", { name: "Close" }).click();
  const discard = page.getByRole("alertdialog", { name: "Discard changes?" });
  await expect(discard).toBeVisible();
  await shot(page, "discard-changes");
  await discard.getByRole("button", { name: "Keep editing" }).click();
  await expect(nickname).toHaveValue("Yara the Owl");

  await page.goBack();
  await expect(discard).toBeVisible();
  await discard.getByRole("button", { name: "Keep editing" }).click();
  await expect(panel).toBeVisible();
  await expect(nickname).toHaveValue("Yara the Owl");
  await expect(page).toHaveURL(new RegExp(`[?&]member=${yaraId}`));

  await page.goBack();
  await discard.getByRole("button", { name: "Discard changes" }).click();
  await expect(panel).toBeHidden();
  await expect(page).not.toHaveURL(/[?&]member=/);
  await expect(page).toHaveURL(new RegExp(`[?&]q=${yaraId}`));
  await expect(table.getByRole("link", { name: "Open yara_owl" })).toBeFocused();

  // Closing with the Close button, then discarding, also gives the focus back to the row.
  await table.getByRole("link", { name: "Open yara_owl" }).click();
  await nickname.fill("Yara again");
  await panel.getByRole("button", { name: "Close" }).click();
  await discard.getByRole("button", { name: "Discard changes" }).click();
  await expect(panel).toBeHidden();
  await expect(table.getByRole("link", { name: "Open yara_owl" })).toBeFocused();
  expect(
    (await api().call<{ nick: string | null }>("GET", `/guilds/${world.guildId}/members/${yaraId}`)).body.nick,
  ).toBeNull();
});

test("the Roles filter closes on Escape (focus back on it) and on a click outside (issue 30)", async ({ page }) => {
  const { world } = api();
  await signIn(page, "mod", `/guilds/${world.guildId}/members`);
  const toggle = page.getByText("Roles: any");
  const list = page.getByRole("group", { name: "Roles" });
  await toggle.click();
  await expect(list).toBeVisible();
  await list.getByRole("checkbox").first().focus();
  await page.keyboard.press("Escape");
  await expect(list).toBeHidden();
  await expect(toggle).toBeFocused();

  await toggle.click();
  await expect(list).toBeVisible();
  await page.getByRole("heading", { level: 1 }).click();
  await expect(list).toBeHidden();
  await expect(page).not.toHaveURL(/[?&]roles=/);
});

test("the filters' dropdowns are named by their label alone, not by their options too (issue 30)", async ({ page }) => {
  const { world } = api();
  await signIn(page, "mod", `/guilds/${world.guildId}/members`);
  for (const name of ["Sort by", "Per page", "Joined the server in", "Account created in"])
    await expect(page.getByRole("combobox", { name, exact: true })).toBeVisible();
  await page.goto(`/guilds/${world.guildId}/audit-history`);
  for (const name of ["Moderator", "Action", "Result"])
    await expect(page.getByRole("combobox", { name, exact: true })).toBeVisible();
});

test("bulk timeout of three members: a job with a progress bar and each member's result", async ({ page }) => {
  const { world, call } = api();
  const base = `/guilds/${world.guildId}/members`;
  await signIn(page, "mod", `${base}?q=yara_&sort=name-asc`);
  await hydrated(page);
  const table = page.getByRole("table", { name: "Members" });
  const targets = ["yara_eel", "yara_elk", "yara_fox"];
  for (const name of targets) await table.getByRole("checkbox", { name: `Select ${name}` }).check();
  const bar = page.getByRole("region", { name: "Bulk actions" });
  await expect(bar.getByRole("status")).toHaveText("3 selected");
  await bar.getByLabel("Action").selectOption("timeout");
  await bar.getByLabel("Duration").selectOption({ label: "1 hour" });
  await bar.getByLabel("Reason for the audit log").fill("e2e: bulk cool down");
  await shot(page, "bulk-bar");
  await bar.getByRole("button", { name: "Review 3 members…" }).click();

  await page.waitForURL(/\/members\/jobs\/[a-z0-9]+$/);
  await hydrated(page);
  await expect(page.getByRole("heading", { name: /Time out until .*: 3 members/ })).toBeVisible();
  await page.getByRole("button", { name: "Start: 3 members" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Start" }).click();
  await expect(page.getByTestId("progress-text")).toHaveText("3 of 3 sent (100 %)");
  await expect(page.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "100");
  const results = page.getByRole("table", { name: "Results per member" });
  for (const name of targets)
    await expect(results.getByRole("row", { name: new RegExp(name) })).toContainText("Timed out");
  await shot(page, "bulk-timeout-results");
  // The results filter by outcome (URL state): nothing failed, three timed out.
  const filters = page.getByRole("navigation", { name: "Show results" });
  await filters.getByRole("link", { name: "Failed 0" }).click();
  await expect(page).toHaveURL(/[?&]result=failed/);
  await expect(results.getByRole("row")).toHaveCount(1);
  await expect(page.getByText("Nobody here", { exact: true })).toBeVisible();
  await filters.getByRole("link", { name: "Timed out 3" }).click();
  await expect(page).toHaveURL(/[?&]result=done/);
  await expect(results.getByRole("row")).toHaveCount(4);

  for (const name of targets) {
    const member = await call<{ communication_disabled_until: string | null }>(
      "GET",
      `/guilds/${world.guildId}/members/${world.userId(name)}`,
    );
    expect(Date.parse(member.body.communication_disabled_until!)).toBeGreaterThan(Date.now() + 55 * 60_000);
  }
  // One audit-history entry for the job, with its reason.
  const entries = world.query<{ action: string; reason: string | null }>(
    "SELECT action, reason FROM audit_history_entries WHERE guildId = ? AND action = 'Bulk timeout'",
    world.guildId,
  );
  expect(entries).toEqual([{ action: "Bulk timeout", reason: "e2e: bulk cool down" }]);
});
