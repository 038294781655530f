// The dashboard in a real browser against the running app and built-in API, signing in through the real OAuth2
// flow. Every change is checked through the guild API (the demo bot's token) and in the audit history page.
import { expect, test, type Page } from "@playwright/test";
import { E2E_URL } from "../../playwright.config";
import { api, fillHydrated, hydrated, openSection, screenshot, signIn } from "./helpers";

const shot = (page: Page, name: string) => screenshot(page, `dashboard-${name}`);

/** Types a prefix and waits for the table to show only its matches. */
async function searchMembers(page: Page, prefix: string): Promise<void> {
  await page.getByRole("searchbox").fill(prefix);
  await expect(page).toHaveURL(new RegExp(`[?&]q=${prefix}`));
  await expect(page.getByRole("table", { name: "Members" }).getByRole("link", { name: /^Open / })).not.toHaveCount(0);
  for (const link of await page
    .getByRole("table", { name: "Members" })
    .getByRole("link", { name: /^Open / })
    .all()) {
    await expect(link).toContainText(prefix);
  }
}

test.describe.configure({ mode: "serial" });

/** What GET /metrics counts of a dashboard action's outcome (the test runner is on the server's machine: allowed). */
async function actionCount(page: Page, action: string, outcome: string): Promise<number> {
  const text = await (await page.request.get(`${E2E_URL}/metrics`)).text();
  const line = text
    .split("\n")
    .find(
      (row) =>
        row.startsWith("guildhall_dashboard_actions_total{") &&
        row.includes(`action="${action}"`) &&
        row.includes(`outcome="${outcome}"`),
    );
  return line ? Number(line.split(" ").pop()) : 0;
}

test("a signed-out visitor signs in and comes back; the picker lists the servers the moderator can manage", async ({
  page,
}) => {
  await signIn(page, "mod", "/guilds");
  const servers = page.getByRole("list", { name: "Servers you can manage" });
  await expect(servers.getByRole("link")).toHaveCount(1);
  await expect(servers.getByRole("link", { name: /Guildhall HQ/ })).toContainText(/members/);
  await expect(page.getByText("1 other server hidden")).toBeVisible();
  await shot(page, "picker");
});

test("a session that no longer exists is sent to sign in, with the way back (the check streams inside the page)", async ({
  page,
  context,
}) => {
  const { world } = api();
  await context.addCookies([{ name: "next-auth.session-token", value: "no-such-session", url: E2E_URL }]);
  await page.goto(`/guilds/${world.guildId}/members?q=ada`);
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=/);
  expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe(`/guilds/${world.guildId}/members?q=ada`);
  await expect(page.getByRole("button", { name: "Sign in with Guildhall" })).toBeVisible();
});

