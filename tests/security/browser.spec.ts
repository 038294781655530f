// The security review's findings that only the whole app shows, in Chromium against the production build
// (Playwright's e2e servers): sign-in never sends a moderator to another site (5), a page on another origin cannot
// frame the consent page or the dashboard but can frame the widget (6), a throttled sign-in says when to try
// again (8), and a cross-origin server action gets 403 (10).
import { expect, test, type Page } from "@playwright/test";
import { E2E_URL } from "../../playwright.config";
import { signIn } from "../e2e/helpers";
import { e2eWorld } from "../e2e/world";

const ATTACKER = "https://attacker.example";

/** Serves `html` as the attacker's page and records any navigation to the attacker's host. */
async function attackerSite(page: Page, html = "<p>attacker</p>"): Promise<() => string[]> {
  const visits: string[] = [];
  await page.route(`${ATTACKER}/**`, (route) => {
    visits.push(route.request().url());
    return route.fulfill({ status: 200, contentType: "text/html", body: html });
  });
  // A predicate, not a glob: "**://evil.example/**" would also match our own URL carrying it in the query.
  await page.route(
    (url) => url.hostname === "evil.example",
    (route) => {
      visits.push(route.request().url());
      return route.fulfill({ status: 200, contentType: "text/plain", body: "evil" });
    },
  );
  return () => visits;
}

test("a signed-in moderator is never sent to another site by sign-in's callbackUrl", async ({ page }) => {
  const visits = await attackerSite(page);
  await signIn(page, "mod", "/guilds");
  for (const callback of [
    "/%5Cevil.example",
    "%5C%5Cevil.example",
    "//evil.example",
    "/%2F/evil.example",
    "/%09/evil.example",
    "%09//evil.example",
    "/..//evil.example",
    "https:evil.example",
    "https://evil.example/",
    `${E2E_URL}@evil.example/`,
    "javascript:alert(1)",
    "/%255Cevil.example",
  ]) {
    await page.goto(`/sign-in?callbackUrl=${callback}`);
    await page.waitForLoadState("load");
    expect(new URL(page.url()).origin, callback).toBe(E2E_URL);
    expect(new URL(page.url()).pathname, callback).toBe("/guilds");
  }
  expect(visits()).toEqual([]);
  // A same-origin path is still followed.
  await page.goto(`/sign-in?callbackUrl=${encodeURIComponent(`/guilds/${e2eWorld().guildId}/settings`)}`);
  await expect(page).toHaveURL(new RegExp(`/guilds/${e2eWorld().guildId}/settings$`));
});

test("pages carry frame-ancestors, nosniff and a Referrer-Policy", async ({ request }) => {
  const world = e2eWorld();
  const headersOf = async (path: string) =>
    (await request.get(path, { maxRedirects: 0 })).headers() as Record<string, string | undefined>;
  for (const path of [
    `/oauth2/authorize?client_id=${world.applicationId}&response_type=code&scope=identify`,
    "/sign-in",
    "/guilds",
    `/guilds/${world.guildId}/settings`,
    "/developers/login",
  ]) {
    const headers = await headersOf(path);
    expect(headers["content-security-policy"], path).toBe("frame-ancestors 'none'");
    expect(headers["x-frame-options"], path).toBe("DENY");
    expect(headers["x-content-type-options"], path).toBe("nosniff");
    expect(headers["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
  }
  expect((await headersOf(`/widget?id=${world.guildId}`))["content-security-policy"]).toBe("frame-ancestors *");
  const activity = await headersOf("/activity?frame_id=x&instance_id=y&platform=desktop");
  expect(activity["content-security-policy"]).toMatch(
    /^frame-ancestors https:\/\/discord\.com .*https:\/\/\*\.discordsays\.com/,
  );
  expect(activity["x-frame-options"]).toBeUndefined();
});

test("another site cannot frame the consent page or the dashboard, but can frame the widget", async ({ page }) => {
  const world = e2eWorld();
  const consent = `${E2E_URL}/oauth2/authorize?client_id=${world.applicationId}&response_type=code&scope=identify`;
  await attackerSite(
    page,
    `<iframe id="consent" src="${consent}"></iframe>
     <iframe id="dashboard" src="${E2E_URL}/sign-in"></iframe>
     <iframe id="widget" src="${E2E_URL}/widget?id=${world.guildId}"></iframe>`,
  );
  await page.goto(`${ATTACKER}/`);
  await page.waitForLoadState("load");
  await expect(page.frameLocator("#widget").locator("body")).not.toBeEmpty();
  // Chromium replaces a refused frame with its own error page: nothing of Guildhall's renders inside.
  await expect(page.frameLocator("#consent").getByLabel("Username")).toHaveCount(0);
  await expect(page.frameLocator("#dashboard").getByRole("button", { name: "Sign in with Guildhall" })).toHaveCount(0);
  // Opened directly, the same pages render.
  await page.goto(consent);
  await expect(page.getByLabel("Username")).toBeVisible();
});

test("after five wrong passwords the sign-in form says when to try again", async ({ page }) => {
  // Each attempt from a fresh form, finished (back with an error in the URL) before the next one starts.
  const attempt = async (password: string) => {
    await page.goto("/developers/login");
    await page.getByLabel("Username").fill("throttle-probe");
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/[?&]error=/);
  };
  const alert = page.locator("form").getByRole("alert");
  for (let n = 1; n <= 5; n++) {
    await attempt(`wrong-${n}`);
    await expect(alert).toHaveText("Wrong username or password.");
  }
  // The sixth waits 1 s, each further one twice as long: on a loaded machine a page round trip can outlast the first
  // waits, so the form must say when to try again within a few more attempts (never before the sixth).
  const throttled = /^Too many attempts\. Try again in \d+ seconds?\.$/;
  let n = 6;
  for (; n <= 10; n++) {
    await attempt(`wrong-${n}`);
    if (throttled.test((await alert.textContent()) ?? "")) break;
    await expect(alert).toHaveText("Wrong username or password.");
  }
  await expect(alert).toHaveText(throttled);
});

test("a server action posted from another site is refused with 403, not 500", async ({ request }) => {
  const world = e2eWorld();
  const page = `/oauth2/authorize?client_id=${world.applicationId}&response_type=code&scope=identify`;
  for (const origin of [ATTACKER, "null", "http://localhost.attacker.example"]) {
    const response = await request.post(page, {
      headers: { origin, "next-action": "0".repeat(40), "content-type": "text/plain;charset=UTF-8" },
      data: "[]",
    });
    expect(response.status(), origin).toBe(403);
    expect((await response.text()).length).toBeLessThan(200);
  }
  // The same request from this site is not refused by the origin check (Next answers for the unknown action).
  const sameSite = await request.post(page, {
    headers: { origin: E2E_URL, "next-action": "0".repeat(40), "content-type": "text/plain;charset=UTF-8" },
    data: "[]",
  });
  expect(sameSite.status()).not.toBe(403);
});
