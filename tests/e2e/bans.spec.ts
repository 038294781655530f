// The Bans section in a real browser, signed in through OAuth2 as `mod`: a bulk ban of 450 tokens (invalid ones,
// duplicates, the owner, an admin above mod, users already banned, unknown ids) paused, resumed after a reload and
// run to 100 %, every result checked through the API with the bot token; the list paged, searched, one unban and a
// CSV export; then undo, which must give back exactly the bans the job made. Leaves the demo world as it found it.
import fs from "node:fs";
import Database from "better-sqlite3";
import { expect, test, type Page } from "@playwright/test";
import { api, e2eDatabaseFile, hydrated, screenshot, signIn } from "./helpers";
import { recordedReason } from "./mode";

test.describe.configure({ mode: "serial" });

const FRESH = 425;
const name = (i: number) => `e2e_bulk_${String(i).padStart(3, "0")}`;
const shot = (page: Page, label: string) => screenshot(page, `bans-${label}`);
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Users nobody has met (the API bans only existing users, and the demo world has a handful of free non-members), with
 * ids from a fixed time, written straight into the server's database. They never join the guild.
 */
function seedFreshUsers(): string[] {
  const db = new Database(e2eDatabaseFile());
  db.pragma("busy_timeout = 5000");
  db.defaultSafeIntegers(true);
  const base = (BigInt(Date.UTC(2025, 2, 1)) - 1420070400000n) << 22n;
  const ids = Array.from({ length: FRESH }, (_, i) => base + BigInt(i + 1) * 4_194_304n);
  const insert = db.prepare("INSERT OR IGNORE INTO users (id, username, created_at) VALUES (?, ?, ?)");
  db.transaction(() => ids.forEach((id, i) => insert.run(id, name(i), BigInt(Date.now()))))();
  db.close();
  return ids.map(String);
}

async function allBans(
  call: ReturnType<typeof api>["call"],
  guildId: string,
): Promise<Array<{ user: { id: string; username: string }; reason: string | null }>> {
  const out: Array<{ user: { id: string; username: string }; reason: string | null }> = [];
  let after = "0";
  for (;;) {
    const page = await call<typeof out>("GET", `/guilds/${guildId}/bans?limit=1000&after=${after}`);
    out.push(...page.body);
    if (page.body.length < 1000) return out;
    after = page.body.at(-1)!.user.id;
  }
}

let fresh: string[] = [];
let seededBans: string[] = [];
let jobUrl = "";

