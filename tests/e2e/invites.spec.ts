// The Invites section in a real browser, signed in through the real OAuth2 flow as mod: create an invite, upload a
// target-users CSV with bad lines (each listed, nothing saved), then a good one followed to COMPLETED, download the
// list through the dashboard, delete the invite with a reason. Every change is checked through the guild API (the
// demo bot's token) and in the audit history page. Then the table (issue 30): headers sort on the server, shift-click
// selects a range, "Select all" reaches every page, and Revoke selected deletes them. The demo world's seeded invites
// and users are left as they are (the seeded invites "Select all" revokes are put back as they were stored).
import fs from "node:fs";
import Database from "better-sqlite3";
import { expect, test, type Page } from "@playwright/test";
import { E2E_URL } from "../../playwright.config";
import { api, e2eDatabaseFile, hydrated, screenshot, signIn } from "./helpers";
import { botMode, recordedActor, recordedReason } from "./mode";

const shot = (page: Page, name: string) => screenshot(page, `invites-${name}`);

interface Invite {
  code: string;
  max_age: number;
  max_uses: number;
  uses: number;
  temporary: boolean;
  channel: { id: string };
  inviter: { id: string };
}
interface Job {
  status: number;
  total_users: number;
  processed_users: number;
}

test.describe.configure({ mode: "serial" });

