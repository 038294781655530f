// The dashboard's table (components/data-table, on TanStack Table) as a moderator works it, on Members: headers sort
// by mouse and keyboard with aria-sort, in step with the "Sort by" select; shift-click selects a range and "select all
// N matching" reaches past the page into a bulk job; hidden columns are remembered for the moderator and only for
// them; the header and the first column stay in view while the rows scroll; and on a 390 px phone every row is a card
// with nothing off the side of the screen, the first member on the first screen.
import { expect, test, type Page } from "@playwright/test";
import { api, hydrated, screenshot, signIn } from "./helpers";

test.describe.configure({ mode: "serial" });

const shot = (page: Page, name: string) => screenshot(page, `tables-${name}`);

const rowIds = (page: Page) =>
  page
    .getByRole("table", { name: "Members" })
    .locator("[data-member-link]")
    .evaluateAll((links) => links.map((link) => link.getAttribute("data-member-link")!));

/** The member ids of the guild in the database's order, first page (50). */
function membersBy(order: string): string[] {
  const { world } = api();
  return world
    .query<{ user_id: bigint }>(
      `SELECT user_id FROM members WHERE guild_id = ? ORDER BY ${order} LIMIT 50`,
      BigInt(world.guildId),
    )
    .map((row) => String(row.user_id));
}

test("column headers sort by click and keyboard, with aria-sort, in step with the Sort by select", async ({ page }) => {
  const { world } = api();
  await signIn(page, "mod", `/guilds/${world.guildId}/members`);
  const table = page.getByRole("table", { name: "Members" });
  const joined = table.getByRole("columnheader", { name: "Joined" });
  const created = table.getByRole("columnheader", { name: "Account created" });

  // The default sort (newest members first) is the Joined column's, descending; the others say they can sort.
  await expect(joined).toHaveAttribute("aria-sort", "descending");
  await expect(created).toHaveAttribute("aria-sort", "none");
  await expect(table.getByRole("columnheader", { name: "Roles" })).not.toHaveAttribute("aria-sort", /.*/);

  await joined.getByRole("button").click();
  await expect(page).toHaveURL(/[?&]sort=joined-asc/);
  await expect(joined).toHaveAttribute("aria-sort", "ascending");
  await expect(page.getByLabel("Sort by")).toHaveValue("joined-asc");
  await expect.poll(() => rowIds(page)).toEqual(membersBy("joined_at ASC, user_id ASC"));

  // Keyboard: Tab to the header's button and press Enter. Account age sorts newest accounts first on its first press.
  await created.getByRole("button").focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/[?&]sort=created-desc/);
  await expect(created).toHaveAttribute("aria-sort", "descending");
  await expect(joined).toHaveAttribute("aria-sort", "none");
  await expect.poll(() => rowIds(page)).toEqual(membersBy("user_id DESC"));
  await page.keyboard.press("Space");
  await expect(page).toHaveURL(/[?&]sort=created-asc/);
  await expect(created).toHaveAttribute("aria-sort", "ascending");

  // The select drives the headers too.
  await page.getByLabel("Sort by").selectOption("name-asc");
  await expect(table.getByRole("columnheader", { name: "Member", exact: true })).toHaveAttribute(
    "aria-sort",
    "ascending",
  );
  await shot(page, "sorted-by-username");
});

test("shift-click selects a range; select all N matching runs the bulk job on every match", async ({ page }) => {
  const { world } = api();
  await signIn(page, "mod", `/guilds/${world.guildId}/members?pending=1`);
  const table = page.getByRole("table", { name: "Members" });
  const boxes = table.getByRole("checkbox", { name: /^Select (?!every)/ });
  await expect(boxes.first()).toBeVisible();

  // A range: the 1st, then shift on the 4th, selects the 1st to 4th (fewer if the filter matches fewer).
  const shown = await boxes.count();
  const end = Math.min(4, shown);
  await boxes.nth(0).click();
  await boxes.nth(end - 1).click({ modifiers: ["Shift"] });
  for (let i = 0; i < end; i += 1) await expect(boxes.nth(i)).toBeChecked();
  if (shown > end) await expect(boxes.nth(end)).not.toBeChecked();
  const bar = page.getByRole("region", { name: "Bulk actions" });
  await expect(bar.getByRole("status")).toHaveText(`${end} selected`);
  // Shift-click again unticks the range back to the anchor.
  if (end > 1) {
    await boxes.nth(end - 1).click();
    await boxes.nth(0).click({ modifiers: ["Shift"] });
    await expect(bar).toHaveCount(0);
  }

  // Everyone pending on every page: the page's box, then the bar's offer.
  const pending = world.query<{ n: bigint }>(
    "SELECT COUNT(*) AS n FROM members WHERE guild_id = ? AND pending = 1",
    BigInt(world.guildId),
  )[0];
  const matching = Number(pending.n);
  await table.getByRole("checkbox", { name: "Select every member on this page" }).check();
  const offer = bar.getByRole("button", { name: `Select all ${matching} matching members` });
  if (matching > shown) {
    await offer.click();
    await expect(bar.getByRole("status")).toHaveText(`All ${matching} matching members selected`);
  } else {
    await expect(offer).toHaveCount(0);
    await expect(bar.getByRole("status")).toHaveText(`${matching} selected`);
  }
  await bar.getByLabel("Action").selectOption("add_role");
  await expect(
    bar.getByRole("button", { name: `Review ${matching} member${matching === 1 ? "" : "s"}…` }),
  ).toBeEnabled();
  await shot(page, "all-matching-selected");
});

