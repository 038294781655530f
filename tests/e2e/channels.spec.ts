// Channels and permissions in a real browser: a channel's settings (topic and slowmode, private for the Moderator role,
// Sync now, delete), order editors that load with nothing to save, the owner moving the bot's managed role, and the
// permission explorer answering as the API enforces. Every change is checked through the guild API; channels the
// tests create are removed again so the specs after these see the demo world as seeded.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { E2E_PORT, E2E_URL } from "../../playwright.config";
import { computeChannelPermissions, hasPermission } from "../../lib/discord/permissions";
import { api, fillHydrated, hydrated, screenshot, signIn, SHOTS } from "./helpers";
import { botMode } from "./mode";

const shot = (page: Page, name: string) => screenshot(page, `channels-${name}`);

interface Overwrite {
  id: string;
  type: 0 | 1;
  allow: string;
  deny: string;
}
interface Channel {
  id: string;
  name: string;
  topic?: string | null;
  rate_limit_per_user?: number;
  parent_id: string | null;
  permission_overwrites: Overwrite[];
}

/** An OAuth2 access token for a seeded user of the e2e server (the development token tool, on its database). */
function tokenFor(username: string): string {
  const state = path.join(os.tmpdir(), `guildhall-e2e-${E2E_PORT}.json`);
  const { databaseUrl } = JSON.parse(fs.readFileSync(state, "utf8")) as { databaseUrl: string };
  return execFileSync("npx", ["tsx", "scripts/token.ts", username], {
    env: { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: "development" },
    encoding: "utf8",
  }).trim();
}

/** A GET of the guild API as a user (Bearer token). */
async function getAs(token: string, route: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${E2E_URL}/api/v10${route}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, body: await response.json() };
}

/** The member's permissions in a channel by the engine the API judges with, fed the API's own data (as the bot). */
async function memberPermissionsIn(channelId: string): Promise<bigint> {
  const { world, call } = api();
  const guildId = world.guildId;
  const guild = (
    await call<{ owner_id: string; roles: Array<{ id: string; position: number; permissions: string }> }>(
      "GET",
      `/guilds/${guildId}`,
    )
  ).body;
  const channel = (await call<Channel>("GET", `/channels/${channelId}`)).body;
  const self = (await call<{ roles: string[] }>("GET", `/guilds/${guildId}/members/${world.userId("member")}`)).body;
  return computeChannelPermissions(
    {
      guildId,
      ownerId: guild.owner_id,
      roles: guild.roles.map((r) => ({ id: r.id, position: r.position, permissions: BigInt(r.permissions) })),
    },
    { userId: world.userId("member"), roleIds: self.roles },
    channel.permission_overwrites.map((o) => ({ ...o, allow: BigInt(o.allow), deny: BigInt(o.deny) })),
  );
}

/**
 * Whether the member can view the channel: asked of the API with the member's own token (Get Channel answers, or
 * refuses with Missing Access); in bot mode, where Discord gives a user's token no such route, by the engine.
 */
async function memberSees(channelId: string): Promise<boolean> {
  if (botMode) return hasPermission(await memberPermissionsIn(channelId), P.ViewChannel);
  const answer = await getAs(tokenFor("member"), `/channels/${channelId}`);
  if (answer.status === 200) return true;
  expect(answer).toMatchObject({ status: 403, body: { code: 50001 } });
  return false;
}

test.describe.configure({ mode: "serial" });