test("as mod: bulk ban 450 tokens, paused and resumed after a reload, to 100 % with the right result per id", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const { world, call } = api();
  const guildId = world.guildId;
  fresh = seedFreshUsers();
  seededBans = (await allBans(call, guildId)).map((b) => b.user.id);
  expect(seededBans.length).toBeGreaterThanOrEqual(5);
  const alreadyBanned = seededBans.slice(0, 5);
  const unknown = Array.from({ length: 5 }, (_, i) =>
    String(((BigInt(Date.UTC(2025, 3, 1)) - 1420070400000n) << 22n) + BigInt(i) * 7n + 1n),
  );
  const invalid = ["abc", "12x", "-5", "0", "99999999999999999999999", "1.5", "foo_bar", "x1"];
  const owner = world.userId("owner");
  const admin = world.userId("admin");
  const tokens = [...fresh, owner, admin, ...alreadyBanned, ...unknown, ...invalid, ...fresh.slice(0, 5)];
  expect(tokens).toHaveLength(450);
  // Mixed separators, as people paste them.
  const text = tokens.map((t, i) => (i % 3 === 0 ? `${t},` : i % 3 === 1 ? `${t}\n` : `${t}; `)).join("");

  await signIn(page, "mod", `/guilds/${guildId}/bans/bulk`);
  await page.getByLabel("User ids").fill(text);
  await expect(page.getByTestId("parse-summary")).toHaveText("437 unique ids, 5 duplicates removed, 8 not ids.");
  await expect(page.getByRole("list", { name: "Invalid tokens" }).getByRole("listitem")).toHaveCount(8);
  await page.getByLabel("Reason (audit log)").fill("e2e raid wave");
  await shot(page, "bulk-form");
  await page.getByRole("button", { name: "Preview" }).click();
  await page.waitForURL(/\/bans\/bulk\/[a-z0-9]+$/, { timeout: 60_000 });
  jobUrl = new URL(page.url()).pathname;
  await hydrated(page);
  await expect(page.getByTestId("job-summary")).toHaveText(
    "437 ids: 430 to send, 7 skipped, 8 entries weren't user ids",
  );

  // The preview: who cannot be banned, and why.
  await page.getByRole("link", { name: /^Skipped/ }).click();
  const row = (id: string) => page.locator(`tr[data-user-id="${id}"]`);
  await expect(row(owner)).toContainText("server owner");
  await expect(row(admin)).toContainText("member's highest role is above or equal to yours");
  for (const id of alreadyBanned) await expect(row(id)).toContainText("already banned");
  await shot(page, "bulk-preview");

  // Hold each chunk a moment in the browser, so Pause lands while the first one is out.
  let hold = true;
  let chunkOut!: () => void;
  const firstChunk = new Promise<void>((resolve) => (chunkOut = resolve));
  // The results' filter is in the URL (?result=skipped): server actions post to the page's address with it.
  const jobPage = (url: URL) => url.pathname === jobUrl;
  await page.route(jobPage, async (route) => {
    const request = route.request();
    if (
      hold &&
      request.method() === "POST" &&
      request.headers()["next-action"] &&
      request.postData()?.includes("userIds")
    ) {
      chunkOut();
      await new Promise((r) => setTimeout(r, 1500));
    }
    await route.continue();
  });
  await page.getByRole("button", { name: "Ban 430 users" }).click();
  await page.getByRole("dialog", { name: "Ban 430 users?" }).getByRole("button", { name: "Start banning" }).click();
  await expect(page.getByText("Banning…")).toBeVisible();
  await firstChunk;
  await page.getByRole("button", { name: "Pause" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Paused after the chunk in progress" })).toBeVisible({
    timeout: 20_000,
  });
  await expect(page.getByRole("button", { name: "Resume" })).toBeVisible({ timeout: 20_000 });
  const progress = page.getByRole("progressbar");
  await expect(progress).toHaveAttribute("aria-valuenow", "46"); // 200 of 430
  await shot(page, "bulk-paused");
  hold = false;
  await page.unroute(jobPage);

  // A reload reads the job from the server: still paused at the first chunk.
  await page.reload();
  await hydrated(page);
  await expect(page.getByTestId("progress-text")).toHaveText("200 of 430 sent (46 %)");
  await page.getByRole("button", { name: "Resume" }).click();
  await expect(progress).toHaveAttribute("aria-valuenow", "100", { timeout: 60_000 });
  await expect(page.getByTestId("progress-text")).toHaveText("430 of 430 sent (100 %)");
  await expect(page.getByRole("main").getByText("Completed", { exact: true })).toBeVisible();
  await page.getByRole("link", { name: /^Failed/ }).click();
  for (const id of unknown) await expect(row(id)).toContainText("refused by the API: unknown user");
  await shot(page, "bulk-done");

  // Through the API: every fresh user banned with the reason, nobody else touched.
  const bans = new Map((await allBans(call, guildId)).map((b) => [b.user.id, b]));
  const reason = recordedReason("e2e raid wave", { name: "Mod", id: world.userId("mod") });
  for (const id of fresh) expect(bans.get(id)?.reason, id).toBe(reason);
  for (const id of [owner, admin, ...unknown]) expect(bans.has(id), id).toBe(false);
  expect((await call("GET", `/guilds/${guildId}/members/${admin}`)).status).toBe(200);
  expect(bans.size).toBe(seededBans.length + FRESH);
  // The job's own record agrees, one row per id.
  const items = world.query<{ state: string; n: bigint }>(
    "SELECT state, COUNT(*) AS n FROM bulk_ban_items WHERE jobId = ? GROUP BY state ORDER BY state",
    jobUrl.split("/").at(-1),
  );
  expect(items.map((i) => [i.state, Number(i.n)])).toEqual([
    ["banned", 425],
    ["failed", 5],
    ["skipped", 7],
  ]);
  // One audit history entry per chunk: 200, 200, 30.
  const chunks = world.query<{ request: string }>(
    "SELECT request FROM audit_history_entries WHERE action = 'Bulk Guild Ban' AND targetId = ? ORDER BY createdAt",
    jobUrl.split("/").at(-1),
  );
  expect(chunks.map((c) => (JSON.parse(c.request) as { user_ids: string[] }).user_ids.length)).toEqual([200, 200, 30]);
});

