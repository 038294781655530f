// The built-in provider's sign-in and consent page, in the browser: sign-in, every scope in words, Authorize and
// Cancel back at the registered redirect URI (captured, not followed), refusals that never redirect, invalid_scope
// told to a valid redirect URI, prompt=none after a real code exchange, and a server install.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { E2E_PORT, E2E_URL } from "../../playwright.config";
import { botMode } from "./mode";
import { e2eWorld } from "./world";

const REDIRECT = `${E2E_URL}/api/auth/callback/guildhall`;

function authorizeUrl(params: Record<string, string>): string {
  const world = e2eWorld();
  const url = new URL("/oauth2/authorize", E2E_URL);
  url.search = new URLSearchParams({
    client_id: world.applicationId,
    response_type: "code",
    // What the dashboard's own sign-in asks the built-in provider for (in bot mode, on Discord's terms, no
    // management scope: the provider does not know it there).
    scope: botMode ? "identify guilds" : "identify guilds guildhall.manage",
    ...params,
  }).toString();
  return url.toString();
}

/** The demo client secret, which the e2e server's seed wrote beside its database. */
function clientSecret(): string {
  const { databaseUrl } = JSON.parse(
    fs.readFileSync(path.join(os.tmpdir(), `guildhall-e2e-${E2E_PORT}.json`), "utf8"),
  ) as { databaseUrl: string };
  return (
    JSON.parse(fs.readFileSync(`${databaseUrl.slice("file:".length)}.secrets.json`, "utf8")) as { clientSecret: string }
  ).clientSecret;
}

/**
 * The redirect target is the dashboard's callback: capture the navigation there instead of completing it. A server
 * redirect on a GET (Location header) is followed by the browser without calling route handlers again, so those
 * are seen on the request event (and completed by the real callback, which refuses the unknown state).
 */
async function captureRedirects(page: Page): Promise<() => URL | null> {
  let landed: URL | null = null;
  page.on("request", (request) => {
    if (request.isNavigationRequest() && request.url().startsWith(REDIRECT)) landed = new URL(request.url());
  });
  await page.route(`${REDIRECT}**`, (route) => {
    landed = new URL(route.request().url());
    return route.fulfill({ status: 200, contentType: "text/plain", body: "captured" });
  });
  return () => landed;
}

async function signIn(page: Page, username: string) {
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill("guildhall");
  await page.getByRole("button", { name: "Sign in" }).click();
}

test("sign in, see every requested scope, authorize: back at the redirect URI with code and state", async ({
  page,
}) => {
  const landed = await captureRedirects(page);
  await page.goto(authorizeUrl({ redirect_uri: REDIRECT, state: "xyz-123" }));
  await expect(page.getByRole("heading", { name: "Guildhall Demo" })).toBeVisible();
  await page.getByLabel("Username").fill("mod");
  await page.getByLabel("Password").fill("wrong");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Wrong username or password.")).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/oauth2-sign-in.png", fullPage: true });
  await signIn(page, "mod");

  await expect(page.getByText("Signed in as")).toContainText("@mod");
  const scopes = page.getByRole("region", { name: /This will allow Guildhall Demo to/ }).getByRole("listitem");
  await expect(scopes).toHaveText([
    /Access your username, avatar and banner\s*identify/,
    /Know what servers you're in\s*guilds/,
    ...(botMode ? [] : [/Manage your servers with your permissions\s*guildhall\.manage/]),
  ]);
  await page.screenshot({ path: "test-results/screenshots/oauth2-consent.png", fullPage: true });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.reload();
  await page.screenshot({ path: "test-results/screenshots/oauth2-consent-dark.png", fullPage: true });

  await page.getByRole("button", { name: "Authorize" }).click();
  await expect.poll(() => landed()?.searchParams.get("state")).toBe("xyz-123");
  expect(landed()!.origin + landed()!.pathname).toBe(REDIRECT);
  expect(landed()!.searchParams.get("code")).toMatch(/^[\w-]{20,}$/);
});

