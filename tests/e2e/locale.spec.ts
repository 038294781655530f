// Numbers and dates in the reader's locale (Accept-Language), on the pages that had a fixed one: the member panel's
// "Timed out until …" and "Joined …", and the bulk-ban form's limit. A German reader sees 5.000 and 25.11.2026.
import { expect, test } from "@playwright/test";
import { api, hydrated, signIn } from "./helpers";

test("a German reader sees German numbers and dates in the member panel and on the bulk-ban page", async ({
  browser,
}) => {
  const { world, call } = api();
  const guildId = world.guildId;
  const target = world.spareMember(3);
  const until = new Date(Date.now() + 2 * 86_400_000);
  const context = await browser.newContext({ locale: "de-DE" });
  try {
    const timedOut = await call("PATCH", `/guilds/${guildId}/members/${target.id}`, {
      communication_disabled_until: until.toISOString(),
    });
    expect(timedOut.status).toBe(200);
    const page = await context.newPage();
    await signIn(page, "owner", `/guilds/${guildId}/bans/bulk`);
    await expect(page.getByText("At most 5.000 ids.")).toBeVisible();

    await page.goto(`/guilds/${guildId}/members?member=${target.id}`);
    await hydrated(page);
    const panel = page.getByRole("dialog");
    const day = new Intl.DateTimeFormat("de-DE", { dateStyle: "medium", timeZone: "UTC" }).format(until);
    expect(day).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
    await expect(panel.getByText(`Timed out until ${day},`, { exact: false }).first()).toBeVisible();
    await expect(panel.getByText(/^Joined \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2} UTC$/)).toBeVisible();
  } finally {
    await call("PATCH", `/guilds/${guildId}/members/${target.id}`, { communication_disabled_until: null });
    await context.close();
  }
});