test("as mod: the ban list pages by cursor, searches by id and by name, unbans one with a reason, and exports CSV", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { world, call } = api();
  const guildId = world.guildId;
  const base = `/guilds/${guildId}/bans`;
  const target = seededBans[seededBans.length - 1];
  const { reason: seededReason } = (await call<{ reason: string | null }>("GET", `/guilds/${guildId}/bans/${target}`))
    .body;
  try {
    await signIn(page, "mod", base);
    const table = page.getByRole("table", { name: "Bans" });
    // Each banned user's chip carries the id its copy button copies.
    const ids = () =>
      table
        .locator("tbody tr td:nth-child(1) [data-user-id]")
        .evaluateAll((chips) => chips.map((chip) => (chip as HTMLElement).dataset.userId!));
    await expect(table.locator("tbody tr")).toHaveCount(50);
    const first = await ids();
    await shot(page, "list");

    await page.getByRole("link", { name: "Next →" }).click();
    await expect(page).toHaveURL(/[?&]after=\d+/);
    await expect(page.getByText(/^Page 2/)).toBeVisible();
    await expect.poll(async () => (await ids())[0]).not.toBe(first[0]);
    const second = await ids();
    expect(BigInt(second[0]) > BigInt(first.at(-1)!)).toBe(true);
    await page.getByRole("link", { name: "← Previous" }).click();
    await expect(page).toHaveURL(/[?&]before=\d+/);
    await expect.poll(ids).toEqual(first);

    // By id: exactly that ban.
    await page.getByRole("searchbox").fill(fresh[7]);
    await expect(page).toHaveURL(new RegExp(`[?&]q=${fresh[7]}`));
    await expect(table.locator("tbody tr")).toHaveCount(1);
    await expect(table).toContainText(name(7));
    // By name: a scan, and the page says so.
    await page.getByRole("searchbox").fill("e2e_bulk_12");
    await expect(page).toHaveURL(/[?&]q=e2e_bulk_12/);
    await expect(table.locator("tbody tr")).toHaveCount(10);
    for (const text of await table.locator("tbody tr td:first-child").allInnerTexts())
      expect(text).toContain("e2e_bulk_12");
    await expect(page.getByText(/10 matching by name in \d+ bans read/)).toBeVisible();
    await expect(page.getByText(/matched within usernames and display names by reading the ban list/)).toBeVisible();
    await shot(page, "search");

    // Unban one seeded ban, with a reason.
    await page.getByRole("searchbox").fill(target);
    await expect(page).toHaveURL(new RegExp(`[?&]q=${target}`));
    await expect(table.locator("tbody tr")).toHaveCount(1);
    await table.getByRole("button", { name: /^Unban / }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Reason (audit log)").fill("e2e appeal accepted");
    await shot(page, "unban-dialog");
    await dialog.getByRole("button", { name: "Unban" }).click();
    await expect(page.getByRole("status").filter({ hasText: /^Unbanned/ })).toBeVisible();
    await expect.poll(async () => (await call("GET", `/guilds/${guildId}/bans/${target}`)).status).toBe(404);
    await expect(table.locator("tbody tr")).toHaveCount(0);
    await expect(page.getByText("That user is not banned in this server.")).toBeVisible();
    const audit = world.query<{ reason: string; status: string }>(
      "SELECT reason, status FROM audit_history_entries WHERE action = 'Remove Guild Ban' AND targetId = ?",
      target,
    );
    expect(audit).toEqual([{ reason: "e2e appeal accepted", status: "success" }]);

    // Export: every ban, one line each after the header.
    await page.getByRole("searchbox").fill("");
    // The search box writes the URL after a pause: let it settle, or it would replace the navigations below.
    await expect(page).not.toHaveURL(/[?&]q=/);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Export CSV" }).click(),
    ]);
    const csv = fs
      .readFileSync((await download.path())!, "utf8")
      .trimEnd()
      .split("\r\n");
    const bans = await allBans(call, guildId);
    // mod has View Audit Log: who banned each user and when, as the Bans page shows them.
    expect(csv[0]).toBe("user_id,username,global_name,bot,reason,banned_by_id,banned_by_name,banned_at");
    expect(csv).toHaveLength(bans.length + 1);
    expect(csv.slice(1).map((line) => line.split(",")[0])).toEqual(bans.map((b) => b.user.id));
    const freshLine = csv.find((line) => line.startsWith(`${fresh[0]},`));
    // The reason as the guild holds it; who banned, the moderator (in bot mode too, where the bot made the call).
    const reason = recordedReason("e2e raid wave", { name: "Mod", id: world.userId("mod") });
    expect(freshLine).toMatch(
      new RegExp(
        `^${fresh[0]},${name(0)},,false,${escapeRegExp(reason)},${world.userId("mod")},Mod,\\d{4}-\\d{2}-\\d{2}T[\\d:.]+Z$`,
      ),
    );

    // The export feeds a bulk ban: its user_id column is read, the other columns ignored.
    await page.getByRole("link", { name: "Bulk ban" }).click();
    await page.waitForURL((url) => url.pathname.endsWith("/bans/bulk"));
    await hydrated(page);
    await page.getByLabel("Or import a file").setInputFiles((await download.path())!);
    await expect(page.getByTestId("parse-summary")).toHaveText(`${bans.length} unique ids.`);
    await expect(page.getByLabel("User ids")).toHaveValue(new RegExp(`^${bans[0].user.id}\n`));
  } finally {
    // The seeded ban comes back as it was, reason included.
    await call(
      "PUT",
      `/guilds/${guildId}/bans/${target}`,
      {},
      seededReason ? { "x-audit-log-reason": encodeURIComponent(seededReason) } : {},
    );
  }
});

