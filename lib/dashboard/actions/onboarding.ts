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
    // Options assign roles: like Discord, only roles below the moderator's highest. Unknown roles, @everyone and
    // managed roles are the API's to refuse on the field (400), as it does for the moderator's own token.
    const roleIds = new Set(input.prompts.flatMap((prompt) => prompt.options.flatMap((option) => option.role_ids)));
    const judged = [...roleIds].filter((id) => {
      const role = check.roles.find((r) => r.id === id);
      return role !== undefined && role.id !== check.guildId && !role.managed;
    });
    return firstRefusal(check.may("Modify Guild Onboarding"), ...judged.map((id) => check.roleBlock(id)));
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
