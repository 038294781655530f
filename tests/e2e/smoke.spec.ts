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

// The production server renders pages in the dashboard's thread (docs/architecture.md, "Threads"), and its metrics say
// so: the pages it answered are counted, and that thread's own Node figures are labelled thread="pages".
test("pages are rendered in the dashboard's thread, and GET /metrics counts them with that thread's figures", async ({
  page,
}) => {
  const metrics = async () => (await page.request.get("/metrics")).text();
  const homeDocuments = (text: string) => {
    const series = 'guildhall_page_request_duration_seconds_count{route="/",kind="document",status="200"} ';
    const line = text.split("\n").find((row) => row.startsWith(series));
    return line ? Number(line.slice(series.length)) : 0;
  };
  const before = homeDocuments(await metrics());
  expect((await page.goto("/"))?.status()).toBe(200);
  await expect.poll(async () => homeDocuments(await metrics())).toBeGreaterThan(before);
  const text = await metrics();
  expect(text).toMatch(/^nodejs_heap_size_used_bytes\{thread="pages"\} \d/m);
  expect(text).toMatch(/^nodejs_heap_size_used_bytes \d/m);
});