test("a signed-in user is not asked again; Not you? signs out", async ({ page }) => {
  await page.goto(authorizeUrl({ redirect_uri: REDIRECT }));
  await signIn(page, "helper");
  await expect(page.getByRole("button", { name: "Authorize" })).toBeVisible();
  await page.goto(authorizeUrl({ redirect_uri: REDIRECT, scope: "identify" }));
  await expect(page.getByText("Signed in as")).toContainText("@helper");
  const cookie = (await page.context().cookies()).find((c) => c.name === "guildhall_provider_session");
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
  await page.getByRole("button", { name: "Not you? Sign out" }).click();
  await expect(page.getByLabel("Username")).toBeVisible();
  expect((await page.context().cookies()).some((c) => c.name === "guildhall_provider_session")).toBe(false);
});

test("Cancel returns error=access_denied with the state", async ({ page }) => {
  const landed = await captureRedirects(page);
  await page.goto(authorizeUrl({ redirect_uri: REDIRECT, state: "s1" }));
  await signIn(page, "member");
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect.poll(() => landed()?.searchParams.get("error")).toBe("access_denied");
  expect(landed()!.searchParams.get("error_description")).toBeTruthy();
  expect(landed()!.searchParams.get("state")).toBe("s1");
  expect(landed()!.searchParams.get("code")).toBeNull();
});

