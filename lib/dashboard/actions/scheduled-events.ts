"use server";

// Server actions of the events page: Create, Modify (its status too: start, end, cancel) and Delete Guild Scheduled
// Event. Times arrive as UTC ISO strings (the browser converted the moderator's local date and time).
import {
  PermissionFlagsBits as P,
  type APIGuildScheduledEvent,
  type RESTPatchAPIGuildScheduledEventJSONBody,
  type RESTPostAPIGuildScheduledEventJSONBody,
} from "discord-api-types/v10";
import type { OperationName } from "@/lib/discord/policies";
import {
  SCHEDULED_EVENT_PRIVACY_GUILD_ONLY,
  ScheduledEventEntityType as Entity,
  ScheduledEventStatus as Status,
} from "@/lib/discord/scheduled-events";
import { guildAction } from "./guild-action";
import type { ModeratorCheck } from "./moderator";
import {
  CreateScheduledEventInputSchema,
  DeleteScheduledEventInputSchema,
  ModifyScheduledEventInputSchema,
  SetScheduledEventStatusInputSchema,
} from "./schemas/scheduled-events";
import type { z } from "zod";

type FormInput = z.output<typeof CreateScheduledEventInputSchema>;

/** The form's values as Discord's body: a channel or a location by entity type, never both. */
function eventBody(input: FormInput) {
  const external = input.entity_type === Entity.External;
  return {
    name: input.name,
    description: input.description || null,
    privacy_level: SCHEDULED_EVENT_PRIVACY_GUILD_ONLY,
    entity_type: input.entity_type,
    channel_id: external ? null : input.channel_id,
    entity_metadata: external ? { location: input.location } : null,
    scheduled_start_time: new Date(input.scheduled_start_time).toISOString(),
    scheduled_end_time: input.scheduled_end_time ? new Date(input.scheduled_end_time).toISOString() : null,
  };
}

const eventTarget = (id: string | null, event: unknown, fallback?: string) => ({
  type: "scheduled_event",
  id,
  name: (event as APIGuildScheduledEvent | undefined)?.name ?? fallback ?? null,
});

/**
 * Bot mode's rules for events, where the API judges only the bot. The moderator needs what the API asks of a user in
 * the event's channel (a stage: Manage Channels, Mute Members and Move Members; a voice channel: View Channel and
 * Connect). Every event made through the dashboard is the bot's, so whose it was cannot be told: changing, starting,
 * ending, cancelling or deleting one needs Manage Events, not only Create Events.
 */
async function mayPlaceEvent(
  check: ModeratorCheck,
  operation: OperationName,
  input: { entity_type?: number; channel_id?: string | null },
): Promise<string | null> {
  const refusal = check.may(operation);
  if (refusal || !input.channel_id) return refusal;
  if (input.entity_type === Entity.StageInstance)
    return check.channelMissing(input.channel_id, P.ManageChannels, P.MuteMembers, P.MoveMembers);
  if (input.entity_type === Entity.Voice) return check.channelMissing(input.channel_id, P.ViewChannel, P.Connect);
  return null;
}

/** POST /guilds/{guild.id}/scheduled-events: Create Guild Scheduled Event */
export const createScheduledEventAction = guildAction({
  action: "Create Guild Scheduled Event",
  schema: CreateScheduledEventInputSchema,
  target: (input, { result }) =>
    eventTarget((result as APIGuildScheduledEvent | undefined)?.id ?? null, result, input.name),
  authorize: (check, input) => mayPlaceEvent(check, "Create Guild Scheduled Event", input),
  run: ({ api, guildId, input, reason }) =>
    api.scheduledEvents.create(guildId, eventBody(input) as RESTPostAPIGuildScheduledEventJSONBody, { reason }),
  after: (event) => event,
  message: (event) => `Scheduled "${event.name}".`,
});

/** PATCH /guilds/{guild.id}/scheduled-events/{event.id}: Modify Guild Scheduled Event */
export const modifyScheduledEventAction = guildAction({
  action: "Modify Guild Scheduled Event",
  schema: ModifyScheduledEventInputSchema,
  target: (input, { before, result }) => eventTarget(input.eventId, result ?? before, input.name),
  authorize: async (check, input) =>
    (await mayPlaceEvent(check, "Modify Guild Scheduled Event", input)) ?? check.missing(P.ManageEvents),
  before: ({ api, guildId, input }) => api.scheduledEvents.get(guildId, input.eventId),
  // The start time is sent as it is: an unchanged one is not judged again (a started event's, or one now past).
  run: ({ api, guildId, input, reason }) =>
    api.scheduledEvents.edit(guildId, input.eventId, eventBody(input) as RESTPatchAPIGuildScheduledEventJSONBody, {
      reason,
    }),
  after: (event) => event,
  message: (event) => `Saved "${event.name}".`,
});

const STATUS_WORDS: Record<number, string> = {
  [Status.Active]: "Started",
  [Status.Completed]: "Ended",
  [Status.Canceled]: "Canceled",
};

/** PATCH /guilds/{guild.id}/scheduled-events/{event.id} with a status: start, end or cancel the event */
export const setScheduledEventStatusAction = guildAction({
  action: "Modify Guild Scheduled Event",
  schema: SetScheduledEventStatusInputSchema,
  target: (input, { before, result }) => eventTarget(input.eventId, result ?? before),
  authorize: (check) => check.may("Modify Guild Scheduled Event") ?? check.missing(P.ManageEvents),
  before: ({ api, guildId, input }) => api.scheduledEvents.get(guildId, input.eventId),
  run: ({ api, guildId, input, reason }) =>
    api.scheduledEvents.edit(guildId, input.eventId, { status: input.status }, { reason }),
  after: (event) => event,
  message: (event) => `${STATUS_WORDS[event.status] ?? "Saved"}: "${event.name}".`,
});

/** DELETE /guilds/{guild.id}/scheduled-events/{event.id}: Delete Guild Scheduled Event */
export const deleteScheduledEventAction = guildAction({
  action: "Delete Guild Scheduled Event",
  schema: DeleteScheduledEventInputSchema,
  target: (input, { before }) => eventTarget(input.eventId, before),
  authorize: (check) => check.may("Delete Guild Scheduled Event") ?? check.missing(P.ManageEvents),
  before: ({ api, guildId, input }) => api.scheduledEvents.get(guildId, input.eventId),
  run: ({ api, guildId, input, reason }) => api.scheduledEvents.delete(guildId, input.eventId, { reason }),
  message: () => "Deleted the event.",
});
