"use server";

// Server actions of the widget page.
import { guildAction } from "./guild-action";
import { ModifyWidgetInputSchema } from "./schemas/widget";

/** PATCH /guilds/{guild.id}/widget: Modify Guild Widget */
export const modifyGuildWidgetAction = guildAction({
  action: "Modify Guild Widget",
  schema: ModifyWidgetInputSchema,
  target: (input) => ({ type: "widget", id: input.guildId, name: "Server widget" }),
  authorize: (check) => check.may("Modify Guild Widget"),
  before: ({ api, guildId }) => api.guilds.getWidgetSettings(guildId),
  run: ({ api, guildId, input, reason }) =>
    api.guilds.editWidgetSettings(guildId, { enabled: input.enabled, channel_id: input.channel_id }, { reason }),
  after: (settings) => settings,
  message: (settings) => (settings.enabled ? "Saved: the widget is on." : "Saved: the widget is off."),
});