test("an unregistered redirect URI is refused on the page, without redirecting", async ({ page }) => {
  let leaked = false;
  await page.route("https://evil.example/**", (route) => {
    leaked = true;
    return route.abort();
  });
  await page.goto(authorizeUrl({ redirect_uri: "https://evil.example/steal", state: "s" }));
  await expect(page.getByRole("heading", { name: /can't be completed/ })).toBeVisible();
  await expect(page.getByText("is not registered for Guildhall Demo")).toBeVisible();
  await expect(page.getByLabel("Username")).toHaveCount(0);
  expect(new URL(page.url()).origin).toBe(E2E_URL);
  expect(leaked).toBe(false);
  await page.screenshot({ path: "test-results/screenshots/oauth2-refused.png" });
});

test("unknown scopes and clients are refused on the page; with a valid redirect URI the client is told invalid_scope", async ({
  page,
}) => {
  await page.goto(authorizeUrl({ scope: "identify launch.nukes" }));
  await expect(page.getByText("Unknown scope: launch.nukes.")).toBeVisible();
  await page.goto(`${E2E_URL}/oauth2/authorize?client_id=123&response_type=code&scope=identify`);
  await expect(page.getByText("Unknown application")).toBeVisible();

  const landed = await captureRedirects(page);
  await page.goto(authorizeUrl({ scope: "identify launch.nukes", redirect_uri: REDIRECT, state: "st" }));
  await expect.poll(() => landed()?.searchParams.get("error")).toBe("invalid_scope");
  expect(landed()!.searchParams.get("state")).toBe("st");
});

test("prompt=none: after a real code exchange, the same scopes come straight back without the consent screen", async ({
  page,
  request,
}) => {
  const landed = await captureRedirects(page);
  await page.goto(authorizeUrl({ redirect_uri: REDIRECT, scope: "identify guilds.members.read", state: "first" }));
  await signIn(page, "admin");
  await page.getByRole("button", { name: "Authorize" }).click();
  await expect.poll(() => landed()?.searchParams.get("state")).toBe("first");
  // Let that navigation finish: a goto started while it is in flight is interrupted by it.
  await page.waitForURL(`${REDIRECT}**`);
  const exchanged = await request.post(`${E2E_URL}/api/oauth2/token`, {
    form: {
      grant_type: "authorization_code",
      code: landed()!.searchParams.get("code")!,
      redirect_uri: REDIRECT,
      client_id: e2eWorld().applicationId,
      client_secret: clientSecret(),
    },
  });
  expect(exchanged.status()).toBe(200);
  expect(await exchanged.json()).toMatchObject({ token_type: "Bearer", scope: "identify guilds.members.read" });

  await page.goto(
    authorizeUrl({ redirect_uri: REDIRECT, scope: "identify guilds.members.read", state: "again", prompt: "none" }),
  );
  await expect.poll(() => landed()?.searchParams.get("state")).toBe("again");
  expect(landed()!.searchParams.get("code")).toMatch(/^[\w-]{20,}$/);
  // A scope never granted still needs consent.
  await page.goto(authorizeUrl({ redirect_uri: REDIRECT, scope: "identify email", prompt: "none" }));
  await expect(page.getByRole("button", { name: "Authorize" })).toBeVisible();
});

test("an install link adds the bot to a server the user manages (server install)", async ({ page }) => {
  const world = e2eWorld();
  await page.goto(
    `${E2E_URL}/oauth2/authorize?client_id=${world.applicationId}&scope=bot%20applications.commands&permissions=2048`,
  );
  await signIn(page, "admin");
  await expect(page.getByText("Add a bot to a server")).toBeVisible();
  await expect(page.getByText("The bot asks for 1 permission")).toBeVisible();
  await page.getByLabel("Add to server").selectOption({ label: "Side Project" });
  // The admin owns Side Project: nothing requested is dropped.
  await expect(page.getByText("The bot's role gets 1 permission")).toBeVisible();
  await expect(page.getByRole("group", { name: "Permissions not granted" })).toHaveCount(0);
  await page.screenshot({ path: "test-results/screenshots/oauth2-install.png", fullPage: true });
  await page.getByRole("button", { name: "Authorize" }).click();
  await expect(page.getByRole("heading", { name: "Authorized" })).toBeVisible();
  await expect(page.getByText("The app was added to Side Project.")).toBeVisible();
  const [side] = world.query<{ id: bigint }>("SELECT id FROM guilds WHERE name = 'Side Project'");
  const bot = world.query<{ user_id: bigint }>(
    "SELECT m.user_id FROM members m JOIN applications a ON a.bot_user_id = m.user_id WHERE m.guild_id = ?",
    side.id,
  );
  expect(bot).toHaveLength(1);
  expect(world.query("SELECT 1 FROM integrations WHERE guild_id = ? AND type = 'discord'", side.id)).toHaveLength(1);
  const [role] = world.query<{ permissions: bigint; managed: bigint }>(
    "SELECT permissions, managed FROM roles WHERE guild_id = ? AND managed = 1",
    side.id,
  );
  expect(role).toEqual({ permissions: 2048n, managed: 1n });
});

test("a bot install shows what the installer can give: a moderator's Administrator and Manage Webhooks are dropped", async ({
  page,
}) => {
  const world = e2eWorld();
  // Administrator (8) | Ban Members (4) | Manage Webhooks (1 << 29): the moderator holds only Ban Members of these.
  const requested = String(8n | 4n | (1n << 29n));
  await page.goto(`${E2E_URL}/oauth2/authorize?client_id=${world.applicationId}&scope=bot&permissions=${requested}`);
  await signIn(page, "mod");
  // Before a server is chosen: what the link asks for.
  await expect(page.getByText("The bot asks for 3 permissions")).toBeVisible();
  await page.getByLabel("Add to server").selectOption({ label: "Guildhall HQ" });
  await expect(page.getByText("The bot's role gets 1 permission")).toBeVisible();
  await page.getByText("The bot's role gets 1 permission").click();
  await expect(page.getByText("· Ban Members")).toBeVisible();
  const dropped = page.getByRole("group", { name: "Permissions not granted" });
  await expect(dropped).toContainText("2 permissions won't be granted: you don't have them in Guildhall HQ");
  await expect(dropped.getByRole("listitem")).toHaveText(["· Manage Webhooks", "· Administrator"]);
  await page.screenshot({ path: "test-results/screenshots/oauth2-install-masked.png", fullPage: true });

  // A locked server shows the same, without the picker.
  await page.goto(
    `${E2E_URL}/oauth2/authorize?client_id=${world.applicationId}&scope=bot&permissions=${requested}&guild_id=${world.guildId}&disable_guild_select=true`,
  );
  await expect(page.getByText("The bot will be added to")).toContainText("Guildhall HQ");
  await expect(page.getByText("The bot's role gets 1 permission")).toBeVisible();
  await expect(page.getByRole("group", { name: "Permissions not granted" }).getByRole("listitem")).toHaveCount(2);
});

test("a locked server the user can't manage can't be authorized", async ({ page }) => {
  const world = e2eWorld();
  await page.goto(
    `${E2E_URL}/oauth2/authorize?client_id=${world.applicationId}&scope=bot&permissions=0&guild_id=${world.guildId}&disable_guild_select=true`,
  );
  await signIn(page, "member");
  await expect(page.getByText("You need Manage Server in the server this link names")).toBeVisible();
  await expect(page.getByRole("button", { name: "Authorize" })).toBeDisabled();
});
