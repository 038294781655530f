// npm run bench:navigation [-- --members N] [-- --rounds R] [-- --samples S] [-- --no-build]
// How fast a moderator moves around the dashboard, on the scale guild (default 1,000,000 members; the database is
// seeded once under .data/ and reused, as `npm run bench` does). Chromium (Debian's) signs in as the scale guild's
// owner and clicks every section of the sidebar, R rounds (default 3), measuring in the page from the click to the
// section's content (its heading is the new page's and no skeleton or busy region is left in <main>). It counts the
// prefetch requests the router sends while each page is shown. Then, over plain HTTP in the same run, the members
// page's time to first byte against Next's floor for a dynamic page that does nothing (/dynamic-floor), alternating:
// once with the dashboard still open in Chromium (as before), once with Chromium closed (the goal's figure: the
// browser's processes and the open page's live stream are no part of what the page costs).
// Goals (issue 17): click to content median ≤ 150 ms and p95 ≤ 300 ms; ≤ 5 prefetch requests per page view;
// members page TTFB ≤ 1.5 × the floor. Figures are measured, never asserted; written to bench/results/.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { chromium } from "playwright-core";
import { chromiumPath } from "../tests/e2e/chromium";
import { stop } from "./processes";
import { argValue, fmt, hasFlag, prepareBench, startGuildhall, openBenchDatabase } from "./setup";

const members = Number(argValue("--members") ?? 1_000_000);
const rounds = Number(argValue("--rounds") ?? 3);
const samples = Number(argValue("--samples") ?? 100);

const benchDb = openBenchDatabase(members);

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const at = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[at];
}

/** Milliseconds from sending a GET to the first byte of its body. */
function timeToFirstByte(url: string, cookie?: string): Promise<{ ms: number; status: number }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const request = http.get(url, { headers: cookie ? { cookie } : {} }, (response) => {
      response.once("data", () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        response.resume();
        response.once("end", () => resolve({ ms, status: response.statusCode ?? 0 }));
      });
      response.once("error", reject);
    });
    request.once("error", reject);
  });
}

interface SectionVisit {
  href: string;
  round: number;
  ms: number;
  prefetches: number;
}

