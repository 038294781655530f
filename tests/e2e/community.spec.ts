// The Widget, Welcome screen and Onboarding sections in a real browser, signed in through OAuth2 as `mod` (Manage
// Server and Manage Roles). Every change is checked through the guild API with the demo bot's token, and restored.
import type { APIGuildOnboarding, APIGuildWelcomeScreen } from "discord-api-types/v10";
import { expect, test, type Page } from "@playwright/test";
import { E2E_URL } from "../../playwright.config";
import { api, screenshot, signIn } from "./helpers";

const shot = (page: Page, name: string) => screenshot(page, `community-${name}`);

type Onboarding = APIGuildOnboarding;

/** The onboarding object as a Modify Guild Onboarding body (options take emoji_id / emoji_name, not the emoji object). */
const onboardingBody = (o: Onboarding) => ({
  enabled: o.enabled,
  mode: o.mode,
  default_channel_ids: o.default_channel_ids,
  prompts: o.prompts.map(({ options, ...prompt }) => ({
    ...prompt,
    options: options.map(({ emoji, ...option }) => ({ ...option, emoji_id: emoji.id, emoji_name: emoji.name })),
  })),
});

test.describe.configure({ mode: "serial" });

test("onboarding: the checker refuses to enable with too few default channels, suggests which to add, then it saves", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { world, call } = api();
  const guildId = world.guildId;
  const original = (await call<Onboarding>("GET", `/guilds/${guildId}/onboarding`)).body;
  expect(original.enabled).toBe(false);
  expect(original.default_channel_ids).toHaveLength(4);
  try {
    await signIn(page, "mod", `/guilds/${guildId}/onboarding`);
    const rules = page.getByTestId("onboarding-rules");
    await expect(rules.locator('[data-rule="channels"]')).toContainText("4 of 7");
    // #rules and #announcements are read-only for @everyone.
    await expect(rules.locator('[data-rule="writable"]')).toContainText("2 of 5");

    await page.getByRole("switch", { name: "Enable onboarding" }).check({ force: true });
    await expect(page.getByTestId("onboarding-blocked")).toContainText("Can't enable onboarding yet");
    await expect(rules.locator('[data-rule="channels"]')).toHaveAttribute("data-met", "false");
    await expect(page.getByRole("button", { name: "Save onboarding" })).toBeDisabled();
    await shot(page, "onboarding-refused");

    // The API agrees: the same draft is refused there.
    const refused = await call<{ code: number; errors: unknown }>("PUT", `/guilds/${guildId}/onboarding`, {
      enabled: true,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe(50035);

    // Default mode: the questions' channels do not count; the checker suggests three open channels.
    const suggested = page.getByRole("list", { name: "Suggested default channels" }).getByRole("button");
    await expect(suggested).toHaveCount(3);
    await page.getByRole("button", { name: /^Add all 3 suggested$/ }).click();
    await expect(rules.locator('[data-rule="channels"]')).toHaveAttribute("data-met", "true");
    await expect(rules.locator('[data-rule="writable"]')).toHaveAttribute("data-met", "true");
    await expect(page.getByTestId("onboarding-blocked")).toHaveCount(0);
    await page.getByLabel("Reason (audit log)").fill("e2e onboarding");
    await page.getByRole("button", { name: "Save onboarding" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: "Saved onboarding (enabled, 7 default channels, 1 question)" }),
    ).toBeVisible();

    const saved = (await call<Onboarding>("GET", `/guilds/${guildId}/onboarding`)).body;
    expect(saved.enabled).toBe(true);
    expect(saved.default_channel_ids).toHaveLength(7);
    expect(saved.default_channel_ids).toEqual(expect.arrayContaining(original.default_channel_ids));
    // The question and its options came through untouched.
    expect(saved.prompts).toEqual(original.prompts);
    await shot(page, "onboarding-saved");
  } finally {
    const restored = await call("PUT", `/guilds/${guildId}/onboarding`, onboardingBody(original));
    expect(restored.status).toBe(200);
  }
});

