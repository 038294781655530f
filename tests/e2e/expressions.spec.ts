// The Emoji, Stickers and Soundboard sections in a real browser, signed in through OAuth2 as `mod` (Manage
// Expressions): several emoji dropped at once and one picked (a file that is not an image refused with the API's
// reason), an emoji renamed in place and deleted; a sticker uploaded from the form and deleted; a sound played in the
// browser, one uploaded and deleted. Every change is checked through the guild API with the demo bot's token, and
// whatever a test made is deleted after it. Real files, built byte by byte (lib/seed/media.ts).
import type { APIEmoji, APISoundboardSound, APISticker } from "discord-api-types/v10";
import { expect, test, type Page } from "@playwright/test";
import { silentMp3, solidPng } from "@/lib/seed/media";
import { api, screenshot, signIn } from "./helpers";
import { recordedActor } from "./mode";

test.describe.configure({ mode: "serial" });

const shot = (page: Page, name: string) => screenshot(page, `expressions-${name}`);

/** Drops files on the page's drop zone as a browser would (a DataTransfer holding them). */
async function dropFiles(page: Page, files: Array<{ name: string; type: string; bytes: Buffer }>) {
  const dataTransfer = await page.evaluateHandle(
    (list) => {
      const transfer = new DataTransfer();
      for (const file of list) {
        const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
        transfer.items.add(new File([bytes], file.name, { type: file.type }));
      }
      return transfer;
    },
    files.map((file) => ({ name: file.name, type: file.type, base64: file.bytes.toString("base64") })),
  );
  await page.getByTestId("file-drop").dispatchEvent("drop", { dataTransfer });
}

test("emoji: several dropped at once, one refused, renamed in place, deleted", async ({ page }) => {
  test.setTimeout(120_000);
  const { world, call } = api();
  const path = `/guilds/${world.guildId}/emojis`;
  const list = async () => (await call<APIEmoji[]>("GET", path)).body;
  const cleanUp = async () => {
    for (const emoji of await list())
      if (emoji.name?.startsWith("e2e_")) expect((await call("DELETE", `${path}/${emoji.id}`)).status).toBe(204);
  };
  await cleanUp();
  try {
    await signIn(page, "mod", `/guilds/${world.guildId}/emoji`);
    await expect(page.getByRole("heading", { name: "Emoji", level: 1 })).toBeVisible();
    await expect(page.getByTestId("slots-emoji")).toContainText("2 of 150 slots");
    await expect(page.getByTestId("slots-animated-emoji")).toContainText("1 of 150 slots");
    // The seeded emoji, with who uploaded them.
    const grid = page.getByRole("list", { name: "Emoji" });
    await expect(grid.getByRole("listitem", { name: ":guildhall:" })).toContainText("by ");

    await dropFiles(page, [
      { name: "e2e wave.png", type: "image/png", bytes: solidPng(64, 64, 0x57f287ff) },
      { name: "e2e_blink.png", type: "image/png", bytes: solidPng(64, 64, 0xfee75cff, { frames: 2 }) },
    ]);
    const results = page.getByRole("list", { name: "Upload results" });
    await expect(results).toContainText("e2e wave.png: Uploaded as :e2e_wave:");
    await expect(results).toContainText("e2e_blink.png: Uploaded as :e2e_blink:");
    await expect(grid.getByRole("listitem", { name: ":e2e_wave:" })).toBeVisible();
    await expect(grid.getByRole("listitem", { name: ":e2e_blink:" })).toContainText("Animated");
    const uploaded = await list();
    expect(uploaded.find((emoji) => emoji.name === "e2e_blink")).toMatchObject({ animated: true });
    // The uploader the guild records: the moderator, or in bot mode the bot that made the call.
    expect(uploaded.find((emoji) => emoji.name === "e2e_wave")?.user?.id).toBe(
      recordedActor(world.userId("mod"), world.bot.id),
    );

    // A file that only claims to be an image is refused with the API's reason, and nothing is stored.
    await page
      .getByTestId("file-drop")
      .locator("input[type=file]")
      .setInputFiles({ name: "e2e_fake.png", mimeType: "image/png", buffer: Buffer.from("not a picture") });
    await expect(results).toContainText("e2e_fake.png:");
    await expect(results.getByText(/e2e_fake\.png/)).toHaveClass(/text-danger/);
    expect((await list()).some((emoji) => emoji.name === "e2e_fake")).toBe(false);
    await shot(page, "emoji");

    // Rename in place: Enter saves.
    const name = page.getByLabel("Name of :e2e_wave:");
    await name.fill("e2e_hello");
    await name.press("Enter");
    await expect.poll(async () => (await list()).some((emoji) => emoji.name === "e2e_hello")).toBe(true);

    await grid.getByRole("button", { name: "Delete :e2e_hello:" }).click();
    await page.getByRole("button", { name: "Confirm delete" }).click();
    await expect.poll(async () => (await list()).some((emoji) => emoji.name === "e2e_hello")).toBe(false);
    await expect(grid.getByRole("listitem", { name: ":e2e_hello:" })).toHaveCount(0);
  } finally {
    await cleanUp();
  }
});

