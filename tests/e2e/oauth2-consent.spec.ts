// The built-in provider's sign-in and consent page, in the browser.
import { expect, test } from "@playwright/test";
import { E2E_URL } from "../../playwright.config";
import { e2eWorld } from "./world";

const REDIRECT = `${E2E_URL}/api/auth/callback/guildhall`;

function authorizeUrl(params: Record<string, string>): string {
  const world = e2eWorld();
  const url = new URL("/oauth2/authorize", E2E_URL);
  url.search = new URLSearchParams({ client_id: world.applicationId, response_type: "code", scope: "identify guilds", ...params }).toString();
  return url.toString();
}

test("sign in, see every requested scope, authorize: back at the redirect URI with code and state", async ({ page }) => {
  // The redirect target is the dashboard's callback: capture the navigation instead of completing sign-in there.
  let landed: URL | null = null;
  await page.route(`${REDIRECT}**`, (route) => {
    landed = new URL(route.request().url());
    return route.fulfill({ status: 200, body: "captured" });
  });
  await page.goto(authorizeUrl({ redirect_uri: REDIRECT, state: "xyz-123" }));
  await page.getByLabel("Username").fill("mod");
  await page.getByLabel("Password").fill("wrong");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Wrong username or password.")).toBeVisible();
  await page.getByLabel("Username").fill("mod");
  await page.getByLabel("Password").fill("guildhall");
  await page.getByRole("button", { name: "Sign in" }).click();

  await expect(page.getByText("Signed in as")).toContainText("Mod");
  await expect(page.getByRole("listitem")).toHaveText([/Access your username, avatar and banner/, /Know what servers you're in/]);
  await page.screenshot({ path: "test-results/screenshots/oauth2-consent.png", fullPage: true });
  await page.getByRole("button", { name: "Authorize" }).click();
  await expect.poll(() => landed?.searchParams.get("state")).toBe("xyz-123");
  expect(landed!.searchParams.get("code")).toMatch(/^[\w-]{20,}$/);
});

test("Cancel returns error=access_denied with the state", async ({ page }) => {
  let landed: URL | null = null;
  await page.route(`${REDIRECT}**`, (route) => {
    landed = new URL(route.request().url());
    return route.fulfill({ status: 200, body: "captured" });
  });
  await page.goto(authorizeUrl({ redirect_uri: REDIRECT, state: "s1" }));
  await page.getByLabel("Username").fill("member");
  await page.getByLabel("Password").fill("guildhall");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect.poll(() => landed?.searchParams.get("error")).toBe("access_denied");
  expect(landed!.searchParams.get("state")).toBe("s1");
  expect(landed!.searchParams.get("code")).toBeNull();
});

test("an unregistered redirect URI is refused on the page, without redirecting", async ({ page }) => {
  await page.goto(authorizeUrl({ redirect_uri: "https://evil.example/steal", state: "s" }));
  await expect(page.getByRole("heading", { name: /can't be completed/ })).toBeVisible();
  await expect(page.getByText("is not registered for Guildhall Demo")).toBeVisible();
  await expect(page.getByLabel("Username")).toHaveCount(0);
  expect(new URL(page.url()).origin).toBe(E2E_URL);
  await page.screenshot({ path: "test-results/screenshots/oauth2-refused.png" });
});

test("unknown scopes and clients are refused", async ({ page }) => {
  await page.goto(authorizeUrl({ scope: "identify launch.nukes" }));
  await expect(page.getByText("Unknown scope: launch.nukes.")).toBeVisible();
  await page.goto(`${E2E_URL}/oauth2/authorize?client_id=123&response_type=code&scope=identify`);
  await expect(page.getByText("Unknown application")).toBeVisible();
});

test("an install link adds the bot to a server the user manages (server install)", async ({ page }) => {
  const world = e2eWorld();
  await page.goto(`${E2E_URL}/oauth2/authorize?client_id=${world.applicationId}&scope=bot%20applications.commands&permissions=2048`);
  await page.getByLabel("Username").fill("admin");
  await page.getByLabel("Password").fill("guildhall");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Add a bot to a server")).toBeVisible();
  await page.getByLabel("Add to server").selectOption({ label: "Side Project" });
  await page.screenshot({ path: "test-results/screenshots/oauth2-install.png", fullPage: true });
  await page.getByRole("button", { name: "Authorize" }).click();
  await expect(page.getByRole("heading", { name: "Authorized" })).toBeVisible();
  await expect(page.getByText("The app was added to Side Project.")).toBeVisible();
  const [side] = world.query<{ id: bigint }>("SELECT id FROM guilds WHERE name = 'Side Project'");
  const bot = world.query<{ user_id: bigint }>("SELECT m.user_id FROM members m JOIN applications a ON a.bot_user_id = m.user_id WHERE m.guild_id = ?", side.id);
  expect(bot).toHaveLength(1);
  expect(world.query("SELECT 1 FROM integrations WHERE guild_id = ? AND type = 'discord'", side.id)).toHaveLength(1);
});
