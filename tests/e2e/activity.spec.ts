// The sample Activity end to end, through the real, unmodified embedded-app SDK: the host simulator on
// http://localhost:3333 embeds the Activity, answers the SDK's postMessage protocol, runs consent through
// the built-in provider's page, and validates tokens against the built-in API.
import { expect, test, type Page } from "@playwright/test";
import { ACTIVITY_HOST_URL, E2E_URL, MISCONFIGURED_URL } from "../../playwright.config";
import { resolveUrlMapping, type UrlMapping } from "@/lib/discord/url-mappings";
import { e2eWorld } from "./world";

interface HostState {
  phase: string;
  scopes: string[];
  subscriptions: Set<string>;
  trace: Array<{ direction: string; message: [number, Record<string, unknown>] }>;
}

function hostUrl(appUrl: string, world: ReturnType<typeof e2eWorld>, activityOrigin = appUrl): string {
  const url = new URL(ACTIVITY_HOST_URL);
  url.searchParams.set("activity", `${activityOrigin}/activity`);
  url.searchParams.set("provider", appUrl);
  url.searchParams.set("client_id", world.activityApplicationId);
  url.searchParams.set("guild_id", world.guildId);
  url.searchParams.set("channel_id", world.channelId("Lounge"));
  return url.toString();
}

/** Fails the test on the SDK's two silent failure modes: a reply that fails its zod parse, and a bad frame. */
function watchForProtocolBugs(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.text().startsWith("Failed to parse")) problems.push(message.text());
  });
  page.on("pageerror", (error) => {
    if (error.message.includes("Invalid message format")) problems.push(error.message);
  });
  return problems;
}

/** Runs `trigger`, then answers the consent popup it opens (listening first, so a fast popup is not missed). */
async function consent(page: Page, action: "Authorize" | "Cancel", trigger: () => Promise<unknown>, username = "mod") {
  const popupOpened = page.waitForEvent("popup");
  await trigger();
  const popup = await popupOpened;
  await popup.waitForLoadState();
  const password = popup.getByLabel(/password/i);
  if (await password.isVisible().catch(() => false)) {
    await popup.getByLabel(/username/i).fill(username);
    await password.fill("guildhall");
    await popup.getByRole("button", { name: /sign in|log in|continue/i }).click();
  }
  await popup.getByRole("button", { name: action }).click();
  // The popup may already be gone when the click resolves: waiting for a close that has happened never ends.
  if (!popup.isClosed()) await popup.waitForEvent("close");
}

const hostState = (page: Page) =>
  page.evaluate(() => {
    const s = (window as unknown as { __sim: { state: HostState } }).__sim.state;
    return { phase: s.phase, scopes: s.scopes, subscriptions: [...s.subscriptions], trace: s.trace };
  });

