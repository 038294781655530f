// The dashboard's table (components/data-table, on TanStack Table) as a moderator works it, on Members: headers sort
// by mouse and keyboard with aria-sort, in step with the "Sort by" select; shift-click selects a range and "select all
// N matching" reaches past the page into a bulk job; hidden columns are remembered for the moderator and only for
// them; the header and the first column stay in view while the rows scroll; and on a 390 px phone every row is a card
// with nothing off the side of the screen, the first member on the first screen; axe finds nothing serious with
// members in every state. The audit history sorts by its When header, newest or oldest first, as the server reads
// it; it and a bulk job's results are cards on a phone.
import AxeBuilder from "@axe-core/playwright";
import Database from "better-sqlite3";
import { expect, test, type Page } from "@playwright/test";
import { api, e2eDatabaseFile, hydrated, screenshot, signIn, SHOTS } from "./helpers";

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

/** The audit history's entry ids as the page lists them. */
const entryIds = (page: Page) =>
  page
    .locator('[data-table="audit-history"] tbody tr')
    .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-entry-id")!));

/** A page (50) of the guild's history as a moderator with View Audit Log sees it, in the database's order. */
function entriesBy(direction: "ASC" | "DESC", offset = 0): string[] {
  const { world } = api();
  return world
    .query<{ id: string }>(
      `SELECT id FROM audit_history_entries WHERE guildId = ? AND source IN ('dashboard', 'guild-log')
        ORDER BY createdAt ${direction}, id ${direction} LIMIT 50 OFFSET ?`,
      world.guildId,
      offset,
    )
    .map((row) => row.id);
}

