// The AutoMod section in a real browser, signed in through OAuth2 as `mod` (Manage Server, Timeout Members): a keyword
// rule made in the editor (the keyword counter live, an over-long keyword and a broken regex pattern flagged as they
// are typed, the pattern with the matcher's own message, and nothing saved while they are), then Try it names the rule
// and highlights what matched; its switch turns it off, and Delete removes it. Custom-word rules stop at Discord's cap
// of 6 with the reason. Every change is checked through the guild API with the demo bot's token (real HTTP, no mocks),
// and whatever a test made is deleted after it.
import AxeBuilder from "@axe-core/playwright";
import type { APIAutoModerationRule } from "discord-api-types/v10";
import { expect, test, type Page } from "@playwright/test";
import { checkRegexPattern } from "@/lib/discord/automod/matcher";
import { RULES_PER_TRIGGER_TYPE } from "@/lib/discord/automod/rules";
import { api, screenshot, signIn } from "./helpers";

const shot = (page: Page, name: string) => screenshot(page, `automod-${name}`);

/** Serious and critical axe violations on the page as it is, one line each. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

test.describe.configure({ mode: "serial" });

/** The guild's rules, and a remover for the ones a test made (by name prefix). */
function rules() {
  const { world, call } = api();
  const path = `/guilds/${world.guildId}/auto-moderation/rules`;
  const list = async () => {
    const answer = await call<APIAutoModerationRule[]>("GET", path);
    expect(answer.status).toBe(200);
    return answer.body;
  };
  const removeNamed = async (prefix: string) => {
    for (const rule of await list())
      if (rule.name.startsWith(prefix)) expect((await call("DELETE", `${path}/${rule.id}`)).status).toBe(204);
  };
  return { world, call, path, list, removeNamed };
}

