// The Developer Portal in the browser: the owner signs in on the provider's form, changes the demo application's
// redirects, URL mappings, entry point handler and installation contexts, and finds them after a reload (and in the database);
// another user gets the not-owner page.
import { expect, test, type Page } from "@playwright/test";
import { e2eWorld } from "./world";

async function signIn(page: Page, username: string): Promise<void> {
  await expect(page).toHaveURL(/\/developers\/login\?next=/);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill("guildhall");
  await page.getByRole("button", { name: "Sign in" }).click();
}

interface AppRow {
  redirect_uris: string;
  url_mappings: string;
}

test("the owner adds a redirect and a URL mapping and switches the entry point handler; all of it persists", async ({
  page,
}) => {
  const world = e2eWorld();
  const appPath = `/developers/applications/${world.applicationId}`;
  const app = () =>
    world.query<AppRow>(
      "SELECT redirect_uris, url_mappings FROM applications WHERE id = ?",
      BigInt(world.applicationId),
    )[0];
  const handler = () =>
    Number(
      world.query<{ handler: bigint }>(
        "SELECT handler FROM application_commands WHERE application_id = ? AND type = 4",
        BigInt(world.applicationId),
      )[0].handler,
    );

  // Signed out: to the provider's sign-in form, and back to the page asked for.
  await page.goto(appPath);
  await signIn(page, "owner");
  await expect(page).toHaveURL(new RegExp(`${appPath}$`));
  await expect(page.getByRole("heading", { name: "General Information" })).toBeVisible();

  // OAuth2 → Redirects: a bad scheme is refused, a new address is added.
  const redirects = page.getByRole("region", { name: "Redirects" });
  const redirect = "http://localhost:4321/e2e/callback";
  await redirects.getByLabel("Add redirect").fill("ftp://files.example.com/cb");
  await redirects.getByRole("button", { name: "Add Redirect" }).click();
  await expect(redirects.getByText(/Scheme "ftp" is not supported/)).toBeVisible();
  await redirects.getByLabel("Add redirect").fill(redirect);
  await redirects.getByRole("button", { name: "Add Redirect" }).click();
  await expect(redirects.getByRole("list", { name: "Redirect URIs" })).toContainText(redirect);
  await expect(redirects.getByRole("status")).toHaveText("Redirect added.");
  await expect(redirects.getByLabel("Add redirect")).toHaveValue("");

  // Activities → URL Mappings: a scheme in the target is caught, then a valid row is saved.
  const mappings = page.getByRole("region", { name: "URL Mappings" });
  await mappings.getByRole("button", { name: "Add Another URL Mapping" }).click();
  await mappings.getByLabel("Prefix 2").fill("/api");
  await mappings.getByLabel("Target 2").fill("http://api.example.com");
  await expect(mappings.getByText(/Leave out the scheme/)).toBeVisible();
  await mappings.getByLabel("Target 2").fill("api.example.com/v1");
  await expect(mappings.getByText("Careful — you have unsaved changes!")).toBeVisible();
  await mappings.getByRole("button", { name: "Save Changes" }).click();
  await expect(mappings.getByRole("status")).toHaveText("URL mappings saved.");

  // Activities → Settings: the entry point's handler goes to APP_HANDLER.
  const settings = page.getByRole("region", { name: "Settings" });
  await expect(settings.getByRole("switch", { name: "Enable Activities" })).toHaveAttribute("aria-checked", "true");
  await expect(settings.getByRole("radio", { name: /Discord Launches Activity/ })).toBeChecked();
  await settings.getByRole("radio", { name: /App Handles Interaction/ }).check();
  await expect(settings.getByRole("status")).toHaveText("Saved: your app handles the interaction.");
  await expect(settings.getByRole("radio", { name: /App Handles Interaction/ })).toBeChecked();
  await expect(settings.getByRole("radio", { name: /Discord Launches Activity/ })).not.toBeChecked();

  // Installation contexts: server only, saved, and the checkboxes keep what was saved.
  const contexts = page.getByRole("region", { name: "Installation Contexts" });
  await contexts.getByRole("checkbox", { name: /User Install/ }).uncheck();
  await contexts.getByRole("button", { name: "Save Changes" }).click();
  await expect(contexts.getByRole("status")).toHaveText("Installation contexts saved.");
  await expect(contexts.getByRole("checkbox", { name: /User Install/ })).not.toBeChecked();
  await expect(contexts.getByRole("checkbox", { name: /Guild Install/ })).toBeChecked();
  await page.screenshot({ path: "test-results/screenshots/developers-app.png", fullPage: true });

  // After a reload, everything is still there, and in the database.
  await page.reload();
  await expect(page.getByRole("list", { name: "Redirect URIs" })).toContainText(redirect);
  await expect(mappings.getByLabel("Prefix 2")).toHaveValue("/api");
  await expect(mappings.getByLabel("Target 2")).toHaveValue("api.example.com/v1");
  await expect(settings.getByRole("radio", { name: /App Handles Interaction/ })).toBeChecked();
  expect(JSON.parse(app().redirect_uris)).toContain(redirect);
  expect(JSON.parse(app().url_mappings)).toContainEqual({ prefix: "/api", target: "api.example.com/v1" });
  expect(handler()).toBe(1);
  await expect(contexts.getByRole("checkbox", { name: /User Install/ })).not.toBeChecked();
  expect(
    world.query<{ integration_types: string }>(
      "SELECT integration_types FROM applications WHERE id = ?",
      BigInt(world.applicationId),
    )[0].integration_types,
  ).toBe("[0]");

  // Put the demo application back as the other specs expect it: remove the redirect and the mapping, default handler.
  await page.getByRole("button", { name: `Remove ${redirect}` }).click();
  await expect(page.getByRole("list", { name: "Redirect URIs" })).not.toContainText(redirect);
  await mappings.getByRole("button", { name: "Remove mapping /api" }).click();
  await mappings.getByRole("button", { name: "Save Changes" }).click();
  await expect(mappings.getByRole("status")).toHaveText("URL mappings saved.");
  await settings.getByRole("radio", { name: /Discord Launches Activity/ }).check();
  await expect(settings.getByRole("status")).toHaveText("Saved: Discord launches the Activity.");
  await expect.poll(handler).toBe(2);
  await contexts.getByRole("checkbox", { name: /User Install/ }).check();
  await contexts.getByRole("button", { name: "Save Changes" }).click();
  await expect(contexts.getByRole("status")).toHaveText("Installation contexts saved.");
  expect(JSON.parse(app().redirect_uris)).not.toContain(redirect);
  expect(JSON.parse(app().url_mappings)).toEqual([{ prefix: "/", target: new URL(page.url()).host }]);
  expect(
    world.query<{ integration_types: string }>(
      "SELECT integration_types FROM applications WHERE id = ?",
      BigInt(world.applicationId),
    )[0].integration_types,
  ).toBe("[0,1]");
});

test("someone who doesn't own the application gets the not-owner page and an empty list", async ({ page }) => {
  const world = e2eWorld();
  await page.goto(`/developers/applications/${world.applicationId}`);
  await signIn(page, "member");
  await expect(page.getByRole("heading", { name: "No application here for you" })).toBeVisible();
  await expect(page.getByText("Redirects")).toHaveCount(0);
  await expect(page.getByText(/Reset (Token|Secret)/)).toHaveCount(0);
  const response = await page.goto(`/developers/applications/${world.applicationId}`);
  expect(response?.status()).toBe(404);
  await page.screenshot({ path: "test-results/screenshots/developers-not-owner.png" });

  await page.goto("/developers/applications");
  await expect(page.getByRole("heading", { name: "No applications yet" })).toBeVisible();
});
