// Moderators read Discord's own words, never the API's: every dashboard page of the demo guild, the guild picker,
// a bulk-ban job, the consent page, the Developer Portal, the embeddable widget and the invite page are walked in
// both themes and at both widths, and their visible text must hold no UPPER_SNAKE_CASE word (a feature flag, a
// member flag, a mode's wire name) and no API operation name (the policy table's keys: "Bulk Guild Ban").
// Code shown to developers is exempt: <code>, <pre>, <kbd> and anything marked data-developer-sample.
//
// One page load per page per theme: the theme is the `dark` class on <html> (app/layout.tsx) and changes colours
// only, and the layouts respond to width in CSS alone, so resizing a loaded page shows what loading it at that width
// shows. The light pass loads each page at desktop width and reads it again at phone width; the dark pass loads it
// at phone width and reads it again at desktop width. Every (theme, width) is read, and each width is loaded once.
import type { BrowserContext, Page } from "@playwright/test";
import { expect, test } from "@playwright/test";
import { DASHBOARD_SECTIONS } from "@/lib/dashboard/sections";
import { GUILD_FEATURES } from "@/lib/discord/limits";
import { POLICIES } from "@/lib/discord/policies";
import { E2E_URL } from "../../playwright.config";
import { hydrated, signIn } from "./helpers";
import { e2eWorld } from "./world";
import { botMode } from "./mode";

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

const UPPER_SNAKE = /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/g;
/** Discord's operation names: the policy table's, and the ones it lacks because the API never implemented them. */
const OPERATION_NAMES = [...Object.keys(POLICIES), "Modify Guild MFA Level"].sort((a, b) => b.length - a.length);
const OPERATION = new RegExp(
  `\\b(${OPERATION_NAMES.map((name) => name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("|")})\\b`,
  "g",
);
/**
 * API words the pattern above misses: guild features of one word (BANNER, DISCOVERABLE), the widget's wire file
 * names and its image style parameter.
 */
const API_WORDS = new RegExp(
  `\\b(${GUILD_FEATURES.filter((feature) => !feature.includes("_")).join("|")})\\b|\\bwidget\\.(json|png)\\b|\\bstyle=[a-z0-9]+\\b`,
  "g",
);

interface Finding {
  page: string;
  view: string;
  word: string;
  line: string;
}

/**
 * What a person sees: the body's rendered text, without developer samples, plus the options of closed selects and
 * the placeholders of empty fields. Words are read as written: CSS capitals (a channel category, "COMMUNITY") are
 * a look, not an API word.
 */
async function visibleText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const style = document.createElement("style");
    style.textContent =
      "code, pre, kbd, [data-developer-sample] { display: none !important; } * { text-transform: none !important; }";
    document.head.append(style);
    try {
      const options = [...document.querySelectorAll("select")]
        .filter((select) => select.checkVisibility() && !select.closest("[data-developer-sample]"))
        .flatMap((select) => [...select.options].map((option) => option.text));
      const placeholders = [...document.querySelectorAll<HTMLInputElement>("input[placeholder], textarea[placeholder]")]
        .filter((input) => input.checkVisibility() && !input.closest("[data-developer-sample]"))
        .map((input) => input.placeholder);
      return [document.body.innerText, ...options, ...placeholders].join("\n");
    } finally {
      style.remove();
    }
  });
}

/** Waits until streamed sections have arrived: the text stops changing. */
async function settled(page: Page): Promise<void> {
  let previous = "";
  for (let i = 0; i < 20; i++) {
    const text = await page.evaluate(() => document.body.innerText);
    if (text === previous && !(await page.locator("[aria-busy=true]").count())) return;
    previous = text;
    await page.waitForTimeout(250);
  }
}

function check(text: string, where: string, view: string, findings: Finding[]): void {
  for (const line of text.split("\n")) {
    for (const pattern of [UPPER_SNAKE, OPERATION, API_WORDS])
      for (const match of line.matchAll(pattern))
        findings.push({ page: where, view, word: match[0], line: line.trim().slice(0, 160) });
  }
}

/** A page walked. */
interface Stop {
  path: string;
  /** Dashboard pages mark <html data-hydrated> once their client components answer. */
  dashboard: boolean;
}

async function readPage(
  page: Page,
  stop: Stop,
  theme: "light" | "dark",
  widths: [typeof DESKTOP, typeof PHONE] | [typeof PHONE, typeof DESKTOP],
  findings: Finding[],
): Promise<void> {
  await page.setViewportSize(widths[0]);
  const response = await page.goto(stop.path);
  expect(response?.status(), stop.path).toBeLessThan(400);
  if (stop.dashboard) await hydrated(page);
  await settled(page);
  expect(await page.evaluate(() => document.documentElement.classList.contains("dark")), `${stop.path} theme`).toBe(
    theme === "dark",
  );
  for (const [i, size] of widths.entries()) {
    if (i > 0) {
      await page.setViewportSize(size);
      await settled(page);
    }
    check(await visibleText(page), stop.path, `${theme} ${size.width}px`, findings);
  }
}

