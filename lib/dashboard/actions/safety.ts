"use server";

// Server actions of the safety page: pausing invites or DMs (Modify Guild Incident Actions) and the safety features
// of Modify Guild. Verification level and the explicit content filter go through modifyGuildAction (./guilds).
import { type APIGuild, type APIIncidentsData, type GuildFeature } from "discord-api-types/v10";
import { guildAction } from "./guild-action";
import { GuildFeatureInputSchema, INCIDENT_ACTIONS, IncidentActionInputSchema } from "./schemas/safety";

const guildTarget = (input: { guildId: string }) => ({ type: "guild", id: input.guildId });

const incidents = (guild: APIGuild) => ({
  invites_disabled_until: guild.incidents_data?.invites_disabled_until ?? null,
  dms_disabled_until: guild.incidents_data?.dms_disabled_until ?? null,
});

/** A pause that has already lifted is sent as null, so the other action is left exactly as it stands. */
const stillActive = (until: string | null, now: number) => (until && Date.parse(until) > now ? until : null);

/** PUT /guilds/{guild.id}/incident-actions: Modify Guild Incident Actions (one of the two pauses; 0 hours lifts it). */
export const modifyGuildIncidentActionsAction = guildAction({
  action: "Modify Guild Incident Actions",
  schema: IncidentActionInputSchema,
  target: guildTarget,
  authorize: (check) => check.may("Modify Guild Incident Actions"),
  request: (input) => ({
    [INCIDENT_ACTIONS.find((a) => a.key === input.action)!.field]:
      input.hours === 0 ? null : `${input.hours} h from now`,
  }),
  before: async ({ api, guildId }) => incidents(await api.guilds.get(guildId)),
  run: async ({ api, guildId, input, reason }) => {
    // The PUT names both pauses (Discord's body requires both), so the one not being changed is read and sent back.
    const current = incidents(await api.guilds.get(guildId));
    const now = Date.now();
    const until = input.hours === 0 ? null : new Date(now + input.hours * 3_600_000).toISOString();
    const body = {
      invites_disabled_until: input.action === "invites" ? until : stillActive(current.invites_disabled_until, now),
      dms_disabled_until: input.action === "dms" ? until : stillActive(current.dms_disabled_until, now),
    };
    return api.guilds.editIncidentActions(guildId, body, { reason });
  },
  after: (data: APIIncidentsData) => ({
    invites_disabled_until: data.invites_disabled_until,
    dms_disabled_until: data.dms_disabled_until,
  }),
  message: (_data, input) => {
    const what = input.action === "invites" ? "Invites" : "DMs";
    return input.hours === 0
      ? `${what} are no longer paused.`
      : `${what} paused for ${input.hours} hour${input.hours === 1 ? "" : "s"}.`;
  },
});

/** PATCH /guilds/{guild.id}: Modify Guild, switching one Manage Server feature and leaving the others as they are now. */
export const setGuildFeatureAction = guildAction({
  action: "Modify Guild",
  schema: GuildFeatureInputSchema,
  target: guildTarget,
  authorize: (check) => check.may("Modify Guild"),
  request: (input) => ({ features: `${input.enabled ? "+" : "-"}${input.feature}` }),
  before: async ({ api, guildId, input }) => ({
    [input.feature]: (await api.guilds.get(guildId)).features.includes(input.feature as GuildFeature),
  }),
  run: async ({ api, guildId, input, reason }) => {
    const features = (await api.guilds.get(guildId)).features.filter((f) => f !== input.feature);
    return api.guilds.edit(
      guildId,
      { features: input.enabled ? [...features, input.feature as GuildFeature] : features },
      { reason },
    );
  },
  after: (guild, { input }) => ({ [input.feature]: guild.features.includes(input.feature as GuildFeature) }),
  message: (_guild, input) =>
    input.feature === "RAID_ALERTS_DISABLED"
      ? input.enabled
        ? "Raid alerts are off."
        : "Raid alerts are on."
      : input.enabled
        ? "Invites are paused until you resume them."
        : "Invites are resumed.",
});
