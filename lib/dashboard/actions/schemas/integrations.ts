// Delete Guild Integration: the integration, and its name for the history.
import { z } from "zod";
import { guildActionBase, snowflakeSchema } from "./common";

export const DeleteIntegrationInputSchema = z.object({
  ...guildActionBase,
  integrationId: snowflakeSchema,
  integrationName: z.string().max(100).optional(),
});