async function walk(context: BrowserContext, stops: Stop[], theme: "light" | "dark", findings: Finding[]) {
  const page = await context.newPage();
  const widths: [typeof DESKTOP, typeof PHONE] | [typeof PHONE, typeof DESKTOP] =
    theme === "light" ? [DESKTOP, PHONE] : [PHONE, DESKTOP];
  for (const stop of stops) await readPage(page, stop, theme, widths, findings);
  await page.close();
}

test("no API words in what moderators and developers read, in both themes and at both widths", async ({ browser }) => {
  test.setTimeout(300_000);
  const world = e2eWorld();
  const guild = `/guilds/${world.guildId}`;
  // A usable invite: other tests leave expired and used-up ones behind, whose page answers 410.
  const invite = world.query<{ code: string }>(
    `SELECT code FROM invites WHERE guild_id = ? AND (expires_at IS NULL OR expires_at > ?)
       AND (max_uses = 0 OR uses < max_uses) ORDER BY code LIMIT 1`,
    BigInt(world.guildId),
    BigInt(Date.now() + 600_000),
  )[0];
  const findings: Finding[] = [];

  // Signed out: the sign-in page.
  const light = await browser.newContext({ viewport: DESKTOP, colorScheme: "light" });
  const first = await light.newPage();
  await readPage(first, { path: "/sign-in", dashboard: false }, "light", [DESKTOP, PHONE], findings);

  // Signed in as the owner (every section, and the demo application's owner in the Developer Portal).
  await signIn(first, "owner", guild);

  // A bulk-ban job to read: prepared (never started) from ids the job skips or refuses, one token not an id.
  await first.goto(`${guild}/bans/bulk`);
  await hydrated(first);
  await first.getByLabel("User ids").fill(`${world.userId("owner")}, not-an-id`);
  await first.getByRole("button", { name: "Preview" }).click();
  await first.waitForURL(/\/bans\/bulk\/[a-z0-9]+$/, { timeout: 60_000 });
  const job = new URL(first.url()).pathname;
  await first.close();

  const stops: Stop[] = [
    { path: "/guilds", dashboard: false },
    { path: guild, dashboard: true },
    ...DASHBOARD_SECTIONS.map(({ slug }) => ({ path: `${guild}/${slug}`, dashboard: true })),
    { path: `${guild}/members?member=${world.userId("member")}`, dashboard: true },
    { path: `${guild}/channels/${world.channelId("general")}`, dashboard: true },
    { path: `${guild}/bans/bulk`, dashboard: true },
    { path: job, dashboard: true },
    {
      path: `/oauth2/authorize?${new URLSearchParams({
        client_id: world.applicationId,
        response_type: "code",
        scope: botMode ? "identify guilds" : "identify guilds guildhall.manage",
        redirect_uri: `${E2E_URL}/api/auth/callback/guildhall`,
        prompt: "consent",
      })}`,
      dashboard: false,
    },
    { path: "/developers", dashboard: false },
    { path: "/developers/applications", dashboard: false },
    { path: `/developers/applications/${world.applicationId}`, dashboard: false },
    { path: `/widget?id=${world.guildId}`, dashboard: false },
    ...(invite ? [{ path: `/invite/${invite.code}`, dashboard: false }] : []),
  ];

  const started = Date.now();
  await walk(light, stops, "light", findings);
  const state = await light.storageState();
  await light.close();
  const dark = await browser.newContext({ viewport: PHONE, colorScheme: "dark", storageState: state });
  await walk(dark, stops, "dark", findings);
  await dark.close();
  console.log(`words: ${stops.length + 1} pages, 4 views each, read in ${Math.round((Date.now() - started) / 1000)} s`);

  // One line per word and page, with the views it showed in.
  const grouped = new Map<string, { views: string[]; line: string }>();
  for (const f of findings) {
    const key = `${f.page} — ${f.word}`;
    const entry = grouped.get(key) ?? { views: [], line: f.line };
    if (!entry.views.includes(f.view)) entry.views.push(f.view);
    grouped.set(key, entry);
  }
  const report = [...grouped].map(([key, { views, line }]) => `${key} (${views.join(", ")}): “${line}”`);
  expect(report, report.join("\n")).toEqual([]);
});
