// Delete Guild Integration: the integration by id (the history names it from the API).
import { z } from "zod";
import { guildActionBase, snowflakeSchema } from "./common";

export const DeleteIntegrationInputSchema = z.object({
  ...guildActionBase,
  integrationId: snowflakeSchema,
});