test("a keyword rule: counted and checked as typed, saved, tried, switched off and deleted", async ({ page }) => {
  test.setTimeout(150_000);
  const { world, call, path, list, removeNamed } = rules();
  const name = "e2e custom words";
  await removeNamed(name);
  try {
    await signIn(page, "mod", `/guilds/${world.guildId}/automod`);
    const group = page.getByRole("region", { name: "Block custom words" });
    await group.getByRole("button", { name: "Create rule" }).click();
    const dialog = page.getByRole("dialog", { name: "Create rule: Block custom words" });
    await dialog.getByLabel("Rule name").fill(name);

    // The keyword counter moves as lines are typed; a keyword over 60 characters is flagged at once.
    const keywords = dialog.getByLabel("Keywords");
    const keywordCount = dialog.getByTestId("automod-keywords-count");
    await expect(keywordCount).toHaveText("0 / 1,000");
    await keywords.pressSequentially("spoiler\nfree nitro*\n");
    await expect(keywordCount).toHaveText("2 / 1,000");
    await keywords.pressSequentially("x".repeat(61));
    await expect(keywordCount).toHaveText("3 / 1,000");
    await expect(dialog.getByTestId("automod-keywords-problems")).toContainText("At most 60 characters.");
    await keywords.fill("spoiler\nfree nitro*");
    await expect(keywordCount).toHaveText("2 / 1,000");
    await expect(dialog.getByTestId("automod-keywords-problems")).toHaveCount(0);

    // A regex pattern the engine refuses is flagged as it is typed, with the engine's own message.
    const broken = "discord\\.gg/(";
    const verdict = checkRegexPattern(broken);
    expect(verdict.ok).toBe(false);
    const regex = dialog.getByLabel("Regex patterns");
    await regex.pressSequentially(broken);
    const regexProblems = dialog.getByTestId("automod-regex-problems");
    await expect(regexProblems).toContainText(verdict.ok ? "" : verdict.message);
    await expect(dialog.getByTestId("automod-regex-count")).toHaveText("1 / 10");
    // Nothing is sent while it stands.
    await dialog.getByRole("button", { name: "Create rule" }).click();
    await expect(dialog).toBeVisible();
    expect((await list()).some((rule) => rule.name === name)).toBe(false);
    await shot(page, "regex-refused");

    await regex.fill("disc[o0]rd\\.gg/\\w+");
    await expect(regexProblems).toHaveCount(0);
    await dialog.getByLabel("Custom message").fill("Keep it friendly");
    await dialog.getByRole("switch", { name: "Send an alert" }).check({ force: true });
    await dialog.getByLabel("Alert channel").selectOption({ label: "#mod-log" });
    await dialog.getByLabel("Reason (optional)").fill("e2e automod");
    await dialog.getByRole("group", { name: "Exemptions" }).scrollIntoViewIfNeeded();
    await shot(page, "editor-responses");
    await dialog.getByRole("button", { name: "Create rule" }).click();
    await expect(page.getByRole("status").filter({ hasText: `Created the rule ${name}.` })).toBeVisible();
    await expect(dialog).toBeHidden();

    // The API holds the rule as Discord shapes it.
    const rule = (await list()).find((r) => r.name === name)!;
    expect(rule).toMatchObject({
      trigger_type: 1,
      event_type: 1,
      enabled: true,
      trigger_metadata: { keyword_filter: ["spoiler", "free nitro*"], regex_patterns: ["disc[o0]rd\\.gg/\\w+"] },
      actions: [
        { type: 1, metadata: { custom_message: "Keep it friendly" } },
        { type: 2, metadata: { channel_id: world.channelId("mod-log") } },
      ],
    });
    const row = group.locator(`[data-rule-id="${rule.id}"]`);
    await expect(row).toContainText("2 keywords, 1 regex pattern");
    await expect(row).toContainText("Send an alert to #mod-log");

    // Try it: the rule, the keyword and the matched text highlighted; then a message nothing matches.
    const tryIt = page.getByRole("region", { name: "Try it" });
    const sample = tryIt.getByLabel("Sample message");
    await sample.fill("get free nitroooo here");
    const hit = tryIt.getByTestId("automod-hit").filter({ hasText: name });
    await expect(hit).toContainText("free nitro*");
    await expect(hit.locator("mark")).toHaveText("free nitroooo");
    await shot(page, "try-it");
    await sample.fill("join discord.gg/abc now");
    await expect(hit.locator("mark")).toHaveText("discord.gg/abc");
    await sample.fill("hello there, how are you");
    await expect(tryIt.getByTestId("automod-try-result")).toHaveText("No rule matches.");

    // The switch turns it off: the API says so, and Try it no longer tries it.
    await row.getByRole("switch", { name: `Enable ${name}` }).uncheck({ force: true });
    await expect(page.getByRole("status").filter({ hasText: `Turned off ${name}.` })).toBeVisible();
    await expect
      .poll(async () => (await call<APIAutoModerationRule>("GET", `${path}/${rule.id}`)).body.enabled)
      .toBe(false);
    await expect(row.getByText("Off", { exact: true })).toBeVisible();
    await sample.fill("get free nitroooo here");
    await expect(tryIt.getByTestId("automod-hit").filter({ hasText: name })).toHaveCount(0);

    // Delete, with its reason.
    await row.getByRole("button", { name: `Delete ${name}` }).click();
    const confirm = page.getByRole("dialog", { name: `Delete ${name}?` });
    await confirm.getByLabel("Reason").fill("e2e cleanup");
    await confirm.getByRole("button", { name: "Delete rule" }).click();
    await expect(page.getByRole("status").filter({ hasText: `Deleted ${name}.` })).toBeVisible();
    await expect.poll(async () => (await call("GET", `${path}/${rule.id}`)).status).toBe(404);
    await expect(group.locator(`[data-rule-id="${rule.id}"]`)).toHaveCount(0);
  } finally {
    await removeNamed(name);
  }
});

test("custom-word rules stop at Discord's cap, with the reason; the editor shows the rule the API holds; axe finds nothing serious", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { world, call, path, list, removeNamed } = rules();
  const prefix = "e2e cap ";
  await removeNamed(prefix);
  const cap = RULES_PER_TRIGGER_TYPE[1];
  const existing = (await list()).filter((rule) => rule.trigger_type === 1).length;
  try {
    for (let i = existing; i < cap; i++) {
      const made = await call("POST", path, {
        name: `${prefix}${i + 1}`,
        event_type: 1,
        trigger_type: 1,
        trigger_metadata: { keyword_filter: [`word${i}`] },
        actions: [{ type: 1 }],
        enabled: i % 2 === 0,
        exempt_roles: [world.roleId("Moderator")],
      });
      expect(made.status).toBe(200);
    }
    // The API refuses a seventh as Discord does.
    const refused = await call<{ code: number }>("POST", path, {
      name: `${prefix}over`,
      event_type: 1,
      trigger_type: 1,
      trigger_metadata: { keyword_filter: ["over"] },
      actions: [{ type: 1 }],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe(50035);

    await signIn(page, "mod", `/guilds/${world.guildId}/automod`);
    const group = page.getByRole("region", { name: "Block custom words" });
    await expect(group.getByRole("button", { name: "Create rule" })).toBeDisabled();
    // No serious accessibility problem with rules on and off, nor in the editor (axe-core).
    await expect(group).toContainText(`Can't create another: a server can have at most ${cap} rules of this kind.`);
    await expect(group).toContainText(`${cap} / ${cap} rules`);
    await shot(page, "cap");
    expect(await seriousViolations(page)).toEqual([]);

    // One of them in the editor: what the API holds, its exempt role among the chips.
    const first = (await list()).find((rule) => rule.name.startsWith(prefix))!;
    await group.getByRole("button", { name: `Edit ${first.name}` }).click();
    const dialog = page.getByRole("dialog", { name: `Edit ${first.name}` });
    await expect(dialog.getByLabel("Keywords")).toHaveValue(first.trigger_metadata.keyword_filter!.join("\n"));
    await expect(dialog.getByRole("list", { name: "Exempt roles" })).toContainText("Moderator");
    await shot(page, "editor");
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, "phone");
  } finally {
    await removeNamed(prefix);
  }
});