test("handshake → ready → consent → /api/token → authenticate → guild, channel and speaking shown", async ({
  page,
}) => {
  const world = e2eWorld();
  const problems = watchForProtocolBugs(page);
  const activity = page.frameLocator("#activity");
  await consent(page, "Authorize", () => page.goto(hostUrl(E2E_URL, world)));
  await expect(activity.getByTestId("activity-phase")).toHaveText("Ready");
  await expect(activity.getByTestId("activity-user")).toHaveText("Mod");
  await expect(activity.getByTestId("activity-guild")).toHaveText("Guildhall HQ");
  await expect(activity.getByTestId("activity-channel")).toHaveText("Lounge");

  let state = await hostState(page);
  const handshake = state.trace.find((t) => t.direction === "←" && t.message[0] === 0)!.message[1];
  // The Activity's own application, not the dashboard's; its code is bound to a PKCE challenge (S256).
  expect(handshake).toMatchObject({ v: 1, client_id: world.activityApplicationId, sdk_version: "2.5.0" });
  expect(world.activityApplicationId).not.toBe(world.applicationId);
  const authorize = state.trace.find((t) => t.message[1]?.cmd === "AUTHORIZE" && t.direction === "←")!.message[1];
  expect((authorize.args as { scope: string[] }).scope).toEqual(["identify", "guilds", "applications.commands"]);
  expect(authorize.args).toMatchObject({
    client_id: world.activityApplicationId,
    code_challenge: expect.stringMatching(/^[\w-]{43}$/) as unknown,
    code_challenge_method: "S256",
  });
  expect(state.phase).toBe("AUTHENTICATED");

  // Without rpc.voice.read the host refuses SPEAKING subscriptions; the Activity says so and offers to fix it.
  await expect(activity.getByTestId("voice-needs-permission")).toBeVisible();
  expect(state.subscriptions).toEqual([]);
  await page.screenshot({ path: "test-results/screenshots/activity-needs-voice.png" });
  await consent(page, "Authorize", () => activity.getByRole("button", { name: "Allow voice activity" }).click());
  await expect(activity.getByTestId("speaking-list")).toContainText("Nobody is speaking");
  state = await hostState(page);
  expect(state.scopes).toContain("rpc.voice.read");
  expect(state.subscriptions.sort()).toEqual(["SPEAKING_START", "SPEAKING_STOP"]);

  const modId = world.userId("mod");
  await page.evaluate(
    (id) => (window as unknown as { __sim: { speak(u: string, w: string): void } }).__sim.speak(id, "start"),
    modId,
  );
  await expect(activity.getByTestId("speaking-user")).toHaveText("Mod (you)");
  await page.screenshot({ path: "test-results/screenshots/activity-speaking.png" });
  await page.evaluate(
    (id) => (window as unknown as { __sim: { speak(u: string, w: string): void } }).__sim.speak(id, "stop"),
    modId,
  );
  await expect(activity.getByTestId("speaking-user")).toHaveCount(0);

  // Console output reached the host as CAPTURE_LOG, and the SDK never choked on a reply.
  expect(problems).toEqual([]);
});

test("an unknown command gets an ERROR event from the host", async ({ page }) => {
  const world = e2eWorld();
  await consent(page, "Cancel", () => page.goto(hostUrl(E2E_URL, world)));
  const frame = page.frame({ url: /\/activity/ })!;
  await frame.evaluate(
    (host) => window.parent.postMessage([1, { cmd: "NOT_A_COMMAND", args: {}, nonce: "unknown-1" }], host),
    ACTIVITY_HOST_URL,
  );
  await expect
    .poll(
      async () =>
        (await hostState(page)).trace.find((t) => t.direction === "→" && t.message[1]?.nonce === "unknown-1")
          ?.message[1],
    )
    .toMatchObject({ evt: "ERROR", data: { code: 4002 } });
});

test("a denied consent leaves the Activity signed out, and signing in again works", async ({ page }) => {
  const world = e2eWorld();
  const activity = page.frameLocator("#activity");
  await consent(page, "Cancel", () => page.goto(hostUrl(E2E_URL, world)));
  await expect(activity.getByTestId("activity-phase")).toHaveText("Signed out");
  await expect(activity.getByTestId("activity-problem")).toContainText("cancelled sign-in");
  await page.screenshot({ path: "test-results/screenshots/activity-signed-out.png" });
  await consent(page, "Authorize", () => activity.getByRole("button", { name: "Sign in with Discord" }).click());
  await expect(activity.getByTestId("activity-guild")).toHaveText("Guildhall HQ");
});

test("a wrong client secret on the Activity's backend gives the user a clear error", async ({ page }) => {
  const world = e2eWorld(Number(new URL(MISCONFIGURED_URL).port));
  const activity = page.frameLocator("#activity");
  await consent(page, "Authorize", () => page.goto(hostUrl(MISCONFIGURED_URL, world)));
  await expect(activity.getByTestId("activity-phase")).toHaveText("Error");
  await expect(activity.getByTestId("activity-problem")).toHaveText(/client credentials were rejected/);
  expect((await hostState(page)).phase).toBe("READY");
});

