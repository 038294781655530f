"use server";

// Server actions of the settings page.
import { PermissionFlagsBits as P, type RESTPatchAPIGuildJSONBody } from "discord-api-types/v10";
import { MUTABLE_GUILD_FEATURES } from "@/lib/discord/limits";
import { guildAction } from "./guild-action";
import { firstRefusal } from "./moderator";
import { ModifyGuildInputSchema } from "./schemas/guilds";
import { describeDataUri, pick } from "./snapshots";

const IMAGE_FIELDS = ["icon", "banner", "splash", "discovery_splash"] as const;
const changedKeys = (input: Record<string, unknown>) =>
  Object.keys(input).filter((key) => key !== "guildId" && key !== "reason" && input[key] !== undefined);

/** PATCH /guilds/{guild.id}: Modify Guild, with only the fields that changed. */
export const modifyGuildAction = guildAction({
  action: "Modify Guild",
  schema: ModifyGuildInputSchema,
  target: (input, { before, result }) => ({
    type: "guild",
    id: input.guildId,
    name: (result as { name?: string } | undefined)?.name ?? (before as { name?: string } | undefined)?.name ?? null,
  }),
  authorize: (check, input) => {
    let adminFeatureChange = false;
    if (input.features) {
      for (const [feature, permission] of Object.entries(MUTABLE_GUILD_FEATURES)) {
        if (
          permission === "ADMINISTRATOR" &&
          input.features.includes(feature as never) !== check.guild.features.includes(feature as never)
        )
          adminFeatureChange = true;
      }
    }
    return firstRefusal(check.may("Modify Guild"), adminFeatureChange ? check.missing(P.Administrator) : null);
  },
  request: (input) =>
    Object.fromEntries(
      changedKeys(input).map((key) => [key, describeDataUri((input as Record<string, unknown>)[key])]),
    ),
  before: async ({ api, guildId, input }) => {
    const guild = await api.guilds.get(guildId);
    return { name: guild.name, ...pick(guild, changedKeys(input)) };
  },
  run: ({ api, guildId, input, reason }) => {
    const body = Object.fromEntries(
      changedKeys(input).map((key) => [key, (input as Record<string, unknown>)[key]]),
    ) as RESTPatchAPIGuildJSONBody;
    return api.guilds.edit(guildId, body, { reason });
  },
  after: (guild, { input }) => ({ name: guild.name, ...pick(guild, changedKeys(input)) }),
  message: (_guild, input) => {
    const keys = changedKeys(input);
    const images = keys.filter((key) => (IMAGE_FIELDS as readonly string[]).includes(key));
    return `Saved ${keys.length} setting${keys.length === 1 ? "" : "s"}${images.length ? " (images uploaded)" : ""}.`;
  },
});
