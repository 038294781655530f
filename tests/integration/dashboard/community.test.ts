// The widget, welcome screen and onboarding actions against the built-in API, through the action client the app uses.
import { describe, expect, it } from "vitest";
import type { GuildActionDefinition } from "@/lib/dashboard/actions/action-client";
import { modifyGuildOnboardingAction } from "@/lib/dashboard/actions/onboarding";
import { modifyGuildWelcomeScreenAction } from "@/lib/dashboard/actions/welcome-screen";
import { modifyGuildWidgetAction } from "@/lib/dashboard/actions/widget";
import { onboardingValues } from "@/lib/dashboard/actions/schemas/onboarding";
import { testServerForFile } from "../harness";
import { actionAs } from "./harness";

const server = testServerForFile();

const as = <S extends Parameters<typeof actionAs>[3]["schema"], R>(
  who: "mod" | "helper",
  mode: "bot" | "user",
  definition: GuildActionDefinition<S, R>,
) => actionAs(server, who, mode, definition);

const get = async <T>(path: string) =>
  (await (await server.api("bot", "GET", `/guilds/${server.world.guildId}${path}`)).json()) as T;

describe("Modify Guild Onboarding", () => {
  it("in bot mode, refuses a helper (needs Manage Roles and Manage Server) before the API is called", async () => {
    const guildId = server.world.guildId;
    const current = onboardingValues(await get("/onboarding"));
    const { run, audit } = as("helper", "bot", modifyGuildOnboardingAction.definition);
    const result = await run({ guildId, ...current, enabled: true });
    expect(result).toMatchObject({
      ok: false,
      status: 403,
      error: "You can't do this: needs Manage Roles and Manage Server.",
    });
    expect(audit[0]).toMatchObject({ action: "Modify Guild Onboarding", status: "error", httpStatus: 403 });
  });

  it("passes on the API's refusal to enable with too few default channels, on the field", async () => {
    const guildId = server.world.guildId;
    const current = onboardingValues(await get("/onboarding"));
    const { run, audit } = as("mod", "user", modifyGuildOnboardingAction.definition);
    const result = await run({ guildId, ...current, enabled: true });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.status).toBe(400);
    expect(result.fieldErrors.default_channel_ids?.join(" ")).toMatch(/at least 7 default channels/);
    expect(audit[0]).toMatchObject({ status: "error", httpStatus: 400 });
    expect((await get<{ enabled: boolean }>("/onboarding")).enabled).toBe(false);
  });

  it("enables with seven default channels, keeps the questions, and records before and after", async () => {
    const guildId = server.world.guildId;
    const current = onboardingValues(await get("/onboarding"));
    const c = server.world.channels;
    const defaults = [...current.default_channel_ids, c["off-topic"], c.welcome, c.introductions];
    const { run, audit } = as("mod", "bot", modifyGuildOnboardingAction.definition);
    const result = await run({ guildId, ...current, enabled: true, default_channel_ids: defaults, reason: "launch" });
    expect(result).toMatchObject({ ok: true, message: "Saved onboarding (enabled, 7 default channels, 1 question)." });
    const saved = await get<{ enabled: boolean; default_channel_ids: string[]; prompts: unknown[] }>("/onboarding");
    expect(saved.enabled).toBe(true);
    expect(saved.default_channel_ids).toEqual(defaults);
    expect(onboardingValues(saved as never).prompts).toEqual(current.prompts);
    expect(audit[0]).toMatchObject({
      status: "success",
      reason: "launch",
      before: { enabled: false },
      after: { enabled: true },
    });
  });

  it("refuses an option title over 50 characters before calling the API", async () => {
    const guildId = server.world.guildId;
    const current = onboardingValues(await get("/onboarding"));
    current.prompts[0].options[0].title = "x".repeat(51);
    const { run, audit } = as("mod", "user", modifyGuildOnboardingAction.definition);
    const result = await run({ guildId, ...current });
    expect(result).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { "prompts.0.options.0.title": ["The title must be between 1 and 50 characters."] },
    });
    expect(audit).toHaveLength(0);
  });
});

describe("Modify Guild Welcome Screen", () => {
  it("saves a custom emoji by id; refuses a word as a standard emoji and a sixth channel before the API", async () => {
    const guildId = server.world.guildId;
    const emoji = (await get<{ emojis: Array<{ id: string; name: string }> }>("")).emojis[0];
    const c = server.world.channels;
    const { run } = as("mod", "user", modifyGuildWelcomeScreenAction.definition);
    const channel = (id: string, extra: object = {}) => ({
      channel_id: id,
      description: "Start here",
      emoji_id: null,
      emoji_name: "👋",
      ...extra,
    });

    const wordy = await run({
      guildId,
      enabled: true,
      description: "",
      welcome_channels: [channel(c.general, { emoji_name: "wave" })],
    });
    expect(wordy).toMatchObject({
      ok: false,
      fieldErrors: { "welcome_channels.0.emoji_name": [expect.stringMatching(/standard emoji/)] },
    });
    const six = await run({
      guildId,
      enabled: true,
      description: "",
      welcome_channels: ["general", "help", "rules", "memes", "welcome", "introductions"].map((n) => channel(c[n])),
    });
    expect(six).toMatchObject({ ok: false, fieldErrors: { welcome_channels: ["At most 5 channels."] } });

    const result = await run({
      guildId,
      enabled: true,
      description: "Hi!",
      welcome_channels: [channel(c.general), channel(c.help, { emoji_id: emoji.id, emoji_name: emoji.name })],
    });
    expect(result.ok).toBe(true);
    const saved = await get<{
      description: string;
      welcome_channels: Array<{ emoji_id: string | null; emoji_name: string }>;
    }>("/welcome-screen");
    expect(saved.description).toBe("Hi!");
    expect(saved.welcome_channels[1]).toMatchObject({ emoji_id: emoji.id, emoji_name: emoji.name });
  });
});

describe("Modify Guild Widget", () => {
  it("turns the widget off and back on with another invite channel", async () => {
    const guildId = server.world.guildId;
    const { run, audit } = as("mod", "bot", modifyGuildWidgetAction.definition);
    expect(await run({ guildId, enabled: false, channel_id: null })).toMatchObject({
      ok: true,
      message: "Saved: the widget is off.",
    });
    expect((await server.api(null, "GET", `/guilds/${guildId}/widget.json`)).status).toBe(403);
    const welcome = server.world.channels.welcome;
    expect(await run({ guildId, enabled: true, channel_id: welcome })).toMatchObject({
      ok: true,
      data: { enabled: true, channel_id: welcome },
    });
    expect((await server.api(null, "GET", `/guilds/${guildId}/widget.json`)).status).toBe(200);
    expect(audit.map((a) => a.status)).toEqual(["success", "success"]);
  });
});
