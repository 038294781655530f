// The dashboard as a moderator lives in it (issue 17): every page at phone width without sideways scrolling and
// free of serious accessibility violations in both themes (axe-core), edits that are never lost without a question,
// a ban done with the keyboard alone, real 404s, and the icons. One page visit per page, several checks each.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { api, fillHydrated, hydrated, screenshot, signIn } from "./helpers";

const shot = (page: Page, name: string) => screenshot(page, `experience-${name}`);

test.describe.configure({ mode: "serial" });

let page: Page;
let world: ReturnType<typeof api>["world"];
let base: string;

test.beforeAll(async ({ browser }) => {
  world = api().world;
  base = `/guilds/${world.guildId}`;
  // axe-core's builder needs a page of an explicit context.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  await signIn(page, "owner", `${base}/settings`);
});

test.afterAll(async () => {
  await page.context().close();
});

/** Serious and critical axe violations, one line each (rule, impact, first targets). */
async function seriousViolations(label: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${label}: ${v.id} (${v.impact}) at ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(" "))
          .join(", ")}`,
    );
}

async function setTheme(theme: "light" | "dark"): Promise<void> {
  await page.evaluate((dark) => document.documentElement.classList.toggle("dark", dark), theme === "dark");
}

/** The page is no wider than the viewport: nothing scrolls sideways. */
async function sidewaysOverflow(): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

const SECTIONS = [
  "",
  "/settings",
  "/channels",
  "/roles",
  "/members",
  "/bans",
  "/prune",
  "/widget",
  "/welcome-screen",
  "/onboarding",
  "/invites",
  "/integrations",
  "/safety",
  "/automod",
  "/audit-history",
];

test("every page: no serious or critical axe violation in light and dark, no sideways scrolling at 390 × 844", async () => {
  // Two axe passes on each of 16 pages: about 4 minutes on 2 cores.
  test.setTimeout(420_000);
  const problems: string[] = [];
  for (const section of SECTIONS) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${base}${section}`);
    await hydrated(page);
    await expect(page.locator("main h1")).toBeVisible();
    await expect(page.locator('main [aria-busy="true"]')).toHaveCount(0, { timeout: 20_000 });
    await expect(page).toHaveTitle(/ · Guildhall HQ · Guildhall$/);
    await setTheme("light");
    problems.push(...(await seriousViolations(`${section || "/"} light`)));
    await setTheme("dark");
    problems.push(...(await seriousViolations(`${section || "/"} dark`)));
    await setTheme("light");
    await page.setViewportSize({ width: 390, height: 844 });
    const overflow = await sidewaysOverflow();
    if (overflow > 0) problems.push(`${section || "/"}: ${overflow}px of sideways scrolling at 390 px`);
    await shot(page, `phone${section.replace("/", "-") || "-overview"}`);
  }
  expect(problems).toEqual([]);
});

test("the overview: counts, the growth chart, what needs attention, recent moderation, a link to every section", async () => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(base);
  await hydrated(page);
  await expect(page).toHaveTitle("Overview · Guildhall HQ · Guildhall");
  const stats = page.getByTestId("overview-stats");
  await expect(stats.getByText("Members", { exact: true })).toBeVisible();
  await expect(stats).toContainText(/Online now/);
  await expect(page.getByRole("figure", { name: /joined and members removed/ })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Needs attention" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Recent moderation" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Sections" }).getByRole("link")).toHaveCount(20);
  await shot(page, "overview");

  // On a phone too, every date under the chart is inside the drawing: the last one was clipped (issue 30).
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page
    .getByRole("figure", { name: /joined and members removed/ })
    .locator("svg")
    .evaluateAll((svgs) =>
      svgs
        .filter((svg) => svg.getClientRects().length > 0)
        .flatMap((svg) => {
          const right = svg.getBoundingClientRect().right;
          return [...svg.querySelectorAll(".visx-axis-bottom text")].map(
            (t) => t.getBoundingClientRect().right - right,
          );
        }),
    );
  expect(overflow.length).toBeGreaterThan(0);
  expect(Math.max(...overflow)).toBeLessThanOrEqual(0);
  await shot(page, "overview-phone");
  await page.setViewportSize({ width: 1280, height: 900 });
});

