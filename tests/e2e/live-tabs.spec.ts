// Live updates across many tabs, and the live indicator. A browser holds about six connections per origin over
// HTTP/1.1; a stream per tab would leave the seventh tab's requests waiting. Eight tabs of one guild in one browser
// context share one stream (the leader tab's, relayed to the others): a ban made through REST shows in all of them,
// and every tab still navigates. When the leader closes, another tab takes the stream over.
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { api, hydrated, screenshot, signIn } from "./helpers";

test.describe.configure({ mode: "serial" });

const TABS = 8;

/** Counts the context's requests for the guild's live stream. */
function countStreams(context: BrowserContext, guildId: string): () => number {
  let count = 0;
  context.on("request", (request) => {
    if (new URL(request.url()).pathname === `/guilds/${guildId}/live`) count++;
  });
  return () => count;
}

test("eight tabs of one guild share one live stream: a ban shows in every tab, and every tab navigates", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { world, call } = api();
  const guildId = world.guildId;
  // A plain member no other spec bans (moderation.spec takes rank 0, live.spec rank 1).
  const target = world.spareMember(2);
  const context = await browser.newContext();
  try {
    const signInPage = await context.newPage();
    await signIn(signInPage, "owner", `/guilds/${guildId}/bans`);
    await signInPage.close();

    const streams = countStreams(context, guildId);
    const tabs: Page[] = [];
    for (let i = 0; i < TABS; i++) {
      const tab = await context.newPage();
      await tab.goto(`/guilds/${guildId}/bans?q=${target.id}`);
      await hydrated(tab);
      tabs.push(tab);
    }
    const rowIn = (tab: Page) =>
      tab.getByRole("table", { name: "Bans" }).getByRole("row").filter({ hasText: target.username });
    for (const tab of tabs) {
      await expect(rowIn(tab)).toHaveCount(0);
      await expect(tab.locator("[data-live-state=live]")).toHaveText(/Live/);
    }
    expect(streams()).toBe(1);

    const banned = await call("PUT", `/guilds/${guildId}/bans/${target.id}`, {});
    expect(banned.status).toBe(204);
    for (const tab of tabs) await expect(rowIn(tab)).toHaveCount(1, { timeout: 10_000 });

    // Every tab still loads pages: the one stream leaves the browser's connections free.
    for (const tab of [tabs[TABS - 1], tabs[3], tabs[0]]) {
      await tab
        .getByRole("navigation", { name: "Server sections" })
        .first()
        .getByRole("link", { name: "Members" })
        .click();
      await expect(tab.getByRole("heading", { name: "Members", level: 1 })).toBeVisible({ timeout: 15_000 });
      await tab.goBack();
      await expect(rowIn(tab)).toHaveCount(1);
    }

    // The leader (the first tab to open) closes: another tab opens the stream and the rest keep hearing changes.
    await tabs[0].close();
    const unbanned = await call("DELETE", `/guilds/${guildId}/bans/${target.id}`);
    expect(unbanned.status).toBe(204);
    for (const tab of tabs.slice(1)) await expect(rowIn(tab)).toHaveCount(0, { timeout: 10_000 });
    expect(streams()).toBe(2);
  } finally {
    await call("DELETE", `/guilds/${guildId}/bans/${target.id}`);
    await context.close();
  }
});

test("a guild the dashboard's gateway connection does not follow says live updates are off, and what to do", async ({
  page,
}) => {
  const { world } = api();
  const guildId = world.guildId;
  await signIn(page, "mod", `/guilds/${guildId}/bans`);
  await expect(page.locator("[data-live-state=live]")).toHaveText(/Live/);
  await screenshot(page, "live-indicator-live");

  // The demo world's one guild has the bot in it, so the stream is answered here as the server answers it for a
  // guild its connection does not follow (the hub's state, tested in tests/integration/dashboard/live.test.ts).
  await page.route(`**/guilds/${guildId}/live`, (route) =>
    route.fulfill({
      status: 200,
      headers: { "content-type": "text/event-stream", "cache-control": "no-store" },
      body: `event: state\ndata: {"state":"not-followed"}\n\n`,
    }),
  );
  await page.reload();
  await hydrated(page);
  const note = page.locator("[data-live-state=not-followed]");
  await expect(note).toContainText("Live updates are off: the bot is not in this server.");
  await expect(note).toContainText("Add the dashboard's bot to this server");
  await screenshot(page, "live-indicator-not-followed");

  // No gateway connection at all (DASHBOARD_LIVE=off): the server answers the stream 204.
  await page.unroute(`**/guilds/${guildId}/live`);
  await page.route(`**/guilds/${guildId}/live`, (route) => route.fulfill({ status: 204 }));
  await page.reload();
  await hydrated(page);
  await expect(page.locator("[data-live-state=off]")).toContainText("Live updates are off.");
});
