"use server";

// Server actions of the AutoMod page: create, modify (the editor, and the switch beside a rule) and delete a rule.
import { PermissionFlagsBits as P, type APIAutoModerationRule } from "discord-api-types/v10";
import { describeMissing } from "@/lib/discord/permissions";
import { guildAction } from "./guild-action";
import { firstRefusal, type ModeratorCheck } from "./moderator";
import {
  CreateAutoModerationRuleInputSchema,
  DeleteAutoModerationRuleInputSchema,
  ModifyAutoModerationRuleInputSchema,
  SetAutoModerationRuleEnabledInputSchema,
  createRuleBody,
  modifyRuleBody,
  ruleFieldPath,
  ruleSnapshot,
  type AutoModerationRuleFormValues,
} from "./schemas/auto-moderation";

const ruleName = (before: unknown) => (before as { name?: string } | null | undefined)?.name ?? null;
const ruleTarget = (id: string | null, name: string | null) => ({ type: "automod-rule", id, name });

/**
 * A timeout action times members out: the API judges Moderate Members for it besides Manage Server (the policy
 * table's note), and so does bot mode's guard, where the API sees only the bot.
 */
const timeoutBlock = (check: ModeratorCheck, values: Pick<AutoModerationRuleFormValues, "timeout">) =>
  values.timeout && !check.has(P.ModerateMembers)
    ? `a timeout action ${describeMissing(check.permissions, P.ModerateMembers)}`
    : null;

/** POST /guilds/{guild.id}/auto-moderation/rules: Create Auto Moderation Rule */
export const createAutoModerationRuleAction = guildAction({
  action: "Create Auto Moderation Rule",
  schema: CreateAutoModerationRuleInputSchema,
  target: (_input, { result }) => {
    const rule = result as APIAutoModerationRule | undefined;
    return ruleTarget(rule?.id ?? null, rule?.name ?? null);
  },
  authorize: (check, input) => firstRefusal(check.may("Create Auto Moderation Rule"), timeoutBlock(check, input)),
  request: (input) => createRuleBody(input),
  run: ({ api, guildId, input, reason }) => api.autoModeration.create(guildId, createRuleBody(input), { reason }),
  after: ruleSnapshot,
  fieldPath: ruleFieldPath,
  message: (rule) => `Created the rule ${rule.name}.`,
});

/** PATCH /guilds/{guild.id}/auto-moderation/rules/{rule.id}: Modify Auto Moderation Rule (the editor) */
export const modifyAutoModerationRuleAction = guildAction({
  action: "Modify Auto Moderation Rule",
  schema: ModifyAutoModerationRuleInputSchema,
  target: (input, { before, result }) =>
    ruleTarget(input.ruleId, (result as APIAutoModerationRule | undefined)?.name ?? ruleName(before)),
  authorize: (check, input) => firstRefusal(check.may("Modify Auto Moderation Rule"), timeoutBlock(check, input)),
  request: (input) => modifyRuleBody(input),
  before: async ({ api, guildId, input }) => ruleSnapshot(await api.autoModeration.get(guildId, input.ruleId)),
  run: ({ api, guildId, input, reason }) =>
    api.autoModeration.edit(guildId, input.ruleId, modifyRuleBody(input), { reason }),
  after: ruleSnapshot,
  fieldPath: ruleFieldPath,
  message: (rule) => `Saved ${rule.name}.`,
});

/** PATCH /guilds/{guild.id}/auto-moderation/rules/{rule.id}: Modify Auto Moderation Rule (its switch: `enabled`) */
export const setAutoModerationRuleEnabledAction = guildAction({
  action: "Modify Auto Moderation Rule",
  schema: SetAutoModerationRuleEnabledInputSchema,
  target: (input, { before, result }) =>
    ruleTarget(input.ruleId, (result as APIAutoModerationRule | undefined)?.name ?? ruleName(before)),
  // Turning a rule with a timeout back on is judged as the API judges the rule's whole body: Manage Server alone.
  authorize: (check) => check.may("Modify Auto Moderation Rule"),
  request: (input) => ({ enabled: input.enabled }),
  before: async ({ api, guildId, input }) => ruleSnapshot(await api.autoModeration.get(guildId, input.ruleId)),
  run: ({ api, guildId, input, reason }) =>
    api.autoModeration.edit(guildId, input.ruleId, { enabled: input.enabled }, { reason }),
  after: ruleSnapshot,
  message: (rule) => `${rule.enabled ? "Turned on" : "Turned off"} ${rule.name}.`,
});

/** DELETE /guilds/{guild.id}/auto-moderation/rules/{rule.id}: Delete Auto Moderation Rule */
export const deleteAutoModerationRuleAction = guildAction({
  action: "Delete Auto Moderation Rule",
  schema: DeleteAutoModerationRuleInputSchema,
  target: (input, { before }) => ruleTarget(input.ruleId, ruleName(before)),
  authorize: (check) => check.may("Delete Auto Moderation Rule"),
  request: () => ({}),
  before: async ({ api, guildId, input }) => ruleSnapshot(await api.autoModeration.get(guildId, input.ruleId)),
  run: ({ api, guildId, input, reason }) => api.autoModeration.delete(guildId, input.ruleId, { reason }),
  after: () => null,
  message: (_r, _input, { before }) => `Deleted ${ruleName(before) ?? "the rule"}.`,
});