test("as mod: the Banned user header sorts by account age both ways, in the URL with aria-sort; on a 390 px phone every Unban is on the screen (issue 30)", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { world, call } = api();
  const base = `/guilds/${world.guildId}/bans`;
  // The API's order: ascending by user id, which is the account's creation time.
  const oldestFirst = (await allBans(call, world.guildId)).map((b) => b.user.id);
  const newestFirst = oldestFirst.toReversed();
  expect(oldestFirst.length).toBeGreaterThan(100);

  await signIn(page, "mod", base);
  const table = page.getByRole("table", { name: "Bans" });
  const header = table.getByRole("columnheader", { name: "Banned user" });
  const sortBy = page.getByLabel("Sort by");
  const ids = () =>
    table
      .locator("tbody tr td:nth-child(1) [data-user-id]")
      .evaluateAll((chips) => chips.map((chip) => (chip as HTMLElement).dataset.userId!));
  // The default, the API's own order: oldest accounts first, and the page says so in words.
  await expect(header).toHaveAttribute("aria-sort", "ascending");
  await expect(sortBy).toHaveValue("oldest");
  await expect.poll(ids).toEqual(oldestFirst.slice(0, 50));
  await expect(page.getByText("Showing 1–50, oldest accounts first")).toBeVisible();
  // Columns nobody can sort by say nothing about sorting.
  await expect(table.getByRole("columnheader", { name: "Reason" })).not.toHaveAttribute("aria-sort", /.*/);

  // A click: newest accounts first, read from the end of the list.
  await header.getByRole("button").click();
  await expect(page).toHaveURL(/[?&]sort=newest/);
  await expect(header).toHaveAttribute("aria-sort", "descending");
  await expect(sortBy).toHaveValue("newest");
  await expect.poll(ids).toEqual(newestFirst.slice(0, 50));
  await expect(page.getByText("Showing 1–50, newest accounts first")).toBeVisible();
  await shot(page, "sorted-newest");
  await page.getByRole("button", { name: "Switch to dark mode" }).click();
  await shot(page, "sorted-newest-dark");
  await page.getByRole("button", { name: "Switch to light mode" }).click();

  // Paging keeps the order: the next page holds older accounts (below a cursor), and back again.
  await page.getByRole("link", { name: "Next →" }).click();
  await expect(page).toHaveURL(/[?&]before=\d+/);
  await expect(page).toHaveURL(/[?&]sort=newest/);
  await expect.poll(ids).toEqual(newestFirst.slice(50, 100));
  await expect(page.getByText("Showing 51–100, newest accounts first")).toBeVisible();
  await page.getByRole("link", { name: "← Previous" }).click();
  await expect(page).toHaveURL(/[?&]after=\d+/);
  await expect.poll(ids).toEqual(newestFirst.slice(0, 50));
  await expect(page.getByRole("link", { name: "← Previous" })).toHaveCount(0);

  // A name search scans in the order shown.
  await page.getByRole("searchbox").fill("e2e_bulk_12");
  await expect(page).toHaveURL(/[?&]q=e2e_bulk_12/);
  await expect(table.locator("tbody tr")).toHaveCount(10);
  expect(await ids()).toEqual(fresh.slice(120, 130).toReversed());
  await expect(page.getByText(/10 matching by name in \d+ bans read, newest accounts first/)).toBeVisible();

  // The keyboard: the header's button, Enter. Back to the default, which stays out of the URL; the search stays.
  await header.getByRole("button").focus();
  await page.keyboard.press("Enter");
  await expect(page).not.toHaveURL(/[?&]sort=/);
  await expect(page).toHaveURL(/[?&]q=e2e_bulk_12/);
  await expect(header).toHaveAttribute("aria-sort", "ascending");
  await expect.poll(ids).toEqual(fresh.slice(120, 130));
  await expect(header.getByRole("button")).toBeFocused();

  // A phone: the Sort by select sorts, each row is a card, and every Unban button is within the 390 px screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(base);
  await hydrated(page);
  await sortBy.selectOption("newest");
  await expect(page).toHaveURL(/[?&]sort=newest/);
  await expect.poll(ids).toEqual(newestFirst.slice(0, 50));
  const unban = table.getByRole("button", { name: /^Unban / });
  await expect(unban).toHaveCount(50);
  const boxes = await unban.evaluateAll((buttons) =>
    buttons.map((button) => {
      const box = button.getBoundingClientRect();
      return { left: box.left, right: box.right, width: box.width };
    }),
  );
  for (const box of boxes) {
    expect(box.width).toBeGreaterThan(0);
    expect(box.left).toBeGreaterThanOrEqual(0);
    expect(box.right).toBeLessThanOrEqual(390);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  // Reachable by touch: the last row's button opens its dialog.
  await unban.last().scrollIntoViewIfNeeded();
  await unban.last().click();
  await expect(page.getByRole("dialog", { name: /^Unban / })).toBeVisible();
  await page.getByRole("button", { name: "Keep the ban" }).click();
  await page.screenshot({ path: "test-results/screenshots/bans-phone-newest.png" });
  // The theme toggle is in the phone's closed menu: the class it sets, set directly.
  await page.evaluate(() => document.documentElement.classList.add("dark"));
  await page.screenshot({ path: "test-results/screenshots/bans-phone-newest-dark.png" });
  await page.evaluate(() => document.documentElement.classList.remove("dark"));
});

