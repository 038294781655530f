// Scheduled events: the editor's values (times as UTC ISO strings: the browser turns the moderator's local date and
// time into them) and the actions' inputs. Pure, so the same schema checks the form and the server action.
import { z } from "zod";
import {
  SCHEDULED_EVENT_LIMITS as L,
  ScheduledEventEntityType as Entity,
  ScheduledEventStatus as Status,
} from "@/lib/discord/scheduled-events";
import { emptyToNull, guildActionBase, snowflakeSchema } from "./common";

const isoTime = z.string().refine((value) => Number.isFinite(Date.parse(value)), "Pick a date and time.");

export const ScheduledEventFormSchema = z
  .object({
    name: z.string().trim().min(1, "Name it.").max(L.name, `At most ${L.name} characters.`),
    description: z.string().trim().max(L.description, `At most ${L.description} characters.`),
    entity_type: z.union([z.literal(Entity.StageInstance), z.literal(Entity.Voice), z.literal(Entity.External)]),
    channel_id: z.preprocess(emptyToNull, snowflakeSchema.nullable()),
    location: z.string().trim().max(L.location, `At most ${L.location} characters.`),
    scheduled_start_time: isoTime,
    scheduled_end_time: z.preprocess(emptyToNull, isoTime.nullable()),
  })
  .superRefine((values, ctx) => {
    if (values.entity_type === Entity.External) {
      if (!values.location) ctx.addIssue({ code: "custom", path: ["location"], message: "Where is it?" });
      if (!values.scheduled_end_time)
        ctx.addIssue({ code: "custom", path: ["scheduled_end_time"], message: "External events need an end." });
    } else if (!values.channel_id) ctx.addIssue({ code: "custom", path: ["channel_id"], message: "Pick a channel." });
    if (values.scheduled_end_time && Date.parse(values.scheduled_end_time) <= Date.parse(values.scheduled_start_time))
      ctx.addIssue({ code: "custom", path: ["scheduled_end_time"], message: "The end must be after the start." });
  });
export type ScheduledEventFormValues = z.input<typeof ScheduledEventFormSchema>;

export const CreateScheduledEventInputSchema = ScheduledEventFormSchema.and(z.object(guildActionBase));
export type CreateScheduledEventInput = z.input<typeof CreateScheduledEventInputSchema>;

export const ModifyScheduledEventInputSchema = ScheduledEventFormSchema.and(
  z.object({ ...guildActionBase, eventId: snowflakeSchema }),
);
export type ModifyScheduledEventInput = z.input<typeof ModifyScheduledEventInputSchema>;

/** Start (ACTIVE), end (COMPLETED) or cancel (CANCELED). */
export const SetScheduledEventStatusInputSchema = z.object({
  ...guildActionBase,
  eventId: snowflakeSchema,
  status: z.union([z.literal(Status.Active), z.literal(Status.Completed), z.literal(Status.Canceled)]),
});

export const DeleteScheduledEventInputSchema = z.object({ ...guildActionBase, eventId: snowflakeSchema });
