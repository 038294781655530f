"use server";

// Server actions of the integrations page.
import { guildAction } from "./guild-action";
import { DeleteIntegrationInputSchema } from "./schemas/integrations";

/** DELETE /guilds/{guild.id}/integrations/{integration.id}: Delete Guild Integration (its bot, if any, is kicked). */
export const deleteGuildIntegrationAction = guildAction({
  action: "Delete Guild Integration",
  schema: DeleteIntegrationInputSchema,
  target: (input) => ({ type: "integration", id: input.integrationId, name: input.integrationName ?? null }),
  authorize: (check) => check.may("Delete Guild Integration"),
  request: () => ({}),
  before: async ({ api, guildId, input }) => {
    const integration = (await api.guilds.getIntegrations(guildId)).find((i) => i.id === input.integrationId);
    return integration
      ? {
          name: integration.name,
          type: integration.type,
          account: integration.account,
          bot: integration.application?.bot?.username ?? null,
          enabled: integration.enabled,
        }
      : null;
  },
  run: ({ api, guildId, input, reason }) => api.guilds.deleteIntegration(guildId, input.integrationId, { reason }),
  after: () => null,
  message: (_r, input) => `Deleted ${input.integrationName ?? "the integration"}.`,
});