test("stickers: uploaded from the form with its file, then deleted", async ({ page }) => {
  test.setTimeout(120_000);
  const { world, call } = api();
  const path = `/guilds/${world.guildId}/stickers`;
  const list = async () => (await call<APISticker[]>("GET", path)).body;
  const cleanUp = async () => {
    for (const sticker of await list())
      if (sticker.name.startsWith("E2E")) expect((await call("DELETE", `${path}/${sticker.id}`)).status).toBe(204);
  };
  await cleanUp();
  try {
    await signIn(page, "mod", `/guilds/${world.guildId}/stickers`);
    await expect(page.getByTestId("slots-stickers")).toContainText("2 of 30 slots");
    const form = page.getByRole("form", { name: "Upload sticker" });
    await form
      .locator("input[type=file]")
      .setInputFiles({ name: "thumbs.png", mimeType: "image/png", buffer: solidPng(320, 320, 0xeb459eff) });
    await form.getByLabel("Name").fill("E2E Thumbs");
    await form.getByLabel("Related emoji").fill("thumbsup");
    await form.getByLabel("Description").fill("Nice one");
    await form.getByRole("button", { name: "Upload sticker" }).click();
    const grid = page.getByRole("list", { name: "Stickers" });
    await expect(grid.getByRole("listitem", { name: "E2E Thumbs" })).toContainText("Nice one");
    expect((await list()).find((sticker) => sticker.name === "E2E Thumbs")).toMatchObject({
      tags: "thumbsup",
      format_type: 1,
    });
    await expect(page.getByTestId("slots-stickers")).toContainText("3 of 30 slots");
    await shot(page, "stickers");

    await grid.getByRole("button", { name: "Delete E2E Thumbs" }).click();
    await page.getByRole("button", { name: "Confirm delete" }).click();
    await expect.poll(async () => (await list()).some((sticker) => sticker.name === "E2E Thumbs")).toBe(false);
  } finally {
    await cleanUp();
  }
});

test("soundboard: a sound plays in the browser; one uploaded, then deleted", async ({ page }) => {
  test.setTimeout(120_000);
  const { world, call } = api();
  const path = `/guilds/${world.guildId}/soundboard-sounds`;
  const list = async () => (await call<{ items: APISoundboardSound[] }>("GET", path)).body.items;
  const cleanUp = async () => {
    for (const sound of await list())
      if (sound.name.startsWith("e2e")) expect((await call("DELETE", `${path}/${sound.sound_id}`)).status).toBe(204);
  };
  await cleanUp();
  try {
    await signIn(page, "mod", `/guilds/${world.guildId}/soundboard`);
    await expect(page.getByTestId("slots-sounds")).toContainText("3 of 36 slots");
    const sounds = page.getByRole("list", { name: "Sounds" });

    // The browser fetches and plays the file from /cdn (it ends by itself: the demo sounds are a few seconds long).
    const served = page.waitForResponse((response) => /\/cdn\/soundboard-sounds\/\d+$/.test(response.url()));
    await sounds.getByRole("button", { name: "Play airhorn" }).click();
    const response = await served;
    expect(response.headers()["content-type"]).toBe("audio/mpeg");
    await expect(sounds.getByRole("button", { name: "Play airhorn" })).toHaveAttribute("aria-pressed", "true");
    await expect(sounds.getByRole("button", { name: "Play airhorn" })).toHaveAttribute("aria-pressed", "false", {
      timeout: 10_000,
    });

    const form = page.getByRole("form", { name: "Upload sound" });
    await form
      .locator("input[type=file]")
      .setInputFiles({ name: "boop.mp3", mimeType: "audio/mpeg", buffer: silentMp3(60) });
    await form.getByLabel("Sound name").fill("e2e boop");
    await form.getByLabel("Related emoji").fill("🔔");
    await form.getByRole("button", { name: "Upload sound" }).click();
    await expect(sounds.getByRole("listitem", { name: "e2e boop" })).toContainText("🔔");
    expect((await list()).find((sound) => sound.name === "e2e boop")).toMatchObject({ emoji_name: "🔔", volume: 1 });
    await shot(page, "soundboard");

    await sounds.getByRole("button", { name: "Delete e2e boop" }).click();
    await page.getByRole("button", { name: "Confirm delete" }).click();
    await expect.poll(async () => (await list()).some((sound) => sound.name === "e2e boop")).toBe(false);
  } finally {
    await cleanUp();
  }
});
