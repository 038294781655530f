// The one unsaved-changes guard, where it was missing: confirmation dialogs whose only field is a reason (Cancel with
// a reason typed asks "Discard changes?"; with none it closes at once), the member panel's kick confirmation, and a
// pending channel or role reorder (an in-app link, the back button and closing the tab ask first). Nothing is saved
// by any of it: each test checks the guild through the API afterwards.
import { expect, test, type Page } from "@playwright/test";
import { api, discardPrompt, hydrated, screenshot, signedInPage } from "./helpers";

test.describe.configure({ mode: "serial" });

let page: Page;
let base: string;

test.beforeAll(async ({ browser }) => {
  base = `/guilds/${api().world.guildId}`;
  page = await signedInPage(browser, "owner", `${base}/roles`);
});

test.afterAll(async () => {
  await page.context().close();
});

const sidebarLink = (name: string) =>
  page.getByRole("navigation", { name: "Server sections" }).getByRole("link", { name });

test("delete role: Cancel with a reason typed asks first; Keep editing keeps the reason, Discard closes", async () => {
  const { world, call } = api();
  await page.goto(`${base}/roles`);
  await hydrated(page);
  await page.getByRole("button", { name: "Delete Regular" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete Regular?" });
  await dialog.getByLabel("Reason").fill("cleaning up roles");

  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(discardPrompt(page)).toBeVisible();
  await screenshot(page, "unsaved-guard-delete-role");
  await discardPrompt(page).getByRole("button", { name: "Keep editing" }).click();
  await expect(dialog.getByLabel("Reason")).toHaveValue("cleaning up roles");

  await dialog.getByRole("button", { name: "Cancel" }).click();
  await discardPrompt(page).getByRole("button", { name: "Discard changes" }).click();
  await expect(dialog).toBeHidden();

  // With no reason typed there is nothing to lose: Cancel closes at once.
  await page.getByRole("button", { name: "Delete Regular" }).click();
  await expect(dialog.getByLabel("Reason")).toHaveValue("");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(discardPrompt(page)).toHaveCount(0);
  expect((await call("GET", `/guilds/${world.guildId}/roles/${world.roleId("Regular")}`)).status).toBe(200);
});

test("member panel: Cancel on a kick with a reason typed asks first", async () => {
  const { world, call } = api();
  const target = world.spareMember(3);
  await page.goto(`${base}/members?q=${target.username}`);
  await hydrated(page);
  await page
    .getByRole("table", { name: "Members" })
    .getByRole("link", { name: /^Open / })
    .click();
  const panel = page.getByRole("dialog");
  await panel.getByRole("button", { name: "Kick", exact: true }).click();
  const confirm = panel.getByRole("form", { name: "Confirm kick" });
  await confirm.getByLabel("Reason").fill("not yet");

  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(discardPrompt(page)).toBeVisible();
  await discardPrompt(page).getByRole("button", { name: "Keep editing" }).click();
  await expect(confirm.getByLabel("Reason")).toHaveValue("not yet");

  await confirm.getByRole("button", { name: "Cancel" }).click();
  await discardPrompt(page).getByRole("button", { name: "Discard changes" }).click();
  await expect(confirm).toBeHidden();
  await expect(panel).toBeVisible();
  expect((await call("GET", `/guilds/${world.guildId}/members/${target.id}`)).status).toBe(200);
});

test("member panel: roles ticked but not saved survive a timeout saved beside them, and closing asks first (issue 30)", async () => {
  const { world, call } = api();
  const target = world.spareMember(5);
  try {
    await page.goto(`${base}/members?q=${target.username}`);
    await hydrated(page);
    await page
      .getByRole("table", { name: "Members" })
      .getByRole("link", { name: /^Open / })
      .click();
    const panel = page.getByRole("dialog");
    const regular = panel.getByRole("list", { name: "Roles" }).getByRole("checkbox", { name: "Regular" });
    await regular.check();
    await panel.getByRole("button", { name: "Time out", exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: "Timed out until" })).toBeVisible();
    await expect(panel.getByText(/^Timed out until/).first()).toBeVisible();
    // The timeout was saved; the ticked role was not, and is still ticked, waiting for Save roles.
    await expect(regular).toBeChecked();
    await expect(panel.getByRole("button", { name: "Save roles" })).toBeVisible();
    await screenshot(page, "unsaved-guard-member-roles-after-timeout");

    await page.keyboard.press("Escape");
    await expect(discardPrompt(page)).toBeVisible();
    await discardPrompt(page).getByRole("button", { name: "Keep editing" }).click();
    await expect(regular).toBeChecked();
    await page.keyboard.press("Escape");
    await discardPrompt(page).getByRole("button", { name: "Discard changes" }).click();
    await expect(panel).toBeHidden();
    const member = await call<{ roles: string[]; communication_disabled_until: string | null }>(
      "GET",
      `/guilds/${world.guildId}/members/${target.id}`,
    );
    expect(member.body.roles).not.toContain(world.roleId("Regular"));
    expect(member.body.communication_disabled_until).not.toBeNull();
  } finally {
    await call("PATCH", `/guilds/${world.guildId}/members/${target.id}`, { communication_disabled_until: null });
  }
});

test("a pending channel reorder: a sidebar link and the back button ask first, closing the tab asks the browser's question", async () => {
  const { world, call } = api();
  const before = (await call<Array<{ id: string; position: number }>>("GET", `/guilds/${world.guildId}/channels`)).body;
  await page.goto(`${base}/settings`);
  await page.goto(`${base}/channels`);
  await hydrated(page);
  await page.getByRole("button", { name: "Move general down" }).click();
  const bar = page.getByRole("region", { name: "Unsaved channel order" });
  await expect(bar).toBeVisible();

  await sidebarLink("Roles").click();
  await expect(discardPrompt(page)).toBeVisible();
  await screenshot(page, "unsaved-guard-channel-order");
  await discardPrompt(page).getByRole("button", { name: "Keep editing" }).click();
  await expect(page).toHaveURL(new RegExp(`${base}/channels$`));
  await expect(bar).toBeVisible();

  await page.goBack();
  await expect(discardPrompt(page)).toBeVisible();
  await discardPrompt(page).getByRole("button", { name: "Keep editing" }).click();
  await expect(page).toHaveURL(new RegExp(`${base}/channels$`));
  await expect(bar).toBeVisible();

  // Closing the tab (or reloading) while the order is unsaved: the browser's own "Leave site?" question.
  const unload = page.waitForEvent("dialog");
  await page.close({ runBeforeUnload: true });
  const question = await unload;
  expect(question.type()).toBe("beforeunload");
  await question.dismiss();
  expect(page.isClosed()).toBe(false);

  // Discard: the link is followed, and the order was never saved.
  await sidebarLink("Widget").click();
  await discardPrompt(page).getByRole("button", { name: "Discard changes" }).click();
  await expect(page).toHaveURL(new RegExp(`${base}/widget$`));
  const after = (await call<Array<{ id: string; position: number }>>("GET", `/guilds/${world.guildId}/channels`)).body;
  expect(after.map(({ id, position }) => [id, position])).toEqual(before.map(({ id, position }) => [id, position]));
});

test("a pending role reorder: a sidebar link asks first; Reset ends the question", async () => {
  await page.goto(`${base}/roles`);
  await hydrated(page);
  await page.getByRole("button", { name: "Move Regular up" }).click();
  const bar = page.getByRole("region", { name: "Unsaved role order" });
  await expect(bar).toBeVisible();

  await sidebarLink("Channels").click();
  await expect(discardPrompt(page)).toBeVisible();
  await discardPrompt(page).getByRole("button", { name: "Keep editing" }).click();
  await expect(page).toHaveURL(new RegExp(`${base}/roles$`));

  await bar.getByRole("button", { name: "Reset" }).click();
  await expect(bar).toBeHidden();
  await sidebarLink("Channels").click();
  await expect(page).toHaveURL(new RegExp(`${base}/channels$`));
  await expect(discardPrompt(page)).toHaveCount(0);
});
