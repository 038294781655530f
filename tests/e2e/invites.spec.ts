// The Invites section in a real browser, signed in through the real OAuth2 flow as mod: create an invite, upload a
// target-users CSV with bad lines (each listed, nothing saved), then a good one followed to COMPLETED, download the
// list through the dashboard, delete the invite with a reason. Every change is checked through the guild API (the
// demo bot's token) and in the audit history page. The demo world's seeded invites and users are left as they are.
import fs from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { E2E_URL } from "../../playwright.config";
import { api, hydrated, screenshot, signIn } from "./helpers";

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
      inviter: { id: world.userId("mod") },
    });
    const row = table.getByRole("row").filter({ hasText: code });
    await expect(row).toContainText("#help");
    await expect(row).toContainText("0 / 7");
    await expect(row).toContainText("in 1 hour");
    await expect(row).toContainText("Temporary");
    await expect(row).toContainText("@mod");
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
    expect(log.body.audit_log_entries[0].reason).toBe("e2e: workshop is over");
    expect(log.body.audit_log_entries[0].changes).toContainEqual({ key: "code", old_value: code });
    const deleted = code;
    code = null;

    // ── Audit history: the three operations, the failed upload too ──
    await page.getByRole("link", { name: "Audit history" }).click();
    await hydrated(page);
    const history = page.getByRole("region", { name: "Audit history, newest first" });
    const entries = (text: string | RegExp) => history.getByRole("listitem").filter({ hasText: text });
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