test("a member-profile rule blocks a member whose new nickname matches: Try it on a name, the members filter, the panel's notice", async ({
  page,
}) => {
  test.setTimeout(150_000);
  const { world, call, list, removeNamed } = rules();
  const guildId = world.guildId;
  const name = "e2e member names";
  const member = world.spareMember(30);
  const memberPath = `/guilds/${guildId}/members/${member.id}`;
  await removeNamed(name);
  try {
    await signIn(page, "mod", `/guilds/${guildId}/automod`);
    const group = page.getByRole("region", { name: "Block words in member profile names" });
    await group.getByRole("button", { name: "Create rule" }).click();
    const dialog = page.getByRole("dialog", { name: "Create rule: Block words in member profile names" });
    await dialog.getByLabel("Rule name").fill(name);
    await dialog.getByLabel("Keywords").fill("quarantined");
    // Member-profile rules block interactions (on for a new rule) or alert; they never block a message or time out.
    await expect(dialog.getByRole("switch", { name: "Block member interactions" })).toBeChecked();
    await expect(dialog.getByRole("switch", { name: "Block message" })).toHaveCount(0);
    await expect(dialog.getByRole("switch", { name: "Timeout member" })).toHaveCount(0);
    await dialog.getByRole("button", { name: "Create rule" }).click();
    await expect(page.getByRole("status").filter({ hasText: `Created the rule ${name}.` })).toBeVisible();
    const rule = (await list()).find((r) => r.name === name)!;
    expect(rule).toMatchObject({ trigger_type: 6, event_type: 2, actions: [{ type: 4 }] });

    // Try it on a name: a message is not judged by this rule, a name is.
    const tryIt = page.getByRole("region", { name: "Try it" });
    await tryIt.getByLabel("Sample message").fill("quarantined e2e");
    await expect(tryIt.getByTestId("automod-hit").filter({ hasText: name })).toHaveCount(0);
    await tryIt.getByText("Member name", { exact: true }).click();
    await tryIt.getByLabel("Sample name").fill("the quarantined one");
    await expect(tryIt.getByTestId("automod-hit").filter({ hasText: name }).locator("mark")).toHaveText("quarantined");

    // A new nickname that matches: the API blocks the member (the member flag).
    expect((await call("PATCH", memberPath, { nick: "quarantined e2e" })).status).toBe(200);
    const flags = (await call<{ flags: number }>("GET", memberPath)).body.flags;
    expect(flags & 128).toBe(128);

    // The members table's filter finds them, with the badge; their panel says why.
    await page.goto(`/guilds/${guildId}/members`);
    await page.getByText("Blocked by AutoMod", { exact: true }).click();
    await expect(page).toHaveURL(/[?&]automod=1/);
    const table = page.getByRole("table", { name: /Members/ });
    await expect(table.locator("[data-member-link]")).toHaveCount(1);
    await expect(table.locator(`[data-member-link="${member.id}"]`)).toBeVisible();
    await expect(table).toContainText("Blocked by AutoMod");
    await table.getByRole("link", { name: "Open quarantined e2e" }).click();
    const panel = page.getByRole("dialog", { name: /quarantined e2e/ });
    await expect(panel.getByTestId("automod-quarantine-notice")).toContainText(
      "Blocked by AutoMod: name matched a member-profile rule",
    );
    await shot(page, "member-blocked");
  } finally {
    await removeNamed(name);
    expect((await call("PATCH", memberPath, { nick: null })).status).toBe(200);
  }
  // The rule gone, nobody stays blocked by it.
  expect((await call<{ flags: number }>("GET", memberPath)).body.flags & 128).toBe(0);
});