/** Runs in the page: clicks the sidebar link and resolves with the time until the new section's content is shown. */
function clickToContent(href: string): Promise<number> {
  const ready = (previousTitle: string | null | undefined) => {
    if (window.location.pathname !== href) return false;
    const main = document.querySelector("main");
    const title = main?.querySelector("h1")?.textContent;
    if (!main || !title || title === previousTitle) return false;
    return !main.querySelector('[aria-busy="true"], .animate-pulse');
  };
  const link = document.querySelector<HTMLAnchorElement>(`nav[aria-label="Server sections"] a[href="${href}"]`);
  if (!link) return Promise.reject(new Error(`no sidebar link to ${href}`));
  const previousTitle = document.querySelector("main h1")?.textContent;
  const started = performance.now();
  link.click();
  return new Promise((resolve, reject) => {
    const timeout = setTimeout(() => {
      observer.disconnect();
      reject(new Error(`${href}: no content after 20 s`));
    }, 20_000);
    const check = () => {
      if (!ready(previousTitle)) return;
      clearTimeout(timeout);
      observer.disconnect();
      resolve(performance.now() - started);
    };
    const observer = new MutationObserver(check);
    observer.observe(document.documentElement, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
    check();
  });
}

async function main(): Promise<void> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error("Chromium not found: apt-get install -y chromium, or set CHROMIUM_PATH");
  // --no-build: measure the build that is there (while sources are being edited).
  await prepareBench(benchDb, members, !hasFlag("--no-build"));
  // Throughput and speed, not Discord's per-token limits (bench/abuse measures those).
  const app = await startGuildhall("127.0.0.1", { RATE_LIMITS: "off" });
  const appUrl = app.url;
  const browser = await chromium.launch({
    executablePath,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  try {
    const ctx = await (await import("./context")).createBenchContext(appUrl);
    const cookie = await ownerCookie(ctx.scaleGuildId);
    const [cookieName, cookieValue] = cookie.split("=");
    const base = `/guilds/${ctx.scaleGuildId}`;

    const context = await browser.newContext({ baseURL: appUrl, viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name: cookieName, value: cookieValue, url: appUrl }]);
    // tsx compiles with keepNames: functions sent to the page call its __name helper, which the page lacks.
    await context.addInitScript("window.__name = (fn) => fn");
    const page = await context.newPage();
    let prefetches = 0;
    page.on("request", (request) => {
      if (request.headers()["next-router-prefetch"]) prefetches++;
    });
    await page.goto(`${base}/settings`);
    await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 60_000 });
    const hrefs = await page
      .locator('nav[aria-label="Server sections"] a[href]')
      .evaluateAll((links) => [...new Set(links.map((link) => link.getAttribute("href")!))]);
    // Start from a page outside the cycle so the first click of every round is a real navigation.
    const cycle = hrefs.filter((href) => href !== `${base}/settings`).concat(`${base}/settings`);
    console.log(`Sections: ${cycle.length}; ${rounds} rounds.`);

    const visits: SectionVisit[] = [];
    for (let round = 1; round <= rounds; round++) {
      for (const href of cycle) {
        prefetches = 0;
        const ms = await page.evaluate(clickToContent, href);
        // Let the router's idle-time prefetches of the page just shown go out before counting them.
        await page.waitForTimeout(600);
        visits.push({ href, round, ms, prefetches });
      }
    }

    // Time to first byte: the members page against the floor, alternating, after a warm-up of each. Twice: first
    // with the dashboard still open in Chromium (its live stream connected, as the clicks left it), then with
    // Chromium closed: the goal's figure, as it holds nothing but the two pages (Chromium's processes share the
    // machine's cores with the server and with this client). Repeated open/closed pairs against one server showed
    // no consistent difference: the machine's other load moved both figures more.
    const membersUrl = `${appUrl}${base}/members`;
    const floorUrl = `${appUrl}/dynamic-floor`;
    const pageOpen = await compareTtfb(membersUrl, floorUrl, cookie);
    await browser.close();
    // Let the closed live stream and anything the page left in flight finish.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const browserClosed = await compareTtfb(membersUrl, floorUrl, cookie);
    const all = visits.map((v) => v.ms);
    const first = visits.filter((v) => v.round === 1).map((v) => v.ms);
    const perSection = cycle.map((href) => {
      const mine = visits.filter((v) => v.href === href);
      return {
        section: href.slice(base.length) || "/",
        median: percentile(
          mine.map((v) => v.ms),
          50,
        ),
        first: mine[0].ms,
        prefetches: Math.max(...mine.map((v) => v.prefetches)),
      };
    });
    const summary = {
      members,
      rounds,
      clickToContent: {
        median: percentile(all, 50),
        p95: percentile(all, 95),
        firstRoundMedian: percentile(first, 50),
      },
      prefetchesPerView: {
        max: Math.max(...visits.map((v) => v.prefetches)),
        mean: mean(visits.map((v) => v.prefetches)),
      },
      ttfb: { ...browserClosed, pageOpen },
      perSection,
    };

    console.log("\nsection                  median ms  first ms  prefetches/view");
    for (const s of perSection)
      console.log(
        `${s.section.padEnd(24)} ${fmt(s.median, 1).padStart(9)} ${fmt(s.first, 1).padStart(9)} ${String(s.prefetches).padStart(16)}`,
      );
    console.log(
      `\nclick to content: median ${fmt(summary.clickToContent.median, 1)} ms (goal ≤ 150), p95 ${fmt(summary.clickToContent.p95, 1)} ms (goal ≤ 300); first round median ${fmt(summary.clickToContent.firstRoundMedian, 1)} ms`,
    );
    console.log(
      `prefetch requests per page view: max ${summary.prefetchesPerView.max}, mean ${fmt(summary.prefetchesPerView.mean, 1)} (goal ≤ 5)`,
    );
    console.log(
      `members page TTFB, dashboard page still open in Chromium: median ${fmt(pageOpen.membersMedian, 1)} ms; dynamic floor ${fmt(pageOpen.floorMedian, 1)} ms; ratio ${fmt(pageOpen.ratio, 2)}×`,
    );
    console.log(
      `members page TTFB, Chromium closed: median ${fmt(browserClosed.membersMedian, 1)} ms; dynamic floor ${fmt(browserClosed.floorMedian, 1)} ms; ratio ${fmt(browserClosed.ratio, 2)}× (goal ≤ 1.5×)`,
    );
    fs.mkdirSync("bench/results", { recursive: true });
    fs.writeFileSync(
      path.join("bench/results", `navigation-${new Date().toISOString().replace(/[:.]/g, "-")}.json`),
      JSON.stringify(summary, null, 2),
    );
  } finally {
    await browser.close();
    stop(app.child);
  }
}

/** A dashboard session for the scale guild's owner whose token may manage the guild (guildhall.manage), as sign-in grants. */
async function ownerCookie(guildId: string): Promise<string> {
  const { readDemoSecrets } = await import("@/lib/seed/demo-secrets");
  const { issueAccessToken } = await import("@/lib/guild-api/services/access-tokens");
  const { db } = await import("@/lib/guild-api/store/db");
  const { prisma } = await import("@/lib/dashboard/db");
  const { createDashboardSession } = await import("@/lib/dashboard/auth/test-session");
  const { owner_id } = db().prepare("SELECT owner_id FROM guilds WHERE id = ?").get(BigInt(guildId)) as {
    owner_id: bigint;
  };
  const token = (
    await issueAccessToken(BigInt(readDemoSecrets()!.applicationId), owner_id, [
      "identify",
      "guilds",
      "guildhall.manage",
    ])
  ).access_token;
  const session = await createDashboardSession(prisma, {
    userId: String(owner_id),
    name: "Bench Owner",
    accessToken: token,
  });
  return session.cookie;
}

/** The members page's time to first byte against the floor's: `samples` of each, alternating, after a warm-up. */
async function compareTtfb(membersUrl: string, floorUrl: string, cookie: string) {
  for (let i = 0; i < 5; i++) {
    await timeToFirstByte(membersUrl, cookie);
    await timeToFirstByte(floorUrl);
  }
  const membersTtfb: number[] = [];
  const floorTtfb: number[] = [];
  for (let i = 0; i < samples; i++) {
    const m = await timeToFirstByte(membersUrl, cookie);
    if (m.status !== 200) throw new Error(`members page answered ${m.status}`);
    membersTtfb.push(m.ms);
    floorTtfb.push((await timeToFirstByte(floorUrl)).ms);
  }
  const membersMedian = percentile(membersTtfb, 50);
  const floorMedian = percentile(floorTtfb, 50);
  return { membersMedian, floorMedian, ratio: membersMedian / floorMedian };
}

function mean(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
