// Dialogs that hold edits ask "Discard changes?" before closing (create channel, role editor, create invite), and the
// keyboard alone edits a role and reorders channels (the prune's keyboard run is in prune-safety.spec.ts, on the guild
// that spec seeds). Every change is checked through the guild API and put back afterwards.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { api, discardPrompt, hydrated, screenshot, signedInPage } from "./helpers";

const shot = (page: Page, name: string) => screenshot(page, `keyboard-dialogs-${name}`);

test.describe.configure({ mode: "serial" });

let page: Page;
let base: string;

test.beforeAll(async ({ browser }) => {
  base = `/guilds/${api().world.guildId}`;
  page = await signedInPage(browser, "owner", `${base}/channels`);
});

test.afterAll(async () => {
  await page.context().close();
});

/** Presses Tab until the element has the focus (no clicks). */
async function tabTo(target: Locator, max = 120): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

async function startFromTop(path: string): Promise<void> {
  await page.goto(path);
  await hydrated(page);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

test("create channel: Escape with a name typed asks first; Keep editing keeps it, Cancel asks too, Discard closes", async () => {
  const { world, call } = api();
  await startFromTop(`${base}/channels`);
  await page.getByRole("button", { name: "Create channel" }).click();
  const dialog = page.getByRole("dialog", { name: "Create channel" });
  await dialog.getByLabel("Name").fill("draft-never-saved");

  await page.keyboard.press("Escape");
  await expect(discardPrompt(page)).toBeVisible();
  await shot(page, "create-channel-prompt");
  await discardPrompt(page).getByRole("button", { name: "Keep editing" }).click();
  await expect(discardPrompt(page)).toBeHidden();
  await expect(dialog.getByLabel("Name")).toHaveValue("draft-never-saved");

  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(discardPrompt(page)).toBeVisible();
  await discardPrompt(page).getByRole("button", { name: "Discard changes" }).click();
  await expect(dialog).toBeHidden();

  // Opened again it starts empty, and closing an untouched dialog asks nothing.
  await page.getByRole("button", { name: "Create channel" }).click();
  await expect(dialog.getByLabel("Name")).toHaveValue("");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(discardPrompt(page)).toHaveCount(0);

  const channels = await call<Array<{ name: string }>>("GET", `/guilds/${world.guildId}/channels`);
  expect(channels.body.map((c) => c.name)).not.toContain("draft-never-saved");
});

test("role editor: the close button with a permission changed asks first; discarding leaves the role as it was", async () => {
  const { world, call } = api();
  const roleId = world.roleId("Regular");
  const before = await call<{ permissions: string; name: string }>("GET", `/guilds/${world.guildId}/roles/${roleId}`);
  await startFromTop(`${base}/roles`);
  await page.getByRole("button", { name: "Edit Regular" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit Regular" });
  await dialog.getByLabel("Role name").fill("Regular, renamed but not saved");

  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(discardPrompt(page)).toBeVisible();
  await discardPrompt(page).getByRole("button", { name: "Keep editing" }).click();
  await expect(dialog.getByLabel("Role name")).toHaveValue("Regular, renamed but not saved");

  await page.keyboard.press("Escape");
  await discardPrompt(page).getByRole("button", { name: "Discard changes" }).click();
  await expect(dialog).toBeHidden();
  const after = await call<{ permissions: string; name: string }>("GET", `/guilds/${world.guildId}/roles/${roleId}`);
  expect(after.body).toMatchObject({ name: before.body.name, permissions: before.body.permissions });
});

test("create invite: a changed field makes Escape ask first", async () => {
  await startFromTop(`${base}/invites`);
  await page.getByRole("button", { name: "Create invite" }).click();
  const dialog = page.getByRole("dialog", { name: "Create invite" });
  await dialog.getByLabel("Max number of uses").fill("7");
  await page.keyboard.press("Escape");
  await expect(discardPrompt(page)).toBeVisible();
  await discardPrompt(page).getByRole("button", { name: "Discard changes" }).click();
  await expect(dialog).toBeHidden();
});

test("editing a role with the keyboard alone: Edit, rename, Save", async () => {
  const { world, call } = api();
  const roleId = world.roleId("Helper");
  const original = (await call<{ name: string }>("GET", `/guilds/${world.guildId}/roles/${roleId}`)).body.name;
  try {
    await startFromTop(`${base}/roles`);
    await tabTo(page.getByRole("button", { name: "Edit Helper" }));
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Edit Helper" });
    await expect(dialog).toBeVisible();
    const name = dialog.getByLabel("Role name");
    await tabTo(name);
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.type("Helper (keyboard)");
    await tabTo(dialog.getByRole("button", { name: "Save changes" }));
    await page.keyboard.press("Enter");
    await expect(dialog).toBeHidden();
    await expect
      .poll(async () => (await call<{ name: string }>("GET", `/guilds/${world.guildId}/roles/${roleId}`)).body.name)
      .toBe("Helper (keyboard)");
    // The focus is back on the row's Edit button, whose name follows the role's.
    await expect(page.getByRole("button", { name: "Edit Helper (keyboard)" })).toBeFocused();
    await shot(page, "keyboard-role-edit");
  } finally {
    await call("PATCH", `/guilds/${world.guildId}/roles/${roleId}`, { name: original });
  }
});

test("reordering channels with the keyboard alone: Move down to the end keeps the keyboard on the row, then Save order", async () => {
  const { world, call } = api();
  type Channel = { id: string; name: string; position: number; parent_id: string | null };
  const read = async () => (await call<Channel[]>("GET", `/guilds/${world.guildId}/channels`)).body;
  const before = await read();
  const community = before.find((c) => c.name === "Community")!;
  const siblings = before
    .filter((c) => c.parent_id === community.id)
    .sort((a, b) => a.position - b.position || (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
  const [penultimate, last] = siblings.slice(-2);
  try {
    await startFromTop(`${base}/channels`);
    await tabTo(page.getByRole("button", { name: `Move ${penultimate.name} down` }));
    await page.keyboard.press("Enter");
    const list = page.getByRole("list", { name: "Channels in Community" });
    await expect(list.getByRole("listitem").last()).toContainText(penultimate.name);
    // Its Move down is disabled at the end of the list: the keyboard is on its Move up, not lost to the page.
    await expect(page.getByRole("button", { name: `Move ${penultimate.name} down` })).toBeDisabled();
    await expect(page.getByRole("button", { name: `Move ${penultimate.name} up` })).toBeFocused();
    await tabTo(
      page.getByRole("region", { name: "Unsaved channel order" }).getByRole("button", { name: "Save order" }),
    );
    await page.keyboard.press("Enter");
    await expect
      .poll(async () => {
        const after = await read();
        const position = (id: string) => after.find((c) => c.id === id)!.position;
        return position(penultimate.id) > position(last.id);
      })
      .toBe(true);
    await shot(page, "keyboard-channel-order");
  } finally {
    await call(
      "PATCH",
      `/guilds/${world.guildId}/channels`,
      siblings.map((c) => ({ id: c.id, position: c.position })),
    );
  }
});

test("toasts show above an open dialog, and a newer toast of the same kind replaces the older (issue 30)", async () => {
  const { world, call } = api();
  const target = world.spareMember(7);
  try {
    await page.goto(`${base}/members?member=${target.id}`);
    await hydrated(page);
    const panel = page.getByRole("dialog");
    await panel.getByRole("button", { name: "Time out", exact: true }).click();
    const toasts = page.getByRole("status").filter({ hasText: /Timed out until|Timeout removed/ });
    await expect(toasts).toHaveText(/Timed out until/);
    await expect(panel).toBeVisible();
    // The modal panel is in the browser's top layer, above any z-index: the toasts' region must be there too, shown
    // after the dialog (a hit test cannot tell: outside a modal dialog everything is inert, so it never hits a toast).
    const onTop = async () => toasts.evaluate((toast) => Boolean(toast.closest("[popover]")?.matches(":popover-open")));
    expect(await onTop()).toBe(true);
    await shot(page, "toast-over-dialog");

    await panel.getByRole("button", { name: "Remove timeout" }).click();
    await expect(toasts).toHaveText(/Timeout removed/);
    await expect(toasts).toHaveCount(1);
    expect(await onTop()).toBe(true);
  } finally {
    await call("PATCH", `/guilds/${world.guildId}/members/${target.id}`, { communication_disabled_until: null });
  }
});
