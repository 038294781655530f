// The AutoMod page's actions against the built-in API, through the action client the app uses: bot mode's guard from
// the policy table, a rule made from the editor's values and read back in Discord's shape, the API's refusals put on
// the editor's fields (an alert channel that is not a text channel) or on the form (the seventh custom-word rule),
// the switch, and deletion, each with its history entry.
import { afterEach, describe, expect, it } from "vitest";
import type { APIAutoModerationRule } from "discord-api-types/v10";
import type { GuildActionDefinition } from "@/lib/dashboard/actions/action-client";
import {
  createAutoModerationRuleAction,
  deleteAutoModerationRuleAction,
  modifyAutoModerationRuleAction,
  setAutoModerationRuleEnabledAction,
} from "@/lib/dashboard/actions/auto-moderation";
import { newRuleValues, ruleFormValues } from "@/lib/dashboard/actions/schemas/auto-moderation";
import { AutoModerationTriggerType as Trigger } from "@/lib/discord/automod/rules";
import { testServerForFile } from "../harness";
import { actionAs } from "./harness";

const server = testServerForFile();

const as = <S extends Parameters<typeof actionAs>[3]["schema"], R>(
  who: "mod" | "helper",
  mode: "bot" | "user",
  definition: GuildActionDefinition<S, R>,
) => actionAs(server, who, mode, definition);

const rulesPath = () => `/guilds/${server.world.guildId}/auto-moderation/rules`;
const listRules = async () => (await (await server.api("bot", "GET", rulesPath())).json()) as APIAutoModerationRule[];

afterEach(async () => {
  for (const rule of await listRules())
    expect((await server.api("bot", "DELETE", `${rulesPath()}/${rule.id}`)).status).toBe(204);
});

const words = (name: string) => ({
  ...newRuleValues(Trigger.Keyword, name),
  keyword_filter: ["spoiler", "free nitro*"],
});

describe("Create Auto Moderation Rule", () => {
  it("in bot mode, refuses a helper (needs Manage Server) before the API is called", async () => {
    const guildId = server.world.guildId;
    const { run, audit } = as("helper", "bot", createAutoModerationRuleAction.definition);
    expect(await run({ guildId, ...words("Words") })).toMatchObject({
      ok: false,
      status: 403,
      error: "You can't do this: needs Manage Server.",
    });
    expect(audit[0]).toMatchObject({ action: "Create Auto Moderation Rule", status: "error", httpStatus: 403 });
    expect(await listRules()).toEqual([]);
  });

  it("makes the rule from the editor's values; it reads back into the editor as it was; the history names it", async () => {
    const guildId = server.world.guildId;
    const modLog = server.world.channels["mod-log"];
    const values = {
      ...words("Words"),
      regex_patterns: ["disc[o0]rd\\.gg/\\w+"],
      custom_message: "Keep it friendly",
      send_alert: true,
      alert_channel_id: modLog,
      timeout: true,
      timeout_seconds: 600,
    };
    const { run, audit } = as("mod", "bot", createAutoModerationRuleAction.definition);
    const result = await run({ guildId, ...values, reason: "new words" });
    expect(result).toMatchObject({ ok: true, message: "Created the rule Words." });
    const [rule] = await listRules();
    expect(ruleFormValues(rule)).toEqual(values);
    expect(audit[0]).toMatchObject({
      action: "Create Auto Moderation Rule",
      status: "success",
      target: { type: "automod-rule", id: rule.id, name: "Words" },
      after: {
        name: "Words",
        keyword_filter: ["spoiler", "free nitro*"],
        alert_channel_id: modLog,
        timeout_seconds: 600,
      },
    });
  });

  it("puts the API's refusals on the editor's fields, and a kind's cap on the form", async () => {
    const guildId = server.world.guildId;
    const { run } = as("mod", "user", createAutoModerationRuleAction.definition);
    // A voice channel is no alert channel: the API says so on the action's channel, the editor on its field.
    const voice = await run({
      guildId,
      ...words("Alert"),
      send_alert: true,
      alert_channel_id: server.world.channels.AFK,
    });
    expect(voice).toMatchObject({ ok: false, status: 400 });
    if (!voice.ok)
      expect(voice.fieldErrors).toEqual({ alert_channel_id: [expect.stringMatching(/text or announcement/)] });
    for (const rule of await listRules()) await server.api("bot", "DELETE", `${rulesPath()}/${rule.id}`);

    for (let i = 1; i <= 6; i++) expect((await run({ guildId, ...words(`Words ${i}`) })).ok).toBe(true);
    const seventh = await run({ guildId, ...words("Words 7") });
    expect(seventh).toMatchObject({ ok: false, status: 400 });
    if (!seventh.ok) expect(seventh.fieldErrors[""]).toEqual(["Maximum number of rules with trigger type 1 is 6"]);
    expect(await listRules()).toHaveLength(6);
  });
});

describe("Modify and Delete Auto Moderation Rule", () => {
  it("saves the editor, switches the rule off, and deletes it, each in the history", async () => {
    const guildId = server.world.guildId;
    const created = await as("mod", "user", createAutoModerationRuleAction.definition).run({
      guildId,
      ...words("Words"),
    });
    if (!created.ok) throw new Error(created.error);
    const ruleId = created.data.id;

    const edit = as("mod", "bot", modifyAutoModerationRuleAction.definition);
    const saved = await edit.run({ guildId, ruleId, ...words("Renamed"), allow_list: ["spoilers"] });
    expect(saved).toMatchObject({ ok: true, message: "Saved Renamed." });
    expect(edit.audit[0]).toMatchObject({
      action: "Modify Auto Moderation Rule",
      before: { name: "Words", allow_list: [] },
      after: { name: "Renamed", allow_list: ["spoilers"] },
      target: { id: ruleId, name: "Renamed" },
    });

    const toggle = as("mod", "bot", setAutoModerationRuleEnabledAction.definition);
    expect(await toggle.run({ guildId, ruleId, enabled: false })).toMatchObject({
      ok: true,
      message: "Turned off Renamed.",
    });
    expect((await listRules())[0].enabled).toBe(false);
    expect(toggle.audit[0]).toMatchObject({ request: { enabled: false }, before: { enabled: true } });

    const remove = as("mod", "bot", deleteAutoModerationRuleAction.definition);
    expect(await remove.run({ guildId, ruleId, reason: "tidy" })).toMatchObject({
      ok: true,
      message: "Deleted Renamed.",
    });
    expect(await listRules()).toEqual([]);
    expect(remove.audit[0]).toMatchObject({ action: "Delete Auto Moderation Rule", target: { name: "Renamed" } });
  });

  it("in bot mode, refuses a helper's switch", async () => {
    const guildId = server.world.guildId;
    const created = await as("mod", "user", createAutoModerationRuleAction.definition).run({
      guildId,
      ...words("Words"),
    });
    if (!created.ok) throw new Error(created.error);
    const { run } = as("helper", "bot", setAutoModerationRuleEnabledAction.definition);
    expect(await run({ guildId, ruleId: created.data.id, enabled: false })).toMatchObject({ ok: false, status: 403 });
    expect((await listRules())[0].enabled).toBe(true);
  });
});
