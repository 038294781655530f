// Raid cleanup in a real browser (issue #32): five raiders joined within a 7-minute window (new accounts, no avatar,
// names like raid_bot_3), beside decoys (one with an avatar, one named otherwise, one who joined before the window).
// `mod` finds them on Members → Raid cleanup (the window in the URL, the pattern and no-avatar in the form, a pattern
// the engine refuses shown at once), kicks them as one job, and the API shows the five gone and the decoys still there.
import Database from "better-sqlite3";
import { expect, test, type Page } from "@playwright/test";
import { api, e2eDatabaseFile, hydrated, screenshot, signIn } from "./helpers";

const shot = (page: Page, label: string) => screenshot(page, `raid-${label}`);

const MINUTE = 60_000;

/** Members written straight into the server's database, joined at the given times (the API has no "joined then"). */
function seedJoined(
  guildId: string,
  people: Array<{ name: string; joinedAt: number; avatar?: string; bot?: boolean }>,
): string[] {
  const db = new Database(e2eDatabaseFile());
  db.pragma("busy_timeout = 5000");
  db.defaultSafeIntegers(true);
  const base = (BigInt(Date.now() - 86_400_000) - 1420070400000n) << 22n;
  const ids = people.map((_, i) => base + BigInt(i + 1) * 4_194_304n);
  const user = db.prepare("INSERT OR IGNORE INTO users (id, username, avatar, bot, created_at) VALUES (?, ?, ?, ?, ?)");
  const member = db.prepare(
    `INSERT OR IGNORE INTO members (guild_id, user_id, username_key, joined_at, last_active_at, role_count, status)
     VALUES (?, ?, ?, ?, ?, 0, 'offline')`,
  );
  // The guild's member count follows, as the API's own joins keep it (other specs count the members).
  const count = db.prepare("UPDATE guilds SET member_count = member_count + ? WHERE id = ?");
  db.transaction(() => {
    let joined = 0;
    people.forEach((p, i) => {
      user.run(ids[i], p.name, p.avatar ?? null, p.bot ? 1 : 0, BigInt(Date.now()));
      joined += member.run(
        BigInt(guildId),
        ids[i],
        p.name.toLowerCase(),
        BigInt(p.joinedAt),
        BigInt(p.joinedAt),
      ).changes;
    });
    count.run(joined, BigInt(guildId));
  })();
  db.close();
  return ids.map(String);
}

const utcMinute = (ms: number) => `${new Date(ms).toISOString().slice(0, 16)}Z`;

test("finds the raiders of a 7-minute window and kicks them as one job; the decoys stay", async ({ page }) => {
  test.setTimeout(120_000);
  const { world, call } = api();
  const guildId = world.guildId;
  const start = Math.floor((Date.now() - 60 * MINUTE) / MINUTE) * MINUTE;
  const raiders = Array.from({ length: 5 }, (_, i) => ({ name: `raid_bot_${i + 1}`, joinedAt: start + i * 80_000 }));
  const ids = seedJoined(guildId, [
    ...raiders,
    { name: "raid_bot_avatar", joinedAt: start + 2 * MINUTE, avatar: "a".repeat(32) },
    { name: "friendly_newcomer", joinedAt: start + 3 * MINUTE },
    { name: "raid_bot_early", joinedAt: start - 5 * MINUTE },
    // A real bot that joined in the window and matches: found, but protected in the job.
    { name: "raid_bot_99", joinedAt: start + 4 * MINUTE, bot: true },
  ]);
  const raiderIds = ids.slice(0, 5);
  const decoys = ids.slice(5, 8);
  const botId = ids[8];

  await signIn(
    page,
    "mod",
    `/guilds/${guildId}/members/raid?from=${utcMinute(start)}&to=${utcMinute(start + 6 * MINUTE)}`,
  );
  await hydrated(page);
  const form = page.getByRole("search", { name: "Find raid members" });
  const pattern = form.getByRole("textbox", { name: /Name matches/ });
  await pattern.fill("(raid)\\1");
  await expect(form.getByText(/backreferences are not supported/)).toBeVisible();
  await expect(form.getByRole("button", { name: "Find members" })).toBeDisabled();
  await pattern.fill("^raid_bot_\\d+$");
  await form.getByRole("checkbox", { name: "Only members without an avatar" }).check();
  await form.getByRole("button", { name: "Find members" }).click();
  const results = page.getByRole("region", { name: "Raid members" });
  await expect(results.getByRole("status")).toContainText("6 members match");
  for (const id of raiderIds) await expect(results.locator(`[data-member-id="${id}"]`)).toBeVisible();
  for (const id of decoys) await expect(results.locator(`[data-member-id="${id}"]`)).toHaveCount(0);
  await shot(page, "found");

  await results.getByRole("combobox", { name: "Action" }).selectOption("kick");
  await results.getByRole("button", { name: "Review 6 members" }).click();
  await page.waitForURL(/\/members\/jobs\/[a-z0-9]+$/);
  await hydrated(page);
  // The preview: the bot is protected, said why.
  await expect(page.getByText("a bot: raid cleanup leaves bots alone")).toBeVisible();
  await shot(page, "preview");
  await page.getByRole("button", { name: "Start: 5 members" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Start" }).click();
  await expect(page.getByTestId("progress-text")).toHaveText("5 of 5 sent (100 %)");
  await shot(page, "kicked");

  for (const id of raiderIds) expect((await call("GET", `/guilds/${guildId}/members/${id}`)).status).toBe(404);
  for (const id of [...decoys, botId]) expect((await call("GET", `/guilds/${guildId}/members/${id}`)).status).toBe(200);

  // Each member the job kicked is a case of its own, in the moderator's name.
  await page.goto(`/guilds/${guildId}/cases?types=kick`);
  const table = page.getByRole("table", { name: "Cases" });
  for (const raider of raiders)
    await expect(table.getByRole("row").filter({ hasText: raider.name })).toContainText("Mod");
  await expect(table.getByRole("row").filter({ hasText: "raid_bot_99" })).toHaveCount(0);
});