test("hidden columns are remembered for the moderator who hid them, and only for them", async ({ browser, page }) => {
  const { world } = api();
  const path = `/guilds/${world.guildId}/members`;
  await signIn(page, "mod", path);
  const table = page.getByRole("table", { name: "Members" });
  await expect(table.getByRole("columnheader", { name: "Roles" })).toBeVisible();

  await page.getByText("Columns", { exact: true }).click();
  await page.getByRole("group", { name: "Columns shown in Members" }).getByLabel("Roles").uncheck();
  await expect(table.getByRole("columnheader", { name: "Roles" })).toHaveCount(0);
  await expect(page.getByTestId("columns-menu")).toContainText("Columns (1 hidden)");

  // Saved: a reload (and so any visit) starts without it.
  await expect
    .poll(() =>
      world.query<{ hiddenColumns: string }>(
        "SELECT hiddenColumns FROM table_preferences WHERE tableId = 'members' AND userId = ?",
        world.userId("mod"),
      ),
    )
    .toEqual([{ hiddenColumns: '["roles"]' }]);
  await page.reload();
  await hydrated(page);
  await expect(table.getByRole("columnheader", { name: "Member", exact: true })).toBeVisible();
  await expect(table.getByRole("columnheader", { name: "Roles" })).toHaveCount(0);

  // Another moderator's table is their own.
  const other = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await signIn(other, "admin", path);
  await expect(
    other.getByRole("table", { name: "Members" }).getByRole("columnheader", { name: "Roles" }),
  ).toBeVisible();
  await other.context().close();

  // Shown again, and remembered so.
  await page.getByText("Columns (1 hidden)").click();
  await page.getByRole("group", { name: "Columns shown in Members" }).getByLabel("Roles").check();
  await expect(table.getByRole("columnheader", { name: "Roles" })).toBeVisible();
  await expect
    .poll(() =>
      world.query<{ hiddenColumns: string }>(
        "SELECT hiddenColumns FROM table_preferences WHERE tableId = 'members' AND userId = ?",
        world.userId("mod"),
      ),
    )
    .toEqual([{ hiddenColumns: "[]" }]);
});

test("the header row and the first column stay in view while the rows scroll", async ({ page }) => {
  const { world } = api();
  await page.setViewportSize({ width: 820, height: 700 });
  await signIn(page, "mod", `/guilds/${world.guildId}/members?limit=100`);
  const frame = page.locator('[data-table="members"]');
  const header = frame.getByRole("columnheader", { name: "Joined" });
  const firstMember = frame.locator("tbody tr").first().getByRole("cell").nth(1);
  const before = { header: (await header.boundingBox())!, member: (await firstMember.boundingBox())! };

  await frame.evaluate((box) => box.scrollBy({ top: 600, left: 300 }));
  await expect.poll(() => frame.evaluate((box) => box.scrollTop)).toBeGreaterThan(0);
  expect(await frame.evaluate((box) => box.scrollLeft)).toBeGreaterThan(0);
  // The header is where it was; the first member row moved up under it but its member cell did not move sideways.
  const after = { header: (await header.boundingBox())!, member: (await firstMember.boundingBox())! };
  expect(Math.abs(after.header.y - before.header.y)).toBeLessThan(2);
  expect(Math.abs(after.member.x - before.member.x)).toBeLessThan(2);
  await shot(page, "scrolled");
});

test("on a 390 px phone each row is a card, nothing is off the screen's side, and members come first", async ({
  browser,
}) => {
  const { world } = api();
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  for (const section of ["members", "bans", "invites", "integrations", "audit-history", "prune"]) {
    if (section === "members") await signIn(page, "admin", `/guilds/${world.guildId}/members`);
    else {
      await page.goto(`/guilds/${world.guildId}/${section}`);
      await hydrated(page);
    }
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${section} scrolls sideways`).toBeLessThanOrEqual(0);
    // Every button and link of every row is within the screen's width.
    const offside = await page
      .locator("[data-table] tbody")
      .locator("a, button, input")
      .evaluateAll(
        (elements) =>
          elements
            .map((element) => element.getBoundingClientRect())
            .filter((box) => box.width > 0 && (box.left < 0 || box.right > window.innerWidth)).length,
      );
    expect(offside, `${section}: controls off the side`).toBe(0);
    await shot(page, `phone-${section}`);
  }

  await page.goto(`/guilds/${world.guildId}/members`);
  await hydrated(page);
  const firstRow = page.locator('[data-table="members"] tbody tr').first();
  await expect(firstRow).toBeVisible();
  expect((await firstRow.boundingBox())!.y).toBeLessThan(844);
  // The filters beyond search and sort are a button away, and open on a press.
  const more = page.getByRole("button", { name: /^Filters/ });
  await expect(page.getByLabel("Joined the server in")).toBeHidden();
  await more.click();
  await expect(more).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByLabel("Joined the server in")).toBeVisible();
  await context.close();
});
