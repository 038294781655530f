// Guild Scheduled Event request bodies and queries with Discord's limits. What depends on the entity type (a channel
// of the right type, an external event's location and end time), the status changes and the recurrence rule's
// restrictions are judged by the service, which knows the event being modified.
import { z } from "zod";
import {
  RecurrenceFrequency,
  SCHEDULED_EVENT_LIMITS as L,
  SCHEDULED_EVENT_PRIVACY_GUILD_ONLY,
  ScheduledEventEntityType,
  ScheduledEventStatus,
} from "@/lib/discord/scheduled-events";
import {
  booleanQuery,
  displayName,
  isoTimestamp,
  isoTimestampString,
  lengthBetween,
  snowflake,
  snowflakeCursor,
} from "./common";

const oneOf = (values: readonly number[]) =>
  z
    .number()
    .int()
    .refine((value) => values.includes(value), {
      message: `Value must be one of {${values.join(", ")}}.`,
      params: { code: "BASE_TYPE_CHOICES" },
    });

const WEEKDAY = z.number().int().min(0).max(6);

export const RecurrenceRuleBodySchema = z.object({
  start: isoTimestampString,
  end: isoTimestampString.nullish(),
  frequency: oneOf(Object.values(RecurrenceFrequency)),
  interval: z.number().int().min(1).nullish(),
  by_weekday: z.array(WEEKDAY).max(7).nullish(),
  by_n_weekday: z
    .array(z.object({ n: z.number().int().min(1).max(5), day: WEEKDAY }))
    .max(7)
    .nullish(),
  by_month: z.array(z.number().int().min(1).max(12)).max(12).nullish(),
  by_month_day: z.array(z.number().int().min(-1).max(31)).max(33).nullish(),
  by_year_day: z.array(z.number().int().min(-1).max(366)).nullish(),
  count: z.number().int().min(1).nullish(),
});
export type RecurrenceRuleBody = z.output<typeof RecurrenceRuleBodySchema>;

const eventFields = {
  name: displayName(lengthBetween(1, L.name)),
  description: lengthBetween(0, L.description).nullish(),
  image: z.string().nullish(),
  scheduled_start_time: isoTimestamp,
  scheduled_end_time: isoTimestamp.nullish(),
  privacy_level: oneOf([SCHEDULED_EVENT_PRIVACY_GUILD_ONLY]),
  entity_type: oneOf(Object.values(ScheduledEventEntityType)),
  channel_id: snowflake.nullish(),
  // The location's presence is the service's to judge (only external events have one).
  entity_metadata: z.object({ location: lengthBetween(1, L.location).optional() }).nullish(),
  recurrence_rule: RecurrenceRuleBodySchema.nullish(),
};

export const CreateGuildScheduledEventBodySchema = z.object(eventFields);
export type CreateGuildScheduledEventBody = z.output<typeof CreateGuildScheduledEventBodySchema>;

/** Every field optional; `status` moves the event (SCHEDULED → ACTIVE or CANCELED, ACTIVE → COMPLETED). */
export const ModifyGuildScheduledEventBodySchema = z.object({
  name: eventFields.name.optional(),
  description: eventFields.description,
  image: eventFields.image,
  scheduled_start_time: eventFields.scheduled_start_time.optional(),
  scheduled_end_time: eventFields.scheduled_end_time,
  privacy_level: eventFields.privacy_level.optional(),
  entity_type: eventFields.entity_type.nullish(),
  channel_id: eventFields.channel_id,
  entity_metadata: eventFields.entity_metadata,
  recurrence_rule: eventFields.recurrence_rule,
  status: oneOf(Object.values(ScheduledEventStatus)).nullish(),
});
export type ModifyGuildScheduledEventBody = z.output<typeof ModifyGuildScheduledEventBodySchema>;

export const ListScheduledEventsQuerySchema = z.object({ with_user_count: booleanQuery });

export const GetGuildScheduledEventUsersQuerySchema = z.object({
  limit: z.coerce.number().int().min(L.usersPage.min).max(L.usersPage.max).default(L.usersPage.default),
  with_member: booleanQuery,
  before: snowflakeCursor.optional(),
  after: snowflakeCursor.optional(),
});
export type GetGuildScheduledEventUsersQuery = z.output<typeof GetGuildScheduledEventUsersQuerySchema>;