test("widget: the preview shows who is online, the five images load from the API, and the invite channel saves", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const { world, call } = api();
  const guildId = world.guildId;
  const original = (await call<{ enabled: boolean; channel_id: string | null }>("GET", `/guilds/${guildId}/widget`))
    .body;
  try {
    await signIn(page, "mod", `/guilds/${guildId}/widget`);
    const preview = page.getByRole("region", { name: "Guildhall HQ widget" });
    await expect(preview.getByTestId("widget-name")).toHaveText("Guildhall HQ");
    const widget = (await (await fetch(`${E2E_URL}/api/v10/guilds/${guildId}/widget.json`)).json()) as {
      presence_count: number;
      members: unknown[];
    };
    await expect(preview.getByTestId("widget-online")).toContainText(`${widget.presence_count} Members Online`);
    await expect(preview.getByRole("list", { name: "Members online" }).getByRole("listitem")).toHaveCount(
      widget.members.length,
    );
    expect(widget.members.length).toBeGreaterThan(0);
    await expect(preview.getByRole("list", { name: "Voice channels" })).toContainText("Lounge");
    await expect(preview.getByRole("link", { name: "Join Server" })).toHaveAttribute("href", /\/invite\//);

    const images = page.locator("img[data-style]");
    await expect(images).toHaveCount(5);
    for (const style of ["shield", "banner1", "banner2", "banner3", "banner4"]) {
      const image = page.locator(`img[data-style="${style}"]`);
      await expect(image).toHaveAttribute(
        "src",
        new RegExp(`/api/v10/guilds/${guildId}/widget\\.png\\?style=${style}$`),
      );
      await expect
        .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
        .toBeGreaterThan(0);
    }
    await expect(page.getByTestId("embed-iframe-code")).toContainText(`/widget?id=${guildId}&theme=dark`);
    await page.getByRole("radio", { name: /Banner 4/ }).check();
    await expect(page.getByTestId("embed-image-code")).toContainText("widget.png?style=banner4");
    // A page opened from a file cannot frame the widget: said beside the iframe, with a plain link that works there.
    await expect(page.locator("#embed-iframe-note")).toContainText("a file: address");
    await expect(page.getByTestId("embed-link-code")).toContainText(
      `/widget?id=${guildId}&theme=dark">Guildhall HQ on Discord</a>`,
    );
    await shot(page, "widget");

    await page.getByLabel("Invite channel").selectOption({ label: "#welcome" });
    await page.getByRole("button", { name: "Save widget settings" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved: the widget is on." })).toBeVisible();
    await expect
      .poll(async () => (await call<{ channel_id: string | null }>("GET", `/guilds/${guildId}/widget`)).body.channel_id)
      .toBe(world.channelId("welcome"));

    // The iframe snippet's page renders the same widget for anyone.
    const embed = await page.context().newPage();
    await embed.goto(`/widget?id=${guildId}&theme=dark`);
    await expect(embed.getByTestId("widget-name")).toHaveText("Guildhall HQ");
    await embed.close();
  } finally {
    await call("PATCH", `/guilds/${guildId}/widget`, original);
  }
});

test("welcome screen: edit the description and channels, see the preview, save, and read it back from the API", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const { world, call } = api();
  const guildId = world.guildId;
  type Screen = APIGuildWelcomeScreen;
  const original = (await call<Screen>("GET", `/guilds/${guildId}/welcome-screen`)).body;
  expect(original.welcome_channels).toHaveLength(3);
  try {
    await signIn(page, "mod", `/guilds/${guildId}/welcome-screen`);
    const preview = page.getByRole("region", { name: "Welcome screen preview" });
    await expect(preview.getByTestId("welcome-preview-description")).toHaveText(original.description ?? "");

    await page.getByLabel("Server description").fill("Welcome, e2e! Read the rules first.");
    await expect(preview.getByTestId("welcome-preview-description")).toHaveText("Welcome, e2e! Read the rules first.");

    await page.getByRole("button", { name: "Add channel" }).click();
    await page.getByLabel("Channel 4", { exact: true }).selectOption({ label: "#introductions" });
    const description = page.getByLabel("Description 4", { exact: true });
    await page.getByRole("button", { name: "Save welcome screen" }).click();
    await expect(page.getByText("The description must be between 1 and 50 characters.")).toBeVisible();
    await description.fill("Introduce yourself");
    await page.getByLabel("Emoji 4", { exact: true }).selectOption({ label: ":guildhall:" });
    await expect(preview.getByRole("list", { name: "Suggested channels" }).getByRole("listitem")).toHaveCount(4);
    await expect(preview).toContainText("#introductions");
    await expect(preview).toContainText(":guildhall:");
    await shot(page, "welcome-screen");

    await page.getByRole("button", { name: "Save welcome screen" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: "Saved the welcome screen (on, 4 channels)" }),
    ).toBeVisible();
    const saved = (await call<Screen>("GET", `/guilds/${guildId}/welcome-screen`)).body;
    expect(saved.description).toBe("Welcome, e2e! Read the rules first.");
    expect(saved.welcome_channels).toHaveLength(4);
    expect(saved.welcome_channels[3]).toMatchObject({
      channel_id: world.channelId("introductions"),
      description: "Introduce yourself",
      emoji_name: "guildhall",
    });
    expect(saved.welcome_channels[3].emoji_id).toMatch(/^\d+$/);
    expect(saved.welcome_channels.slice(0, 3)).toEqual(original.welcome_channels);

    // The history reads the change in words: the channels by name with their emoji and description, no JSON.
    await page.goto(`/guilds/${guildId}/audit-history?source=dashboard`);
    const entry = page
      .getByRole("table", { name: "Audit history" })
      .locator("tbody tr")
      .filter({ hasText: "changed the welcome screen" })
      .first();
    await expect(entry).toContainText("#introductions :guildhall: “Introduce yourself”");
    await expect(entry).not.toContainText("channel_id");
    await expect(entry).not.toContainText("{");
    await shot(page, "welcome-screen-history");
  } finally {
    await call("PATCH", `/guilds/${guildId}/welcome-screen`, {
      description: original.description,
      welcome_channels: original.welcome_channels,
    });
  }
});
