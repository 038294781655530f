import { expect, test } from "@playwright/test";

// The front door: the home page renders, and its dashboard link leads a signed-out visitor to sign-in with the
// way back, not to an error or a blank page.
test("the home page leads a signed-out visitor to sign-in", async ({ page }) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { name: "Guildhall" })).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/home.png", fullPage: true });
  await page.getByRole("link", { name: "Open the dashboard" }).click();
  await page.waitForURL((url) => url.pathname === "/sign-in");
  expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe("/guilds");
  await expect(page.getByRole("button", { name: /sign in/i })).toBeVisible();
});