test("as mod: edit a topic and slowmode, make a channel private for Moderator, sync one with its category, delete one", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const { world, call } = api();
  const guildId = world.guildId;
  const base = `/guilds/${guildId}/channels`;
  const created: string[] = [];
  const make = async (body: Record<string, unknown>) => {
    const { status, body: channel } = await call<Channel>("POST", `/guilds/${guildId}/channels`, body);
    expect(status).toBe(201);
    created.push(channel.id);
    return channel;
  };
  const read = async (id: string) => (await call<Channel>("GET", `/channels/${id}`)).body;
  try {
    const tidy = await make({ name: "E2E Tidy Room", topic: "old topic" });
    expect(tidy.name).toBe("e2e-tidy-room");
    const secret = await make({ name: "e2e-secret" });
    const staff = world.channelId("Staff");
    const drifting = await make({ name: "e2e-drifting", parent_id: staff });
    const doomed = await make({ name: "e2e-doomed" });

    // ── Overview: topic and slowmode, only those fields sent ──
    await signIn(page, "mod", base);
    await page.getByRole("link", { name: "e2e-tidy-room settings" }).click();
    await page.waitForURL((url) => url.pathname === `${base}/${tidy.id}`);
    await hydrated(page);
    await fillHydrated(page.getByLabel("Channel topic"), "Tidy things up here");
    await page.getByLabel("Slowmode", { exact: true }).selectOption("30");
    await expect(page.getByRole("region", { name: "Unsaved channel settings" })).toContainText("2 unsaved changes");
    await page.getByLabel("Reason (audit log)").fill("e2e settings");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved #e2e-tidy-room" })).toBeVisible();
    await expect.poll(async () => (await read(tidy.id)).topic).toBe("Tidy things up here");
    expect(await read(tidy.id)).toMatchObject({ rate_limit_per_user: 30, name: "e2e-tidy-room" });
    // The page refreshed after the save remounts the form with what was stored, which may land after the toast and
    // wipe what is typed meanwhile: start the next edit from the stored page.
    await page.reload();
    await hydrated(page);
    // The name shows as Discord will store it while it is typed.
    await fillHydrated(page.getByLabel("Channel name"), "Tidy Room Two");
    await expect(page.getByText("Saved as tidy-room-two")).toBeVisible();
    await shot(page, "overview");
    await page.getByRole("button", { name: "Reset" }).click();

    // ── Permissions: private for the Moderator role; member can no longer view it ──
    expect(await memberSees(secret.id)).toBe(true);
    await page.goto(`${base}/${secret.id}?tab=permissions`);
    await hydrated(page);
    await page.getByRole("switch", { name: /^Private channel/ }).check({ force: true });
    await page.getByRole("group", { name: "Who can view it" }).getByRole("checkbox", { name: "Moderator" }).check();
    await page.getByRole("button", { name: "Make private" }).click();
    await expect(page.getByRole("status").filter({ hasText: "The channel is private now." })).toBeVisible();
    expect(await memberSees(secret.id)).toBe(false);
    expect((await read(secret.id)).permission_overwrites).toEqual(
      expect.arrayContaining([
        { id: guildId, type: 0, allow: "0", deny: String(P.ViewChannel) },
        { id: world.roleId("Moderator"), type: 0, allow: String(P.ViewChannel), deny: "0" },
      ]),
    );
    await expect(page.getByText("Private", { exact: true })).toBeVisible();
    // Who can access: the Moderator role can view it, @everyone can't.
    const roles = page.getByRole("table", { name: "Roles that can view or manage this channel" });
    await expect(roles.locator(`tr[data-access-id="${world.roleId("Moderator")}"]`)).toContainText(
      "View Channel allowed by channel overwrite for Moderator",
    );
    await expect(roles.locator(`tr[data-access-id="${guildId}"]`)).toContainText(
      "View Channel denied by channel overwrite for @everyone",
    );
    await shot(page, "permissions");
    await page
      .getByRole("group", { name: "Permissions for Moderator" })
      .screenshot({ path: `${SHOTS}/channels-overwrites-editor.png` });

    // ── Sync now: a channel in Staff without Staff's overwrites ──
    await page.goto(`${base}/${drifting.id}?tab=permissions`);
    await hydrated(page);
    await expect(page.getByText("Not synced with Staff")).toBeVisible();
    await page.getByRole("button", { name: "Sync now" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Permissions synced with the category." })).toBeVisible();
    await expect(page.getByText("Synced with Staff")).toBeVisible();
    const staffOverwrites = (await read(staff)).permission_overwrites;
    expect((await read(drifting.id)).permission_overwrites).toEqual(staffOverwrites);

    // ── Delete: the typed name confirms ──
    await page.goto(`${base}/${doomed.id}?tab=delete`);
    await hydrated(page);
    const button = page.getByRole("button", { name: "Delete channel" });
    await expect(button).toBeDisabled();
    await page.getByLabel(/to confirm/).fill("e2e-doomed");
    await button.click();
    await page.waitForURL((url) => url.pathname === base);
    expect((await call("GET", `/channels/${doomed.id}`)).status).toBe(404);
  } finally {
    for (const id of created) await call("DELETE", `/channels/${id}`);
  }
});

test("as mod: Channels and Roles load with no pending change; Reset returns to what loaded", async ({ page }) => {
  const { world } = api();
  const base = `/guilds/${world.guildId}`;
  await signIn(page, "mod", `${base}/channels`);
  await expect(page.getByRole("list", { name: "Channels in Information" })).toBeVisible();
  const pendingChannels = page.getByRole("region", { name: "Unsaved channel order" });
  await expect(pendingChannels).toHaveCount(0);
  await page.getByRole("button", { name: "Move rules down" }).click();
  await expect(pendingChannels).toContainText("1 change to save");
  await page.getByRole("button", { name: "Reset" }).click();
  await expect(pendingChannels).toHaveCount(0);
  await shot(page, "tree");
  // Each type shows its own fields: a forum's tags and layout, a voice channel's bitrate within the boost limit.
  await page.goto(`${base}/channels/${world.channelId("ideas")}`);
  await expect(page.getByRole("textbox", { name: "Tag 1 name" })).toHaveValue("feature");
  await expect(page.getByLabel("Default layout")).toHaveValue("1");
  await shot(page, "forum-overview");
  await page.goto(`${base}/channels/${world.channelId("Lounge")}`);
  await expect(page.getByLabel(/^Bitrate: 64 kbps/)).toHaveAttribute("max", "256000");
  await expect(page.getByRole("region", { name: "Unsaved channel settings" })).toHaveCount(0);
  await shot(page, "voice-overview");

  await page.goto(`${base}/roles`);
  await hydrated(page);
  await expect(page.getByRole("button", { name: "Create role" })).toBeVisible();
  const pendingRoles = page.getByRole("region", { name: "Unsaved role order" });
  await expect(pendingRoles).toHaveCount(0);
  await page.getByRole("button", { name: "Move Helper down" }).click();
  await expect(pendingRoles).toContainText("New order for 1 role.");
  await page.getByRole("button", { name: "Reset" }).click();
  await expect(pendingRoles).toHaveCount(0);
  // A role above the moderator's opens read-only, with the reason.
  await page.getByRole("button", { name: "View Guildhall Demo" }).click();
  await expect(page.getByRole("dialog")).toContainText("You can't edit this role: role is above yours.");
  await shot(page, "role-read-only");
});

test("as owner: move the bot's managed role below Moderator and back", async ({ page }) => {
  const { world, call } = api();
  const base = `/guilds/${world.guildId}`;
  const positions = async () =>
    Object.fromEntries(
      (await call<Array<{ name: string; position: number }>>("GET", `/guilds/${world.guildId}/roles`)).body.map((r) => [
        r.name,
        r.position,
      ]),
    );
  const before = await positions();
  expect(before["Guildhall Demo"]).toBeGreaterThan(before.Moderator);
  await signIn(page, "owner", `${base}/roles`);
  if (botMode) {
    // Discord judges the bot, owner or not: its own highest role, and Admin above it, are out of its reach, and no
    // role may go up to them. The page says so instead of offering a move the API refuses.
    const demo = page.getByRole("row").filter({ hasText: "Guildhall Demo" });
    await expect(demo.getByText("Read-only: role is the bot's highest role")).toBeVisible();
    await expect(page.getByRole("button", { name: "Move Guildhall Demo down" })).toBeDisabled();
    await expect(
      page.getByRole("row").filter({ hasText: "Admin" }).getByText("Read-only: role is above the bot's"),
    ).toBeVisible();
    await expect(page.getByRole("button", { name: "Move Moderator up" })).toBeDisabled();
    await expect(page.getByRole("button", { name: "Move Moderator down" })).toBeEnabled();
    await shot(page, "owner-bot-role-read-only");
    expect(await positions()).toEqual(before);
    return;
  }
  const save = async () => {
    await expect(page.getByRole("region", { name: "Unsaved role order" })).toContainText("New order for 1 role.");
    await page.getByRole("button", { name: "Save order" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved the new role order" }).last()).toBeVisible();
  };
  await page.getByRole("button", { name: "Move Guildhall Demo down" }).click();
  await save();
  // The two swap places: the bot's role is now just below Moderator.
  await expect
    .poll(positions)
    .toMatchObject({ "Guildhall Demo": before.Moderator, Moderator: before["Guildhall Demo"] });
  await shot(page, "owner-moved-bot-role");
  await expect(page.getByRole("region", { name: "Unsaved role order" })).toHaveCount(0);
  await page.getByRole("button", { name: "Move Guildhall Demo up" }).click();
  await save();
  await expect.poll(positions).toEqual(before);
});

test("the explorer answers “can member send in #announcements?” as the API enforces it", async ({ page }) => {
  const { world } = api();
  const guildId = world.guildId;
  const announcements = world.channelId("announcements");
  const modChat = world.channelId("mod-chat");
  await signIn(page, "mod", `/guilds/${guildId}/channels/view-as`);
  await page.getByRole("form", { name: "View as a member" }).getByLabel("Member").fill("member");
  await page.getByRole("button", { name: "View as member" }).click();
  await expect(page).toHaveURL(/member=member/);
  const view = page.getByRole("region", { name: "Permissions of member" });
  const row = (id: string) => view.locator(`li[data-channel-id="${id}"]`);
  await expect(row(announcements).locator('[data-capability="send"]')).toContainText("✕ Send");
  await expect(row(announcements).locator('[data-capability="send"]')).toContainText(
    "Send Messages denied by channel overwrite for @everyone",
  );
  await expect(row(announcements).locator('[data-capability="view"]')).toContainText("✓ View");
  await expect(row(modChat).locator('[data-capability="view"]')).toContainText("✕ View");
  await expect(row(world.channelId("general")).locator('[data-capability="send"]')).toContainText("✓ Send");
  await shot(page, "explorer");

  // The API: member reads #announcements and is refused #mod-chat (Missing Access), as the explorer says…
  expect(await memberSees(announcements)).toBe(true);
  expect(await memberSees(modChat)).toBe(false);
  // …and the engine the API judges with, fed the API's own data, says no to sending there.
  const permissions = await memberPermissionsIn(announcements);
  expect(hasPermission(permissions, P.SendMessages)).toBe(false);
  expect(hasPermission(permissions, P.ViewChannel)).toBe(true);
});