test("as mod: one id reads in the singular: 1 unique id, 1 not an id, Ban 1 user (issue 30)", async ({ page }) => {
  const { world } = api();
  // A well-formed id of nobody: it is sent (and would fail); the job is only previewed here, never started.
  const nobody = String(((BigInt(Date.UTC(2025, 4, 1)) - 1420070400000n) << 22n) + 11n);
  await signIn(page, "mod", `/guilds/${world.guildId}/bans/bulk`);
  await page.getByLabel("User ids").fill(`${nobody} abc`);
  await expect(page.getByTestId("parse-summary")).toHaveText("1 unique id, 1 not an id.");
  await page.getByRole("button", { name: "Preview" }).click();
  await page.waitForURL(/\/bans\/bulk\/[a-z0-9]+$/, { timeout: 60_000 });
  await hydrated(page);
  await expect(page.getByTestId("job-summary")).toHaveText("1 id: 1 to send, 0 skipped, 1 entry wasn't a user id");
  await expect(page.getByRole("button", { name: "Ban 1 user", exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Ban 1 user", exact: true }).click();
  await expect(page.getByRole("dialog", { name: "Ban 1 user?" })).toBeVisible();
  await shot(page, "bulk-one-id");
});

test("as mod: ban by id, with a warning for a member with roles (issue 30)", async ({ page }) => {
  const { world, call } = api();
  const guildId = world.guildId;
  const target = world.spareMember(8);
  try {
    await signIn(page, "mod", `/guilds/${guildId}/bans`);
    await page.getByRole("button", { name: "Ban by id" }).click();
    const dialog = page.getByRole("dialog", { name: "Ban by id" });
    const userId = dialog.getByLabel("User id");
    // A member with a role: warned, and nothing is banned while the dialog only says so.
    await userId.fill(world.userId("member"));
    await expect(dialog.getByTestId("ban-target")).toHaveText(
      "Member is a member of the server with the role Member. Banning removes them from the server now.",
    );
    await expect(dialog.getByRole("button", { name: "Ban this member" })).toBeVisible();
    await shot(page, "ban-by-id-warning");

    await userId.fill(target.id);
    await expect(dialog.getByTestId("ban-target")).toContainText(
      `${target.username} is a member of the server (no roles)`,
    );
    await dialog.getByLabel("Reason").fill("e2e ban by id");
    await dialog.getByLabel("Delete message history").selectOption({ label: "Previous hour" });
    await dialog.getByRole("button", { name: "Ban", exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: `Banned ${target.username}.` })).toBeVisible();
    await expect(dialog).toBeHidden();
    const ban = await call<{ reason: string | null }>("GET", `/guilds/${guildId}/bans/${target.id}`);
    expect(ban.status).toBe(200);
    expect(ban.body.reason).toBe(recordedReason("e2e ban by id", { name: "Mod", id: world.userId("mod") }));
    expect((await call("GET", `/guilds/${guildId}/bans/${world.userId("member")}`)).status).toBe(404);
    const entries = world.query<{ action: string; status: string; request: string }>(
      "SELECT action, status, request FROM audit_history_entries WHERE targetId = ? AND source = 'dashboard'",
      target.id,
    );
    expect(entries).toEqual([
      { action: "Create Guild Ban", status: "success", request: JSON.stringify({ delete_message_seconds: 3600 }) },
    ]);
  } finally {
    await call("DELETE", `/guilds/${guildId}/bans/${target.id}`);
  }
});

test("as mod: undo gives back exactly the bans the job made", async ({ page }) => {
  test.setTimeout(180_000);
  const { world, call } = api();
  const guildId = world.guildId;
  expect(jobUrl).not.toBe("");
  await signIn(page, "mod", jobUrl);
  await page.getByRole("button", { name: "Undo" }).click();
  await page.getByRole("dialog", { name: "Unban 425 users?" }).getByRole("button", { name: "Unban them" }).click();
  await expect(page.getByRole("main").getByText("Undone", { exact: true })).toBeVisible({ timeout: 90_000 });
  await page.getByRole("link", { name: /^Unbanned/ }).click();
  await expect(page.getByRole("link", { name: /^Unbanned/ })).toContainText("425");
  await shot(page, "undone");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate(() => document.documentElement.classList.add("dark"));
  await page.screenshot({ path: "test-results/screenshots/bans-undone-phone-dark.png" });

  const bans = new Set((await allBans(call, guildId)).map((b) => b.user.id));
  for (const id of fresh) expect(bans.has(id), id).toBe(false);
  // Everything banned before the job (the seed's bans) is still banned, and nothing else is.
  expect([...bans].sort()).toEqual([...seededBans].sort());
});