test("as mod: rename the guild, create and reorder a role, move a channel, time out, un-time-out and kick members; all in the audit history", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const { world, call } = api();
  const guildId = world.guildId;
  const base = `/guilds/${guildId}`;
  const originalName = "Guildhall HQ";
  try {
    await signIn(page, "mod", `${base}/settings`);

    // ── Settings: a field error, then a rename ──
    const name = page.getByLabel("Server name");
    await fillHydrated(name, "x");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Must be between 2 and 100 characters.")).toBeVisible();
    expect((await call<{ name: string }>("GET", `/guilds/${guildId}`)).body.name).toBe(originalName);
    await shot(page, "settings-invalid");

    const renamesBefore = await actionCount(page, "Modify Guild", "ok");
    await name.fill("Guildhall HQ Renamed");
    await page.getByLabel("Reason (audit log)").fill("e2e rename");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved 1 setting" })).toBeVisible();
    // The server action is counted in the process's metrics, by its name and outcome.
    expect(await actionCount(page, "Modify Guild", "ok")).toBe(renamesBefore + 1);
    await expect
      .poll(async () => (await call<{ name: string }>("GET", `/guilds/${guildId}`)).body.name)
      .toBe("Guildhall HQ Renamed");
    await expect(page.getByTestId("guild-name").first()).toHaveText("Guildhall HQ Renamed");
    await shot(page, "settings");

    // ── Roles: create one, then move it above Helper ──
    const crewName = `E2E Crew ${Date.now() % 100_000}`;
    await openSection(page, "Roles");
    await page.getByRole("button", { name: "Create role" }).click();
    const dialog = page.getByRole("dialog", { name: "Create role" });
    await dialog.getByLabel("Role name").fill(crewName);
    await dialog.getByRole("switch", { name: "Kick Members" }).check({ force: true });
    await expect(dialog.getByRole("switch", { name: "Administrator" })).toBeDisabled();
    await dialog.getByRole("button", { name: "Create role" }).click();
    await expect(page.getByRole("status").filter({ hasText: `Created the role ${crewName}` })).toBeVisible();
    const roles = async () =>
      (
        await call<Array<{ id: string; name: string; position: number; permissions: string }>>(
          "GET",
          `/guilds/${guildId}/roles`,
        )
      ).body;
    const crew = (await roles()).find((r) => r.name === crewName)!;
    expect(crew).toBeTruthy();
    expect(BigInt(crew.permissions) & 2n).toBe(2n);
    const helperPosition = (await roles()).find((r) => r.name === "Helper")!.position;
    expect(crew.position).toBeLessThan(helperPosition);

    await expect(page.locator(`tr[data-role-id="${crew.id}"]`)).toBeVisible();
    await shot(page, "roles");
    // Drag E2E Crew onto the upper half of Helper's row: it goes above Helper.
    const helperRow = page.locator(`tr[data-role-id="${world.roleId("Helper")}"]`);
    await page.locator(`tr[data-role-id="${crew.id}"]`).dragTo(helperRow, { targetPosition: { x: 40, y: 4 } });
    if (!(await page.getByRole("region", { name: "Unsaved role order" }).isVisible())) {
      // Keyboard alternative, should the drag not register.
      for (let i = 0; i < 3; i++) {
        const up = page.getByRole("button", { name: `Move ${crewName} up` });
        if (await up.isEnabled()) await up.click();
      }
    }
    await page.getByRole("button", { name: "Save order" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved the new role order" })).toBeVisible();
    await expect
      .poll(async () => {
        const now = await roles();
        return now.find((r) => r.name === crewName)!.position > now.find((r) => r.name === "Helper")!.position;
      })
      .toBe(true);

    // ── Channels: move #memes from Community to Information ──
    await openSection(page, "Channels");
    await expect(page.getByRole("list", { name: "Channels in Information" })).toBeVisible();
    await shot(page, "channels");
    await page.getByLabel("Category of memes").selectOption({ label: "Information" });
    await expect(page.getByRole("list", { name: "Channels in Information" })).toContainText("memes");
    await page.getByRole("button", { name: "Save order" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved the new order" })).toBeVisible();
    await expect
      .poll(
        async () =>
          (await call<Array<{ id: string; parent_id: string | null }>>("GET", `/guilds/${guildId}/channels`)).body.find(
            (c) => c.id === world.channelId("memes"),
          )?.parent_id,
      )
      .toBe(world.channelId("Information"));

    // ── Members: time out and un-time-out ada_fox, kick bo_fox ──
    await openSection(page, "Members");
    await searchMembers(page, "ada_f");
    await page.getByRole("link", { name: "Open ada_fox" }).click();
    let panel = page.getByRole("dialog", { name: /ada_fox/ });
    await expect(panel).toBeVisible();
    await shot(page, "member-panel");
    await panel.getByText("1 hour", { exact: true }).click();
    await panel.getByLabel("Reason for the timeout").fill("e2e: cool down");
    await panel.getByRole("button", { name: "Time out" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Timed out until" })).toBeVisible();
    const adaId = world.userId("ada_fox");
    const timeoutOf = async () =>
      (await call<{ communication_disabled_until: string | null }>("GET", `/guilds/${guildId}/members/${adaId}`)).body
        .communication_disabled_until;
    await expect.poll(timeoutOf).not.toBeNull();
    const until = Date.parse((await timeoutOf())!);
    expect(until).toBeGreaterThan(Date.now() + 55 * 60_000);
    expect(until).toBeLessThan(Date.now() + 65 * 60_000);
    await panel.getByRole("button", { name: "Remove timeout" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Timeout removed" })).toBeVisible();
    await expect.poll(timeoutOf).toBeNull();
    await panel.getByRole("button", { name: "Close" }).click();
    await expect(panel).toBeHidden();

    await searchMembers(page, "bo_fox");
    await page.getByRole("link", { name: "Open bo_fox" }).click();
    panel = page.getByRole("dialog", { name: /bo_fox/ });
    await panel.getByRole("button", { name: "Kick", exact: true }).click();
    await panel.getByLabel("Reason", { exact: true }).fill("e2e: kicked");
    await panel.getByRole("button", { name: "Kick member" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Kicked bo_fox" })).toBeVisible();
    // The panel closes and its address is left for good: the typed reason's unsaved-changes guard lets go without
    // a history step that would bring the kicked member's panel back.
    await expect(page).not.toHaveURL(/[?&]member=/);
    await expect
      .poll(async () => (await call("GET", `/guilds/${guildId}/members/${world.userId("bo_fox")}`)).status)
      .toBe(404);
    await page.getByRole("searchbox").fill("");
    // The search box writes the URL after a pause: let it settle before navigating away.
    await expect(page).not.toHaveURL(/[?&]q=/);
    await expect(page.getByRole("table", { name: "Members" })).toBeVisible();
    await shot(page, "members");

    // ── Audit history: a row per change, the changed fields in words ──
    await openSection(page, "Audit history");
    const history = page.getByRole("table", { name: "Audit history" });
    const entries = (text: string | RegExp) => history.locator("tbody tr").filter({ hasText: text });
    await expect(entries(/changed the server: name “Guildhall HQ” → “Guildhall HQ Renamed”/)).toContainText(
      "e2e rename",
    );
    await expect(entries("created the role").first()).toBeVisible();
    await expect(entries("reordered the roles").first()).toBeVisible();
    await expect(entries("reordered the channels").first()).toBeVisible();
    await expect(entries(/kicked bo_fox/)).toContainText("e2e: kicked");
    await expect(entries(/changed ada_fox: timeout none → until/)).toHaveCount(1);
    await expect(entries(/changed ada_fox: timeout until .* → none/)).toHaveCount(1);
    // Each change once: the guild's own audit log entries of these changes are matched, not listed again.
    await expect(entries(/changed the server: name/)).toHaveCount(1);
    await entries(/changed the server: name/)
      .getByRole("button", { name: /Details/ })
      .click();
    const details = page.getByRole("dialog", { name: /changed the server/ });
    await expect(details.getByRole("region", { name: "What changed" })).toContainText(
      "name “Guildhall HQ” → “Guildhall HQ Renamed”",
    );
    await shot(page, "audit-diff");
    await details.getByRole("button", { name: "Close" }).click();
    await expect(details).toBeHidden();
    await page.getByLabel("Action").selectOption("Kick");
    await expect(history.locator("tbody tr")).toHaveCount(1);
    await expect(history).toContainText("bo_fox");
    const csv = await page.request.get(`${E2E_URL}${base}/audit-history/export?action=Kick`);
    expect(csv.headers()["content-type"]).toContain("text/csv");
    const text = await csv.text();
    expect(text).toMatch(/^time,actor_id,actor_name,action/);
    expect(text).toContain("kicked bo_fox — reason: e2e: kicked");
    await shot(page, "audit-history");
  } finally {
    // Other specs find the guild by its demo name.
    await call("PATCH", `/guilds/${guildId}`, { name: originalName });
  }
});

test("as mod: deleting a role leaves the Roles page standing, without the deleted row (issue 30)", async ({ page }) => {
  const { world, call } = api();
  const guildId = world.guildId;
  const name = `E2E Doomed ${Date.now() % 100_000}`;
  const created = await call<{ id: string }>("POST", `/guilds/${guildId}/roles`, { name });
  expect(created.status).toBe(200);
  const roleId = created.body.id;
  try {
    await signIn(page, "mod", `/guilds/${guildId}/roles`);
    const row = page.locator(`tr[data-role-id="${roleId}"]`);
    await expect(row).toBeVisible();
    await page.getByRole("button", { name: `Delete ${name}` }).click();
    const dialog = page.getByRole("dialog", { name: `Delete ${name}?` });
    await dialog.getByRole("button", { name: "Delete role" }).click();
    await expect(page.getByRole("status").filter({ hasText: `Deleted ${name}` })).toBeVisible();
    await expect(row).toHaveCount(0);
    await expect(page.getByText("could not be loaded")).toHaveCount(0);
    await expect(page.getByRole("table").getByText("Helper", { exact: true })).toBeVisible();
    expect((await call("GET", `/guilds/${guildId}/roles/${roleId}`)).status).toBe(404);
  } finally {
    await call("DELETE", `/guilds/${guildId}/roles/${roleId}`);
  }
});

test("as member: the picker shows no manageable server", async ({ page }) => {
  await signIn(page, "member", "/guilds");
  await expect(page.getByText("No servers to manage")).toBeVisible();
  await expect(page.getByText(/don't have a moderation permission/)).toBeVisible();
  await expect(page.getByRole("list", { name: "Servers you can manage" })).toHaveCount(0);
  await shot(page, "picker-empty");
});

test("as helper (kick only): ban controls are disabled with the reason", async ({ page }) => {
  const { world } = api();
  const base = `/guilds/${world.guildId}`;
  await signIn(page, "helper", `${base}/members`);
  const nav = page.getByRole("navigation", { name: "Server sections" });
  // Bans and Appeals both need it.
  await expect(nav.getByText("needs Ban Members")).toHaveCount(2);
  await expect(nav.getByRole("link", { name: "Bans" })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "Appeals" })).toHaveCount(0);
  await expect(nav.getByText("needs Manage Server").first()).toBeVisible();

  await searchMembers(page, "ada_f");
  await page.getByRole("link", { name: "Open ada_fox" }).click();
  const panel = page.getByRole("dialog", { name: /ada_fox/ });
  await expect(panel.getByRole("button", { name: "Ban", exact: true })).toBeDisabled();
  await expect(panel.getByRole("region", { name: "Remove from server" })).toContainText("needs Ban Members");
  await expect(panel.getByRole("button", { name: "Kick", exact: true })).toBeEnabled();
  await expect(panel.getByRole("button", { name: "Time out" })).toBeDisabled();
  await shot(page, "helper-member-panel");

  // A link clicked while the search's own navigation is still loading (a slow server) wins: the search does not
  // navigate again once the page is left.
  await panel.getByRole("button", { name: "Close" }).click();
  await expect(panel).toBeHidden();
  const isHeldSearch = (url: URL) => url.pathname.endsWith("/members") && url.searchParams.get("q") === "bo_f";
  let releaseHeldSearch = () => {};
  const heldSearchAnswered = new Promise<void>((resolve) => (releaseHeldSearch = resolve));
  await page.route(isHeldSearch, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await route.continue().catch(() => {}); // the router may have dropped the request meanwhile
    releaseHeldSearch();
  });
  const searchStarted = page.waitForRequest((request) => isHeldSearch(new URL(request.url())));
  await page.getByRole("searchbox").fill("bo_f");
  await searchStarted;
  await page.getByRole("link", { name: "All servers" }).first().click();
  await page.waitForURL((url) => url.pathname === "/guilds");
  await heldSearchAnswered;
  await expect(page.getByRole("heading", { name: "Choose a server" })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/guilds");
  await page.unrouteAll({ behavior: "ignoreErrors" });

  // A section the helper cannot use, reached by URL, says why.
  await page.goto(`${base}/settings`);
  await hydrated(page);
  await expect(page.getByText("You can't use Settings in this server")).toBeVisible();
});