test("Settings: leaving with unsaved edits asks first (a sidebar link, the back button), Keep editing keeps them", async () => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${base}/channels`);
  await page.goto(`${base}/settings`);
  await hydrated(page);
  const name = page.getByLabel("Server name");
  await fillHydrated(name, "Guildhall HQ (draft)");
  const bar = page.getByRole("region", { name: "Unsaved changes" });
  await expect(bar).toContainText("Careful — you have unsaved changes!");
  await expect(bar).toContainText("Server name");

  // A sidebar link: the prompt, then Keep editing leaves everything as it was.
  await page.getByRole("navigation", { name: "Server sections" }).getByRole("link", { name: "Roles" }).click();
  const prompt = page.getByRole("alertdialog", { name: "Discard changes?" });
  await expect(prompt).toBeVisible();
  await shot(page, "discard-prompt");
  await prompt.getByRole("button", { name: "Keep editing" }).click();
  await expect(prompt).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`${base}/settings$`));
  await expect(name).toHaveValue("Guildhall HQ (draft)");

  // The back button: the same question.
  await page.goBack();
  await expect(prompt).toBeVisible();
  await prompt.getByRole("button", { name: "Keep editing" }).click();
  await expect(page).toHaveURL(new RegExp(`${base}/settings$`));
  await expect(name).toHaveValue("Guildhall HQ (draft)");

  // Discard: the link is followed, and nothing was saved.
  await page.getByRole("navigation", { name: "Server sections" }).getByRole("link", { name: "Widget" }).click();
  await prompt.getByRole("button", { name: "Discard changes" }).click();
  await expect(page).toHaveURL(new RegExp(`${base}/widget$`));
  expect((await api().call<{ name: string }>("GET", `/guilds/${world.guildId}`)).body.name).toBe("Guildhall HQ");
});

/** Presses Tab until the element has the focus (keyboard only: no clicks). */
async function tabTo(target: Locator, max = 80): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

test("a ban with the keyboard alone: search, open the member, Ban, reason, confirm", async () => {
  const [{ username, id }] = world.query<{ username: string; id: bigint }>(
    `SELECT u.username, u.id FROM members m JOIN users u ON u.id = m.user_id
     WHERE m.guild_id = ? AND u.username LIKE '%ram' AND u.bot = 0
       AND NOT EXISTS (SELECT 1 FROM member_roles r WHERE r.guild_id = m.guild_id AND r.user_id = m.user_id)
     ORDER BY u.id LIMIT 1`,
    BigInt(world.guildId),
  );
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${base}/members`);
  await hydrated(page);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const search = page.getByRole("searchbox");
  await tabTo(search);
  await page.keyboard.type(username);
  await expect(page).toHaveURL(new RegExp(`[?&]q=${username}`));
  const open = page.getByRole("link", { name: `Open ${username}` });
  await expect(open).toBeVisible();
  await tabTo(open);
  await page.keyboard.press("Enter");
  const panel = page.getByRole("dialog", { name: new RegExp(username) });
  await expect(panel).toBeVisible();
  await tabTo(panel.getByRole("button", { name: "Ban", exact: true }));
  await page.keyboard.press("Enter");
  const form = panel.getByRole("form", { name: "Confirm ban" });
  await expect(form.getByRole("textbox")).toBeFocused();
  await page.keyboard.type("e2e keyboard-only ban");
  await page.keyboard.press("Enter");
  await expect
    .poll(async () => (await api().call("GET", `/guilds/${world.guildId}/bans/${id}`)).status, { timeout: 15_000 })
    .toBe(200);
  await shot(page, "keyboard-ban");
});

test("a dialog closed with Escape gives the focus back to the button that opened it", async () => {
  await page.goto(`${base}/integrations`);
  await hydrated(page);
  const opener = page.getByRole("button", { name: /^Delete / }).first();
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await tabTo(opener);
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();
});

test("an unknown guild and an unknown section answer a real 404 page; favicon and app icons are served", async () => {
  const unknownGuild = await page.goto("/guilds/123456789012345678/settings");
  expect(unknownGuild?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Server not found" })).toBeVisible();

  const unknownSection = await page.goto(`${base}/no-such-section`);
  expect(unknownSection?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Server sections" }).first()).toBeAttached();

  for (const path of ["/favicon.ico", "/icon.svg", "/apple-icon.png"]) {
    const response = await page.request.get(path);
    expect(response.status(), path).toBe(200);
  }
  await page.goto(`${base}/settings`);
  await expect(page.locator('link[rel="icon"]').first()).toBeAttached();
  // By the hashed URLs the pages link, the same bytes, cached for a year: a live refresh re-renders the head, and
  // with Next's "max-age=0" the browser fetched each icon again every time.
  const linked = await page
    .locator('link[rel="icon"], link[rel="apple-touch-icon"]')
    .evaluateAll((links) => links.map((link) => link.getAttribute("href")!));
  expect(linked).toHaveLength(3);
  for (const href of linked) {
    const [hashed, plain] = [await page.request.get(href), await page.request.get(href.split("?")[0])];
    expect(hashed.status(), href).toBe(200);
    expect(hashed.headers()["cache-control"], href).toBe("public, max-age=31536000, immutable");
    expect(hashed.headers()["content-type"], href).toBe(plain.headers()["content-type"]);
    expect(Buffer.compare(await hashed.body(), await plain.body()), href).toBe(0);
  }
});
