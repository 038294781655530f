"use server";

// Server actions of the onboarding page.
import { guildAction } from "./guild-action";
import { firstRefusal } from "./moderator";
import { ModifyOnboardingInputSchema } from "./schemas/onboarding";

/** PUT /guilds/{guild.id}/onboarding: Modify Guild Onboarding (the whole configuration, as the editor holds it) */
export const modifyGuildOnboardingAction = guildAction({
  action: "Modify Guild Onboarding",
  schema: ModifyOnboardingInputSchema,
  target: (input) => ({ type: "onboarding", id: input.guildId, name: "Onboarding" }),
  authorize: (check, input) => {
    // Options assign roles: like Discord, only roles below the moderator's highest.
    const roleIds = new Set(input.prompts.flatMap((prompt) => prompt.options.flatMap((option) => option.role_ids)));
    return firstRefusal(check.may("Modify Guild Onboarding"), ...[...roleIds].map((id) => check.roleBlock(id)));
  },
  before: ({ api, guildId }) => api.guilds.getOnboarding(guildId),
  run: ({ api, guildId, input, reason }) =>
    api.guilds.editOnboarding(
      guildId,
      {
        enabled: input.enabled,
        mode: input.mode,
        default_channel_ids: input.default_channel_ids,
        prompts: input.prompts.map((prompt) => ({
          ...prompt,
          options: prompt.options.map((option) => ({ ...option, description: option.description || null })),
        })),
      },
      { reason },
    ),
  after: (onboarding) => onboarding,
  message: (onboarding) =>
    `Saved onboarding (${onboarding.enabled ? "enabled" : "disabled"}, ${onboarding.default_channel_ids.length} default channels, ${onboarding.prompts.length} question${onboarding.prompts.length === 1 ? "" : "s"}).`,
});