test("/api/token answers clear errors without leaking the upstream body", async ({ request }) => {
  const missing = await request.post(`${E2E_URL}/api/token`, { data: {} });
  expect(missing.status()).toBe(400);
  expect(await missing.json()).toEqual({ error: "missing_code", message: "The authorization code is missing." });
  const badVerifier = await request.post(`${E2E_URL}/api/token`, { data: { code: "c", code_verifier: "short" } });
  expect(badVerifier.status()).toBe(400);
  expect(await badVerifier.json()).toMatchObject({ error: "invalid_request" });
  const rejected = await request.post(`${E2E_URL}/api/token`, { data: { code: "not-a-real-code" } });
  expect(rejected.status()).toBe(400);
  expect(await rejected.json()).toEqual({
    error: "invalid_code",
    message: "The authorization code was rejected: it is invalid, expired or already used.",
  });
});

test("the client secret never reaches the browser: not in the built client assets nor in the served page", async ({
  request,
}) => {
  const fs = await import("node:fs");
  const path = await import("node:path");
  const os = await import("node:os");
  const { databaseUrl } = JSON.parse(
    fs.readFileSync(path.join(os.tmpdir(), `guildhall-e2e-${new URL(E2E_URL).port}.json`), "utf8"),
  ) as { databaseUrl: string };
  const { clientSecret, botToken, activityClientSecret } = JSON.parse(
    fs.readFileSync(`${databaseUrl.slice("file:".length)}.secrets.json`, "utf8"),
  ) as { clientSecret: string; botToken: string; activityClientSecret: string };
  expect(clientSecret.length).toBeGreaterThan(20);
  expect(activityClientSecret.length).toBeGreaterThan(20);

  const assets: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else assets.push(file);
    }
  };
  walk(path.join(".next", "static"));
  expect(assets.some((file) => file.endsWith(".js"))).toBe(true);
  for (const file of assets) {
    const text = fs.readFileSync(file, "utf8");
    expect(text.includes(clientSecret), file).toBe(false);
    expect(text.includes(activityClientSecret), file).toBe(false);
    expect(text.includes(botToken), file).toBe(false);
    expect(/ACTIVITY_CLIENT_SECRET|GUILDHALL_CLIENT_SECRET|clientSecret/.test(text), file).toBe(false);
  }
  const page = await (await request.get(`${E2E_URL}/activity?frame_id=x&instance_id=y&platform=desktop`)).text();
  expect(page.includes(clientSecret)).toBe(false);
  expect(page.includes(activityClientSecret)).toBe(false);
});

test("behind Discord's proxy: the Activity on <client id>.discordsays.com reaches its server only through the URL mappings", async ({
  page,
}) => {
  const world = e2eWorld();
  const [{ url_mappings: json }] = world.query<{ url_mappings: string }>(
    "SELECT url_mappings FROM applications WHERE id = ?",
    BigInt(world.activityApplicationId),
  );
  const mappings = JSON.parse(json) as UrlMapping[];
  const proxyOrigin = `https://${world.activityApplicationId}.discordsays.com`;
  const proxied: string[] = [];
  // The sandbox: every request of the Activity's origin is resolved through the application's URL mappings.
  await page.route(`${proxyOrigin}/**`, async (route) => {
    const url = new URL(route.request().url());
    const resolved = resolveUrlMapping(mappings, url.pathname + url.search, { scheme: "http" });
    if (!resolved) return route.fulfill({ status: 404, body: "no URL mapping" });
    proxied.push(url.pathname);
    return route.fulfill({ response: await route.fetch({ url: resolved.url }) });
  });
  const activity = page.frameLocator("#activity");
  await consent(page, "Authorize", () => page.goto(hostUrl(E2E_URL, world, proxyOrigin)));
  await expect(activity.getByTestId("activity-guild")).toHaveText("Guildhall HQ");
  expect(proxied).toContain("/.proxy/api/token");
  expect(proxied).toContain("/.proxy/api/v10/users/@me/guilds");
  expect(proxied.some((path) => path.startsWith("/_next/"))).toBe(true);
});
