"use server";

// Server actions of the welcome screen page.
import { GuildFeature } from "discord-api-types/v10";
import { guildAction } from "./guild-action";
import { ModifyWelcomeScreenInputSchema } from "./schemas/welcome-screen";

/** PATCH /guilds/{guild.id}/welcome-screen: Modify Guild Welcome Screen */
export const modifyGuildWelcomeScreenAction = guildAction({
  action: "Modify Guild Welcome Screen",
  schema: ModifyWelcomeScreenInputSchema,
  target: (input) => ({ type: "welcome-screen", id: input.guildId, name: "Welcome screen" }),
  authorize: (check) => check.may("Modify Guild Welcome Screen"),
  before: async ({ api, guildId }) => {
    // The enabled flag is the guild's WELCOME_SCREEN_ENABLED feature, not a field of the welcome screen.
    const [screen, guild] = await Promise.all([api.guilds.getWelcomeScreen(guildId), api.guilds.get(guildId)]);
    return { enabled: guild.features.includes(GuildFeature.WelcomeScreenEnabled), ...screen };
  },
  run: ({ api, guildId, input, reason }) =>
    api.guilds.editWelcomeScreen(
      guildId,
      { enabled: input.enabled, description: input.description || null, welcome_channels: input.welcome_channels },
      { reason },
    ),
  after: (screen, { input }) => ({ enabled: input.enabled, ...screen }),
  message: (screen, input) =>
    `Saved the welcome screen (${input.enabled ? "on" : "off"}, ${screen.welcome_channels.length} channel${screen.welcome_channels.length === 1 ? "" : "s"}).`,
});
