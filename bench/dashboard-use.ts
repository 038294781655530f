// A moderator using the dashboard in the process a bench measures: Chromium (Debian's) signed in with a dashboard
// session opens the demo guild's overview, the scale guild's members page and the demo guild's members page, and
// stays on the last with its live stream connected (the dashboard's bot follows the demo guild, not the scale one).
// The state users run: Next and React have rendered pages in the process and a live connection is open (issue #31:
// a process that had served one page answered the API at half the rate of a fresh one).
// Playwright drives Chromium from a process of its own (this file, run by openDashboard): in the bench's process its
// async-context store and its messages would slow the load generator, and the figures would blame the server.
import { chromiumPath } from "../tests/e2e/chromium";
import { startProcess, stop } from "./processes";

export interface OpenDashboard {
  /** The pages opened, in order. */
  pages: string[];
  close(): void;
}

export interface DashboardTour {
  /** Milliseconds between clicks on the sidebar's sections, one after another, for as long as the dashboard is open. */
  everyMs: number;
  /** Called with each click's time from the click to the new section's heading. */
  onClick(ms: number): void;
}

const dashboardPages = (guilds: { demo: string; scale: string }) => [
  `/guilds/${guilds.demo}`,
  `/guilds/${guilds.scale}/members`,
  `/guilds/${guilds.demo}/members`,
];

/** Opens the dashboard in Chromium, driven from a child process; resolves once the last page's stream is live. */
export async function openDashboard(
  appUrl: string,
  cookie: string,
  guilds: { demo: string; scale: string },
  tour?: DashboardTour,
): Promise<OpenDashboard> {
  const browser = await startProcess(
    "node_modules/.bin/tsx",
    ["bench/dashboard-use.ts"],
    {
      BENCH_DASHBOARD_URL: appUrl,
      BENCH_DASHBOARD_COOKIE: cookie,
      BENCH_DASHBOARD_GUILDS: JSON.stringify(guilds),
      BENCH_DASHBOARD_TOUR_MS: tour ? String(tour.everyMs) : "",
    },
    /dashboard open (\d+)/,
  );
  if (tour) {
    let pending = "";
    browser.child.stdout!.on("data", (chunk: Buffer) => {
      const lines = (pending + chunk.toString()).split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) if (line.startsWith("click ")) tour.onClick(Number(line.slice("click ".length)));
    });
  }
  return { pages: dashboardPages(guilds), close: () => stop(browser.child) };
}

/** In the child: opens the pages, says so, and keeps Chromium open until the bench stops this process. */
async function holdDashboardOpen(appUrl: string, cookie: string, guilds: { demo: string; scale: string }) {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error("Chromium not found: apt-get install -y chromium, or set CHROMIUM_PATH");
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({
    executablePath,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  process.once("SIGTERM", () => void browser.close().finally(() => process.exit(0)));
  const [name, value] = cookie.split(/=(.*)/s);
  const context = await browser.newContext({ baseURL: appUrl, viewport: { width: 1280, height: 900 } });
  await context.addCookies([{ name, value, url: appUrl }]);
  const page = await context.newPage();
  for (const path of dashboardPages(guilds)) {
    const response = await page.goto(path);
    if (!response?.ok() || new URL(page.url()).pathname !== path)
      throw new Error(`dashboard page ${path} answered ${response?.status()} at ${page.url()}`);
    await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 60_000 });
    if (path.includes(guilds.demo))
      await page.locator('[data-live-state="live"]').first().waitFor({ state: "attached", timeout: 30_000 });
  }
  process.stdout.write(`dashboard open ${process.pid}\n`);
  const tourMs = Number(process.env.BENCH_DASHBOARD_TOUR_MS);
  if (tourMs > 0) await tourSections(page, `/guilds/${guilds.demo}`, tourMs);
}

/** Clicks the guild's sidebar sections one after another, forever, printing each click's time to its heading. */
async function tourSections(page: import("playwright-core").Page, base: string, everyMs: number): Promise<never> {
  const hrefs = await page
    .locator('nav[aria-label="Server sections"] a[href]')
    .evaluateAll((links) => [...new Set(links.map((link) => link.getAttribute("href")!))]);
  const sections = hrefs.filter((href) => href.startsWith(base));
  for (let i = 0; ; i++) {
    const href = sections[i % sections.length];
    const started = performance.now();
    await page.locator(`nav[aria-label="Server sections"] a[href="${href}"]`).first().click();
    await page.waitForURL((url) => url.pathname === href, { timeout: 60_000 });
    await page.locator("main h1").first().waitFor({ timeout: 60_000 });
    process.stdout.write(`click ${(performance.now() - started).toFixed(1)}\n`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

if (process.env.BENCH_DASHBOARD_URL) {
  holdDashboardOpen(
    process.env.BENCH_DASHBOARD_URL,
    process.env.BENCH_DASHBOARD_COOKIE!,
    JSON.parse(process.env.BENCH_DASHBOARD_GUILDS!) as { demo: string; scale: string },
  ).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
