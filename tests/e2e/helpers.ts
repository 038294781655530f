// What the dashboard's browser specs share: the guild API with the demo bot's token (for checking changes), signing in
// through the real OAuth2 flow, waiting for hydration, moving between sections, and screenshots.
import fs from "node:fs";
import { expect, type Browser, type Locator, type Page } from "@playwright/test";
import { E2E_URL } from "../../playwright.config";
import { e2eWorld } from "./world";

export const SHOTS = "test-results/screenshots";

/** The server's database file and the demo secrets kept beside it. */
export function e2eDatabaseFile(): string {
  const [{ file }] = e2eWorld().query<{ file: string }>("SELECT file FROM pragma_database_list WHERE name = 'main'");
  return file;
}

/** The guild API as a client sees it, with the demo application's bot token. */
export function api() {
  const world = e2eWorld();
  const { botToken } = JSON.parse(fs.readFileSync(`${e2eDatabaseFile()}.secrets.json`, "utf8")) as { botToken: string };
  const call = async <T>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: T }> => {
    const response = await fetch(`${E2E_URL}/api/v10${path}`, {
      method,
      headers: {
        authorization: `Bot ${botToken}`,
        ...(body ? { "content-type": "application/json" } : {}),
        ...headers,
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, body: (response.status === 204 ? undefined : await response.json()) as T };
  };
  /** A GET answered with text (CSV and the like). */
  const text = async (path: string) =>
    (await fetch(`${E2E_URL}/api/v10${path}`, { headers: { authorization: `Bot ${botToken}` } })).text();
  return { world, call, text };
}

/** Client components answer input only once hydrated: the guild shell marks <html data-hydrated> when it is. */
export async function hydrated(page: Page): Promise<void> {
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

/** Fills an input, again if a form hydrating late (it streams in) put its server-rendered value back. */
export async function fillHydrated(input: Locator, value: string): Promise<void> {
  await expect(async () => {
    await input.fill(value);
    await expect(input).toHaveValue(value, { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
}

/** Follows a sidebar link and waits for the section's page to be ready. */
export async function openSection(page: Page, label: string): Promise<void> {
  const link = page
    .getByRole("navigation", { name: "Server sections" })
    .getByRole("link", { name: label, exact: true });
  const href = (await link.getAttribute("href"))!;
  await link.click();
  await page.waitForURL((url) => url.pathname === href);
  await hydrated(page);
}

/** Visit a dashboard page signed out, sign in through the provider's page, and land back on it. */
export async function signIn(page: Page, username: string, path: string): Promise<void> {
  await page.goto(path);
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=/);
  await page.getByRole("button", { name: "Sign in with Guildhall" }).click();
  await expect(page).toHaveURL(/\/oauth2\/authorize/);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill("guildhall");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: "Authorize" }).click();
  await page.waitForURL((url) => url.pathname === path.split("?")[0], { timeout: 30_000 });
  await hydrated(page);
}

/** A desktop page signed in as `username` at `path`, kept across a serial spec's tests (close its context after them). */
export async function signedInPage(browser: Browser, username: string, path: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await signIn(page, username, path);
  return page;
}

/** The one unsaved-changes guard's question. */
export const discardPrompt = (page: Page) => page.getByRole("alertdialog", { name: "Discard changes?" });

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}