test("as mod: create an invite, reject a bad target-users file line by line, save a good one to COMPLETED, download it, delete the invite", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const { world, call, text } = api();
  const guildId = world.guildId;
  const base = `/guilds/${guildId}`;
  const users = { member: world.userId("member"), outsider: world.userId("outsider"), ada: world.userId("ada_fox") };
  let code: string | null = null;
  try {
    await signIn(page, "mod", `${base}/invites`);
    const table = page.getByRole("table", { name: "Invites" });
    // The seeded invites: uses of limit, inviter, the temporary flag.
    await expect(table.getByRole("row").filter({ hasText: "movienight" })).toContainText("7 / 50");
    await expect(table.getByRole("row").filter({ hasText: "hqwelcome" })).toContainText("128 / ∞");
    await expect(table.getByRole("row").filter({ hasText: "hqwelcome" })).toContainText("Never");
    await expect(table.getByRole("row").filter({ hasText: "tempguest" })).toContainText("Temporary");
    await shot(page, "list");

    // ── Create ──
    await page.getByRole("button", { name: "Create invite" }).click();
    const create = page.getByRole("dialog", { name: "Create invite" });
    await create.getByLabel("Channel").selectOption({ label: "#help" });
    await create.getByLabel("Expire after").selectOption({ label: "1 hour" });
    await create.getByLabel("Max number of uses").fill("101");
    await create.getByRole("button", { name: "Create invite" }).click();
    await expect(create.getByText("At most 100.", { exact: true })).toBeVisible();
    await create.getByLabel("Max number of uses").fill("7");
    await create.getByRole("switch", { name: "Grant temporary membership" }).check({ force: true });
    await create.getByRole("switch", { name: "Always a new link" }).check({ force: true });
    await create.getByLabel("Reason (optional)").fill("e2e: invite for the workshop");
    await shot(page, "create");
    await create.getByRole("button", { name: "Create invite" }).click();
    const created = page.getByRole("status").filter({ hasText: /Created the invite / });
    await expect(created).toBeVisible();
    code = /Created the invite (\S+)\./.exec((await created.textContent()) ?? "")![1];
    // The new invite's link, ready to copy, before the dialog closes.
    const made = page.getByRole("dialog", { name: "Invite created" });
    await expect(made.getByLabel("Invite link")).toHaveValue(`${E2E_URL}/invite/${code}`);
    await expect(made.getByRole("button", { name: "Copy link" })).toBeVisible();
    await made.getByRole("button", { name: "Done" }).click();
    const listed = (await call<Invite[]>("GET", `/guilds/${guildId}/invites`)).body.find((i) => i.code === code);
    expect(listed).toMatchObject({
      max_age: 3600,
      max_uses: 7,
      uses: 0,
      temporary: true,
      channel: { id: world.channelId("help") },
      // In bot mode the bot makes the invite.
      inviter: { id: recordedActor(world.userId("mod"), world.bot.id) },
    });
    const row = table.getByRole("row").filter({ hasText: code });
    await expect(row).toContainText("#help");
    await expect(row).toContainText("0 / 7");
    await expect(row).toContainText("in 1 hour");
    await expect(row).toContainText("Temporary");
    await expect(row).toContainText(`@${botMode ? world.bot.username : "mod"}`);
    await shot(page, "created");

    // ── Target users: a file with bad lines ──
    await row.getByRole("button", { name: `Target users of ${code}` }).click();
    const dialog = page.getByRole("dialog", { name: `Target users of ${code}` });
    await expect(dialog.getByText("No list: anyone with the link can join.")).toBeVisible();
    const file = dialog.getByLabel("CSV file of user ids");
    await file.setInputFiles({
      name: "bad.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(`user_id\n${users.member}\nnot-an-id\n99999\n${users.outsider}\n12x\n`),
    });
    await expect(dialog.getByText("bad.csv: 5 lines with a user id.")).toBeVisible();
    await dialog.getByRole("button", { name: "Upload list" }).click();
    const problems = dialog.getByRole("region", { name: "Problems in the file" });
    await expect(problems).toContainText("Nothing was saved: 3 lines need fixing.");
    const problemRows = problems.getByRole("row");
    await expect(problemRows).toHaveCount(4); // header + 3
    await expect(problemRows.nth(1)).toContainText('3"not-an-id" is not a valid user id');
    await expect(problemRows.nth(2)).toContainText("4user 99999 does not exist");
    await expect(problemRows.nth(3)).toContainText('6"12x" is not a valid user id');
    expect((await call<Job>("GET", `/invites/${code}/target-users/job-status`)).body.status).toBe(0);
    await shot(page, "target-users-bad-lines");

    // ── Target users: a good file, followed to COMPLETED ──
    await file.setInputFiles({
      name: "good.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(`user_id\n${users.member}\n${users.outsider}\n${users.ada}\n`),
    });
    await expect(problems).toBeHidden();
    await dialog.getByRole("button", { name: "Upload list" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Uploaded 3 user ids" })).toBeVisible();
    await expect(dialog.getByText("Completed: 3 users can accept this invite.")).toBeVisible();
    await expect(dialog.getByRole("progressbar", { name: "Target users saved" })).toHaveAttribute(
      "aria-valuenow",
      "100",
    );
    expect((await call<Job>("GET", `/invites/${code}/target-users/job-status`)).body).toMatchObject({
      status: 2,
      total_users: 3,
      processed_users: 3,
    });
    const expected = `user_id\n${[users.member, users.outsider, users.ada].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)).join("\n")}\n`;
    expect(await text(`/invites/${code}/target-users`)).toBe(expected);
    await shot(page, "target-users-completed");

    // ── Download, through the dashboard (the browser holds no API token) ──
    const downloading = page.waitForEvent("download");
    await dialog.getByRole("link", { name: "Download current list" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`invite-${code}-target-users.csv`);
    expect(fs.readFileSync(await download.path(), "utf8")).toBe(expected);
    // Without the dashboard session the same route gives nothing away.
    const anonymous = await fetch(`${E2E_URL}${base}/invites/${code}/target-users`, { redirect: "manual" });
    expect(anonymous.status).not.toBe(200);
    expect(anonymous.headers.get("content-type") ?? "").not.toContain("text/csv");

    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(row).toContainText("3 target users");

    // ── Delete with a reason ──
    await row.getByRole("button", { name: `Delete ${code}` }).click();
    const remove = page.getByRole("dialog", { name: `Delete invite ${code}` });
    await remove.getByLabel("Reason").fill("e2e: workshop is over");
    await shot(page, "delete");
    await remove.getByRole("button", { name: "Delete invite" }).click();
    await expect(page.getByRole("status").filter({ hasText: `Deleted the invite ${code}.` })).toBeVisible();
    await expect(table.getByRole("row").filter({ hasText: code })).toHaveCount(0);
    expect((await call("GET", `/invites/${code}`)).status).toBe(404);
    const log = await call<{
      audit_log_entries: Array<{ reason?: string; changes?: Array<{ key: string; old_value?: unknown }> }>;
    }>("GET", `/guilds/${guildId}/audit-logs?action_type=42&limit=1`);
    expect(log.body.audit_log_entries[0].reason).toBe(
      recordedReason("e2e: workshop is over", { name: "Mod", id: world.userId("mod") }),
    );
    expect(log.body.audit_log_entries[0].changes).toContainEqual({ key: "code", old_value: code });
    const deleted = code;
    code = null;

    // ── Audit history: the three operations, the failed upload too ──
    await page.getByRole("link", { name: "Audit history" }).click();
    await hydrated(page);
    const history = page.getByRole("table", { name: "Audit history" });
    const entries = (text: string | RegExp) => history.locator("tbody tr").filter({ hasText: text });
    await expect(entries("created the invite").filter({ hasText: deleted })).toHaveCount(1);
    await expect(entries(/change(d)? who may use the invite/).filter({ hasText: deleted })).toHaveCount(2);
    await expect(entries("deleted the invite").filter({ hasText: "e2e: workshop is over" })).toHaveCount(1);

    // Phone width: the table scrolls sideways, the header and actions stay usable.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${base}/invites`);
    await hydrated(page);
    await expect(page.getByRole("button", { name: "Create invite" })).toBeVisible();
    await shot(page, "phone");
  } finally {
    if (code) await call("DELETE", `/invites/${code}`);
  }
});

test("as mod: headers sort by creation, uses and expiry on the server; shift-click selects a range, 'Select all' reaches every page, and Revoke selected deletes them (issue 30)", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const { world, call } = api();
  const guildId = world.guildId;
  const base = `/guilds/${guildId}/invites`;
  // The invites already there as stored (the seeded three, and any another spec left, such as the widget's):
  // "Select all" revokes them too, and they are put back as they were at the end.
  const seeded = world.query<Record<string, unknown>>(
    "SELECT * FROM invites WHERE guild_id = ? ORDER BY code",
    BigInt(guildId),
  );
  expect(seeded.map((invite) => invite.code)).toEqual(expect.arrayContaining(["hqwelcome", "movienight", "tempguest"]));
  const made: string[] = [];
  try {
    // 30 more in #help, expiring in 1 to 30 hours: two pages of 25.
    for (let i = 1; i <= 30; i++) {
      for (;;) {
        const created = await call<{ code: string; retry_after?: number }>(
          "POST",
          `/channels/${world.channelId("help")}/invites`,
          { max_age: 3600 * i, max_uses: 0, unique: true },
        );
        if (created.status === 429) {
          await new Promise((resolve) => setTimeout(resolve, (created.body.retry_after ?? 1) * 1000));
          continue;
        }
        expect(created.status).toBe(200);
        made.push(created.body.code);
        break;
      }
    }
    const total = made.length + seeded.length;
    // Newest first as the API dates them (the code orders two made in the same millisecond).
    const newest = (await call<Array<{ code: string; created_at: string }>>("GET", `/guilds/${guildId}/invites`)).body
      .toSorted((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at) || a.code.localeCompare(b.code))
      .map((invite) => invite.code);
    expect(newest.slice(0, made.length).toSorted()).toEqual(made.toSorted());

    await signIn(page, "mod", base);
    const table = page.getByRole("table", { name: "Invites" });
    const codes = () =>
      table.locator("tbody tr").evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.inviteCode!));
    const header = (name: string) => table.getByRole("columnheader", { name });
    const sortBy = page.getByLabel("Sort by");

    // Newest first by default: the Created header's, descending; our 30, the newest, fill page 1.
    await expect(header("Created")).toHaveAttribute("aria-sort", "descending");
    await expect(header("Uses")).toHaveAttribute("aria-sort", "none");
    await expect(header("Inviter")).not.toHaveAttribute("aria-sort", /.*/);
    await expect.poll(codes).toEqual(newest.slice(0, 25));
    await expect(page.getByText(`1–25 of ${total} invites`)).toBeVisible();

    // Uses: most used first on the first click (the seeded invites have uses), then least used; sorted before paging.
    await header("Uses").getByRole("button").click();
    await expect(page).toHaveURL(/[?&]sort=uses-desc/);
    await expect(header("Uses")).toHaveAttribute("aria-sort", "descending");
    await expect(header("Created")).toHaveAttribute("aria-sort", "none");
    await expect(sortBy).toHaveValue("uses-desc");
    await expect.poll(async () => (await codes()).slice(0, 3)).toEqual(["hqwelcome", "movienight", "tempguest"]);
    await header("Uses").getByRole("button").focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/[?&]sort=uses-asc/);
    await expect(header("Uses")).toHaveAttribute("aria-sort", "ascending");
    // The table is drawn anew for the new order; the keyboard stays on the header.
    await expect(header("Uses").getByRole("button")).toBeFocused();
    await page.getByRole("link", { name: "Next →" }).click();
    await expect(page).toHaveURL(/[?&]page=2/);
    await expect(page).toHaveURL(/[?&]sort=uses-asc/);
    await expect.poll(async () => (await codes()).slice(-3)).toEqual(["tempguest", "movienight", "hqwelcome"]);

    // Expiry: soonest first (a new order starts at page 1), then never-expiring first.
    await header("Expires").getByRole("button").click();
    await expect(page).toHaveURL(/[?&]sort=expires-asc/);
    await expect(page).not.toHaveURL(/[?&]page=/);
    await expect(header("Expires")).toHaveAttribute("aria-sort", "ascending");
    await expect.poll(async () => (await codes()).slice(0, 3)).toEqual(made.slice(0, 3));
    await header("Expires").getByRole("button").click();
    await expect(page).toHaveURL(/[?&]sort=expires-desc/);
    await expect.poll(async () => (await codes())[0]).toBe("hqwelcome");
    await shot(page, "sorted-by-expiry");
    // The select says the same, and sorts too: back to the default, which stays out of the URL.
    await expect(sortBy).toHaveValue("expires-desc");
    await sortBy.selectOption("newest");
    await expect(page).not.toHaveURL(/[?&]sort=/);
    await expect(header("Created")).toHaveAttribute("aria-sort", "descending");
    await expect.poll(codes).toEqual(newest.slice(0, 25));

    // Shift-click: the 2nd, then shift on the 5th, selects the 2nd to 5th.
    const boxes = table.getByRole("checkbox", { name: /^Select (?!every)/ });
    await boxes.nth(1).click();
    await boxes.nth(4).click({ modifiers: ["Shift"] });
    for (let i = 1; i <= 4; i++) await expect(boxes.nth(i)).toBeChecked();
    await expect(boxes.nth(0)).not.toBeChecked();
    await expect(boxes.nth(5)).not.toBeChecked();
    const bar = page.getByRole("region", { name: "Selected invites" });
    await expect(bar.getByRole("status")).toHaveText("4 selected");
    const range = newest.slice(1, 5);
    await shot(page, "range-selected");

    // Revoke selected: asked first with the count, then said what happened.
    await bar.getByRole("button", { name: "Revoke selected" }).click();
    const confirm = page.getByRole("dialog", { name: "Revoke 4 invites?" });
    await confirm.getByLabel("Reason").fill("e2e: revoke a range");
    await confirm.getByRole("button", { name: "Revoke 4 invites" }).click();
    await expect(page.getByRole("dialog", { name: "Revoked 4 invites" })).toBeVisible();
    await expect(page.getByRole("status").filter({ hasText: "Revoked 4 invites." })).toBeVisible();
    await page.getByRole("button", { name: "Done" }).click();
    await expect(bar).toHaveCount(0);
    for (const code of range) expect((await call("GET", `/invites/${code}`)).status, code).toBe(404);
    await expect.poll(async () => (await codes()).filter((code) => range.includes(code))).toEqual([]);
    const filed = world.query<{ targetId: string; status: string }>(
      "SELECT targetId, status FROM audit_history_entries WHERE action = 'Delete Invite' AND reason = ?",
      "e2e: revoke a range",
    );
    expect(filed.map((entry) => entry.targetId).sort()).toEqual([...range].sort());
    expect(new Set(filed.map((entry) => entry.status))).toEqual(new Set(["success"]));

    // Every invite on every page: the page's box, then the bar's offer.
    const left = total - range.length;
    await table.getByRole("checkbox", { name: "Select every invite on this page" }).check();
    await expect(bar.getByRole("status")).toHaveText("25 selected");
    await bar.getByRole("button", { name: `Select all ${left} invites` }).click();
    await expect(bar.getByRole("status")).toHaveText(`All ${left} invites selected`);
    await shot(page, "all-selected");
    await page.setViewportSize({ width: 390, height: 844 });
    // A phone: each row a card, and each of its controls inside the card (none past its edge).
    const outside = await table.locator("tbody tr").evaluateAll((rows) =>
      rows.flatMap((row) => {
        const card = row.getBoundingClientRect();
        return [...row.querySelectorAll("a, button, input")]
          .map((control) => control.getBoundingClientRect())
          .filter((box) => box.width > 0 && (box.left < card.left || box.right > card.right));
      }),
    );
    expect(outside).toHaveLength(0);
    await shot(page, "all-selected-phone");
    await page.evaluate(() => document.documentElement.classList.add("dark"));
    await shot(page, "all-selected-phone-dark");
    await page.evaluate(() => document.documentElement.classList.remove("dark"));
    await page.setViewportSize({ width: 1280, height: 720 });
    await bar.getByRole("button", { name: "Revoke selected" }).click();
    await page
      .getByRole("dialog", { name: `Revoke ${left} invites?` })
      .getByRole("button", { name: `Revoke ${left} invites` })
      .click();
    await expect(page.getByRole("dialog", { name: `Revoked ${left} invites` })).toBeVisible({ timeout: 30_000 });
    await page.getByRole("button", { name: "Done" }).click();
    // Through the API: none left, those on page 2 included.
    expect((await call<unknown[]>("GET", `/guilds/${guildId}/invites`)).body).toEqual([]);
    await expect(page.getByText("No active invites")).toBeVisible();
  } finally {
    for (const code of made) await call("DELETE", `/invites/${code}`);
    restoreInvites(seeded);
  }
});

/** Puts invites back as they were stored (the seeded ones "Select all" revoked), straight into the server's database. */
function restoreInvites(rows: Array<Record<string, unknown>>) {
  const db = new Database(e2eDatabaseFile());
  db.pragma("busy_timeout = 5000");
  db.defaultSafeIntegers(true);
  db.transaction(() => {
    for (const row of rows) {
      const columns = Object.keys(row);
      db.prepare(
        `INSERT OR IGNORE INTO invites (${columns.join(", ")}) VALUES (${columns.map((c) => `@${c}`).join(", ")})`,
      ).run(row);
    }
  })();
  db.close();
}