/** Horizontal overflow of the page, and the visible controls in `main` that reach past either side of the screen. */
async function offScreen(page: Page): Promise<{ overflow: number; offside: string[] }> {
  return page.evaluate(() => ({
    overflow: document.documentElement.scrollWidth - window.innerWidth,
    offside: [...document.querySelectorAll("main a, main button, main input, main select")]
      .filter((element) => {
        const box = element.getBoundingClientRect();
        // Wider than 1 px: not a screen reader's only (the phone's hidden header row).
        return box.width > 1 && (box.left < 0 || box.right > window.innerWidth);
      })
      .map((element) => element.textContent?.trim() || element.getAttribute("aria-label") || element.tagName),
  }));
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

test("the audit history sorts by its When header: newest first, oldest first on a press, in the URL (issue 30)", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { world, call } = api();
  const guildId = world.guildId;
  // Two changes by the bot a moment apart, imported from the guild's own audit log: an order to turn round.
  const { description } = (await call<{ description: string | null }>("GET", `/guilds/${guildId}`)).body;
  const reason = `e2e sort ${Date.now()}`;
  const patch = async (body: { description: string | null }, which: "a" | "b") =>
    expect(
      (await call("PATCH", `/guilds/${guildId}`, body, { "x-audit-log-reason": `${reason} ${which}` })).status,
    ).toBe(200);
  await patch({ description: reason }, "a");
  await new Promise((resolve) => setTimeout(resolve, 50));
  await patch({ description }, "b");

  // The two entries alone (their reason as the filter), as the page first lists them.
  await signIn(page, "mod", `/guilds/${guildId}/audit-history?q=${encodeURIComponent(reason)}`);
  const table = page.getByRole("table", { name: "Audit history" });
  const row = (which: "a" | "b") => table.locator("tbody tr").filter({ hasText: `${reason} ${which}` });
  // The guild's log is imported when the page is read; an entry a moment old may wait for the next read.
  await expect(async () => {
    await page.reload();
    await expect(row("b")).toBeVisible({ timeout: 2_000 });
    await expect(row("a")).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  const a = (await row("a").getAttribute("data-entry-id"))!;
  const b = (await row("b").getAttribute("data-entry-id"))!;

  // Newest first by default: the When header says so, the others don't sort.
  const when = table.getByRole("columnheader", { name: "When" });
  await expect(when).toHaveAttribute("aria-sort", "descending");
  await expect(table.getByRole("columnheader", { name: "Who" })).not.toHaveAttribute("aria-sort", /.*/);
  await expect(page.getByLabel("Sort by")).toHaveValue("newest");
  expect(await entryIds(page)).toEqual([b, a]);

  // A press on the header: oldest first, in the URL beside the filter, read so by the server.
  await when.getByRole("button").click();
  await expect(page).toHaveURL(/[?&]sort=oldest(&|$)/);
  await expect(page).toHaveURL(/[?&]q=/);
  await expect(when).toHaveAttribute("aria-sort", "ascending");
  await expect(page.getByLabel("Sort by")).toHaveValue("oldest");
  await expect.poll(() => entryIds(page)).toEqual([a, b]);
  await shot(page, "audit-oldest-first");

  // The keyboard: Enter on the header's button turns it back to newest first, the default, which leaves the URL.
  await when.getByRole("button").focus();
  await page.keyboard.press("Enter");
  await expect(page).not.toHaveURL(/[?&]sort=/);
  await expect(when).toHaveAttribute("aria-sort", "descending");
  await expect.poll(() => entryIds(page)).toEqual([b, a]);
  await expect(when.getByRole("button")).toBeFocused();

  // The whole history oldest first is the database's order, and its next page (when there is one) goes on in it.
  await page.goto(`/guilds/${guildId}/audit-history?sort=oldest`);
  await hydrated(page);
  await expect(when).toHaveAttribute("aria-sort", "ascending");
  await expect.poll(() => entryIds(page)).toEqual(entriesBy("ASC"));
  const next = page.getByRole("link", { name: "Next →" });
  if ((await next.count()) > 0) {
    await next.click();
    await expect(page).toHaveURL(/[?&]cursor=/);
    await expect(page).toHaveURL(/[?&]sort=oldest(&|$)/);
    await expect.poll(() => entryIds(page)).toEqual(entriesBy("ASC", 50));
  }
});

test("shift-click selects a range; select all N matching puts every match in the bulk action", async ({ page }) => {
  const { world } = api();
  await signIn(page, "mod", `/guilds/${world.guildId}/members?limit=25`);
  const table = page.getByRole("table", { name: "Members" });
  const boxes = table.getByRole("checkbox", { name: /^Select (?!every)/ });
  await expect(boxes.first()).toBeVisible();

  // A range: the 2nd, then shift on the 5th, selects the 2nd to 5th.
  const shown = await boxes.count();
  expect(shown).toBe(25);
  const end = 5;
  await boxes.nth(1).click();
  await boxes.nth(end - 1).click({ modifiers: ["Shift"] });
  await expect(boxes.nth(0)).not.toBeChecked();
  for (let i = 1; i < end; i += 1) await expect(boxes.nth(i)).toBeChecked();
  await expect(boxes.nth(end)).not.toBeChecked();
  const bar = page.getByRole("region", { name: "Bulk actions" });
  await expect(bar.getByRole("status")).toHaveText(`${end - 1} selected`);
  // A shift-click on a ticked box unticks the range from the last box pressed.
  await boxes.nth(1).click({ modifiers: ["Shift"] });
  await expect(bar).toHaveCount(0);

  // Every member on every page: the page's box, then the bar's offer.
  const [all] = world.query<{ n: bigint }>(
    "SELECT COUNT(*) AS n FROM members WHERE guild_id = ?",
    BigInt(world.guildId),
  );
  const matching = Number(all.n);
  await table.getByRole("checkbox", { name: "Select every member on this page" }).check();
  const offer = bar.getByRole("button", { name: `Select all ${matching} matching members` });
  expect(matching).toBeGreaterThan(shown);
  await expect(bar.getByRole("status")).toHaveText("25 selected");
  await offer.click();
  await expect(bar.getByRole("status")).toHaveText(`All ${matching} matching members selected`);
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
    await page.screenshot({ path: `${SHOTS}/tables-phone-${section}.png` });
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

test("axe finds nothing serious on Members with members in every state, rows selected and a panel open", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { world, call } = api();
  const guildId = world.guildId;
  // Members as other clients leave them: timed out with a nickname, server muted and deafened, bypassing
  // verification, and one still in membership screening (no operation makes a member pending, so the test sets it
  // in the database as a join under screening would, and puts it back after).
  const [timedOut, bypassing, pending] = [10, 12, 13].map((rank) => world.spareMember(rank));
  // Server mute needs a member in a voice channel.
  const [inVoice] = world.query<{ id: bigint; username: string }>(
    `SELECT u.id, u.username FROM voice_states v JOIN users u ON u.id = v.user_id
      WHERE v.guild_id = ? AND u.bot = 0 AND u.username NOT IN ('owner', 'admin', 'mod', 'helper', 'member')
      ORDER BY u.id LIMIT 1`,
    BigInt(guildId),
  );
  const muted = { id: String(inVoice.id), username: inVoice.username };
  const patch = async (userId: string, body: Record<string, unknown>) =>
    expect((await call("PATCH", `/guilds/${guildId}/members/${userId}`, body)).status).toBe(200);
  await patch(timedOut.id, {
    nick: "Cooling Off",
    communication_disabled_until: new Date(Date.now() + 3_600_000).toISOString(),
  });
  await patch(muted.id, { mute: true, deaf: true });
  await patch(bypassing.id, { flags: 1 << 2 });
  const database = new Database(e2eDatabaseFile());
  const setPending = (on: boolean) =>
    database
      .prepare("UPDATE members SET pending = ? WHERE guild_id = ? AND user_id = ?")
      .run(on ? 1 : 0, BigInt(guildId), BigInt(pending.id));
  setPending(true);
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    // Newest accounts first: the spare members (the newest ids without roles) are on the first page.
    const path = `/guilds/${guildId}/members?sort=created-desc`;
    await signIn(page, "mod", path);
    const table = page.getByRole("table", { name: "Members" });
    const rowOf = (id: string) => table.locator("tr", { has: page.locator(`[data-member-link="${id}"]`) });
    await expect(rowOf(timedOut.id)).toContainText("Timed out");
    await expect(rowOf(bypassing.id)).toContainText("Bypasses verification");
    await expect(rowOf(pending.id)).toContainText("Pending");
    await expect(rowOf(timedOut.id)).toContainText("Cooling Off");

    const serious = async (label: string) =>
      (await new AxeBuilder({ page }).analyze()).violations
        .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
        .map((violation) => `${label}: ${violation.id} at ${violation.nodes[0]?.target.join(" ")}`);
    const problems: string[] = [];
    for (const theme of ["light", "dark"] as const) {
      await page.evaluate((dark) => document.documentElement.classList.toggle("dark", dark), theme === "dark");
      problems.push(...(await serious(`${theme}, table`)));
    }
    // Rows selected (the bulk bar) and one member's panel open.
    await table.getByRole("checkbox", { name: "Select Cooling Off" }).check();
    await expect(page.getByRole("region", { name: "Bulk actions" })).toBeVisible();
    await page.locator(`[data-member-link="${pending.id}"]`).click();
    await expect(page.getByRole("dialog")).toBeVisible();
    problems.push(...(await serious("selection and panel")));
    // The muted member (one of the first accounts, in voice) by its id.
    await page.goto(`/guilds/${guildId}/members?q=${muted.id}`);
    await hydrated(page);
    await expect(rowOf(muted.id)).toContainText("Server deafened");
    problems.push(...(await serious("server muted")));
    await page.goto(`/guilds/${guildId}/members?bots=1`);
    await hydrated(page);
    await expect(table.getByText("Bot", { exact: true }).first()).toBeVisible();
    problems.push(...(await serious("bots")));
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(path);
    await hydrated(page);
    problems.push(...(await serious("390 px")));
    expect(problems).toEqual([]);
    await context.close();
  } finally {
    setPending(false);
    database.close();
    await patch(timedOut.id, { nick: null, communication_disabled_until: null });
    await patch(muted.id, { mute: false, deaf: false });
    await patch(bypassing.id, { flags: 0 });
  }
});

test("on a 390 px phone the audit history and a bulk job's results are cards, their controls within the screen", async ({
  browser,
  page,
}) => {
  test.setTimeout(120_000);
  const { world } = api();
  // A bulk job to look at: three members to time out, prepared but not started (its results: "Not sent").
  await signIn(page, "mod", `/guilds/${world.guildId}/members?q=yara_&sort=name-asc`);
  const members = page.getByRole("table", { name: "Members" });
  for (const name of ["yara_eel", "yara_elk", "yara_fox"])
    await members.getByRole("checkbox", { name: `Select ${name}` }).check();
  const bar = page.getByRole("region", { name: "Bulk actions" });
  await bar.getByLabel("Action").selectOption("timeout");
  await bar.getByLabel("Duration").selectOption({ label: "1 hour" });
  await bar.getByRole("button", { name: "Review 3 members…" }).click();
  await page.waitForURL(/\/members\/jobs\/[a-z0-9]+$/);
  await hydrated(page);
  const jobPath = new URL(page.url()).pathname;
  const results = page.getByRole("table", { name: "Results per member" });
  await expect(results.locator("tbody tr")).toHaveCount(3);
  await expect(results.getByRole("columnheader", { name: "Why" })).toBeVisible();
  await shot(page, "job-results");

  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const mobile = await phone.newPage();
  await signIn(mobile, "mod", jobPath);
  const cards = mobile.locator('[data-table="job-results"] tbody tr');
  await expect(cards).toHaveCount(3);
  // Each member a card (not a table row), the header row only for screen readers.
  expect(await cards.evaluateAll((rows) => rows.map((row) => getComputedStyle(row).display))).toEqual([
    "flex",
    "flex",
    "flex",
  ]);
  await expect(cards.first()).toContainText("Not sent");
  await expect(
    mobile.getByRole("navigation", { name: "Show results" }).getByRole("link", { name: /^All/ }),
  ).toBeVisible();
  expect(await offScreen(mobile)).toEqual({ overflow: 0, offside: [] });
  await shot(mobile, "phone-job-results");

  await mobile.goto(`/guilds/${world.guildId}/audit-history`);
  await hydrated(mobile);
  const entries = mobile.locator('[data-table="audit-history"] tbody tr');
  await expect(entries.first()).toBeVisible();
  expect(await entries.first().evaluate((row) => getComputedStyle(row).display)).toBe("flex");
  // Each card's Details is on the screen, and Sort by is a select away (the header row is not shown).
  await expect(entries.first().getByRole("button", { name: /^Details: / })).toBeVisible();
  await expect(mobile.getByLabel("Sort by")).toBeVisible();
  expect(await offScreen(mobile)).toEqual({ overflow: 0, offside: [] });
  await shot(mobile, "phone-audit-history");
  await mobile.getByLabel("Sort by").selectOption("oldest");
  await expect(mobile).toHaveURL(/[?&]sort=oldest(&|$)/);
  await expect.poll(() => entryIds(mobile)).toEqual(entriesBy("ASC"));
  expect(await offScreen(mobile)).toEqual({ overflow: 0, offside: [] });
  await phone.close();
});
