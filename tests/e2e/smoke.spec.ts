import { expect, test } from "@playwright/test";

test("the home page renders in Chromium", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Guildhall" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Open the dashboard" })).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/home.png", fullPage: true });
});
