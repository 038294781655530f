"use server";

// Server actions of the integrations page.
import { guildAction } from "./guild-action";
import { DeleteIntegrationInputSchema } from "./schemas/integrations";

/** The integration's name as the API listed it before the change, or null. */
const integrationName = (before: unknown) => (before as { name?: string } | null | undefined)?.name ?? null;

/** DELETE /guilds/{guild.id}/integrations/{integration.id}: Delete Guild Integration (its bot, if any, is kicked). */
export const deleteGuildIntegrationAction = guildAction({
  action: "Delete Guild Integration",
  schema: DeleteIntegrationInputSchema,
  target: (input, { before }) => ({ type: "integration", id: input.integrationId, name: integrationName(before) }),
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
  message: (_r, _input, { before }) => `Deleted ${integrationName(before) ?? "the integration"}.`,
});
