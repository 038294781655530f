"use client";

// The events page: a list or a month calendar of the guild's scheduled events, each with its interested count and
// the changes Discord allows it (start and cancel a scheduled one, end an active one), and the editor. Dates and times
// are the moderator's (the browser's time zone); the API gets UTC ISO strings.
import { useState } from "react";
import Link from "next/link";
import { Controller, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { APIGuildScheduledEvent } from "discord-api-types/v10";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button, buttonClasses } from "@/components/ui/button";
import { Card, EmptyState } from "@/components/ui/card";
import { Dialog, DialogCancel, useDialogForm } from "@/components/ui/dialog";
import { Field, fieldProps } from "@/components/ui/field";
import { Input, Select, Textarea } from "@/components/ui/input";
import { applyFieldErrors, useAction } from "@/components/dashboard/use-action";
import {
  createScheduledEventAction,
  deleteScheduledEventAction,
  modifyScheduledEventAction,
  setScheduledEventStatusAction,
} from "@/lib/dashboard/actions/scheduled-events";
import {
  ScheduledEventFormSchema,
  type ScheduledEventFormValues,
} from "@/lib/dashboard/actions/schemas/scheduled-events";
import {
  ScheduledEventEntityType as Entity,
  ScheduledEventStatus as Status,
  STATUS_TRANSITIONS,
} from "@/lib/discord/scheduled-events";

type Event = APIGuildScheduledEvent & { user_count?: number };
interface EventChannel {
  id: string;
  name: string;
  type: number;
}

const STATUS_LABEL: Record<number, { label: string; tone: BadgeTone }> = {
  [Status.Scheduled]: { label: "Scheduled", tone: "blurple" },
  [Status.Active]: { label: "Live", tone: "success" },
  [Status.Completed]: { label: "Ended", tone: "neutral" },
  [Status.Canceled]: { label: "Canceled", tone: "danger" },
};
const TYPE_LABEL: Record<number, string> = {
  [Entity.StageInstance]: "Stage",
  [Entity.Voice]: "Voice",
  [Entity.External]: "Somewhere else",
};

/** An ISO time as the value of a datetime-local input, in the browser's time zone. */
function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return "";
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
/** A datetime-local value (the moderator's time) as a UTC ISO string. */
const fromLocalInput = (value: string): string => (value ? new Date(value).toISOString() : "");

const whenFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const timeFormat = new Intl.DateTimeFormat(undefined, { timeStyle: "short" });

function where(event: Event, channels: readonly EventChannel[]): string {
  if (event.entity_type === Entity.External) return event.entity_metadata?.location ?? "";
  const channel = channels.find((c) => c.id === event.channel_id);
  return channel ? `🔊 ${channel.name}` : "a channel you cannot see";
}

export function EventsView({
  guildId,
  events,
  channels,
  view,
}: {
  guildId: string;
  events: Event[];
  channels: EventChannel[];
  view: "list" | "calendar";
}) {
  const [editing, setEditing] = useState<Event | "new" | null>(null);
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-2">
        <nav aria-label="View" className="flex gap-1">
          <Link
            prefetch={false}
            href={`?view=list`}
            aria-current={view === "list" ? "page" : undefined}
            className={buttonClasses(view === "list" ? "secondary" : "ghost", "sm")}
          >
            List
          </Link>
          <Link
            prefetch={false}
            href={`?view=calendar`}
            aria-current={view === "calendar" ? "page" : undefined}
            className={buttonClasses(view === "calendar" ? "secondary" : "ghost", "sm")}
          >
            Calendar
          </Link>
        </nav>
        <Button className="ml-auto" onClick={() => setEditing("new")}>
          Create event
        </Button>
      </div>
      {view === "calendar" ? (
        <MonthCalendar events={events} onOpen={setEditing} />
      ) : (
        <EventList guildId={guildId} events={events} channels={channels} onEdit={setEditing} />
      )}
      <Dialog
        open={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === "new" ? "Create event" : "Edit event"}
        description="Times are in your time zone."
        size="lg"
      >
        {editing !== null && (
          <EventForm
            guildId={guildId}
            event={editing === "new" ? null : editing}
            channels={channels}
            onDone={() => setEditing(null)}
          />
        )}
      </Dialog>
    </div>
  );
}

function EventList({
  guildId,
  events,
  channels,
  onEdit,
}: {
  guildId: string;
  events: Event[];
  channels: EventChannel[];
  onEdit: (event: Event) => void;
}) {
  const status = useAction(setScheduledEventStatusAction, { failure: "Couldn't change the event" });
  const remove = useAction(deleteScheduledEventAction, { failure: "Couldn't delete the event" });
  const [deleting, setDeleting] = useState<Event | null>(null);
  if (events.length === 0)
    return (
      <Card>
        <EmptyState title="No events yet">Create one: a stage talk, a voice hangout or a meetup.</EmptyState>
      </Card>
    );
  return (
    <>
      <ul aria-label="Events" className="flex flex-col gap-3">
        {events.map((event) => {
          const next = STATUS_TRANSITIONS[event.status as Status] ?? [];
          const { label, tone } = STATUS_LABEL[event.status] ?? STATUS_LABEL[Status.Scheduled];
          const finished = next.length === 0;
          return (
            <li key={event.id} aria-label={event.name}>
              <Card className="flex flex-col gap-2">
                <div className="flex flex-wrap items-center gap-2">
                  <h3 className="text-base font-semibold">{event.name}</h3>
                  <Badge tone={tone}>{label}</Badge>
                  <Badge>{TYPE_LABEL[event.entity_type]}</Badge>
                  <span className="ml-auto text-sm text-ink-muted">{event.user_count ?? 0} interested</span>
                </div>
                <p className="text-sm">
                  <time dateTime={event.scheduled_start_time}>
                    {whenFormat.format(new Date(event.scheduled_start_time))}
                  </time>
                  {event.scheduled_end_time && (
                    <>
                      {" – "}
                      <time dateTime={event.scheduled_end_time}>
                        {timeFormat.format(new Date(event.scheduled_end_time))}
                      </time>
                    </>
                  )}
                  {" · "}
                  {where(event, channels)}
                </p>
                {event.description && <p className="text-sm text-ink-muted">{event.description}</p>}
                <div className="flex flex-wrap gap-2">
                  {!finished && (
                    <Button size="sm" variant="secondary" onClick={() => onEdit(event)}>
                      Edit
                    </Button>
                  )}
                  {next.includes(Status.Active) && (
                    <Button
                      size="sm"
                      variant="success"
                      pending={status.pending}
                      onClick={() => void status.run({ guildId, eventId: event.id, status: Status.Active })}
                    >
                      Start event
                    </Button>
                  )}
                  {next.includes(Status.Completed) && (
                    <Button
                      size="sm"
                      pending={status.pending}
                      onClick={() => void status.run({ guildId, eventId: event.id, status: Status.Completed })}
                    >
                      End event
                    </Button>
                  )}
                  {next.includes(Status.Canceled) && (
                    <Button
                      size="sm"
                      variant="ghost"
                      pending={status.pending}
                      onClick={() => void status.run({ guildId, eventId: event.id, status: Status.Canceled })}
                    >
                      Cancel event
                    </Button>
                  )}
                  <Button size="sm" variant="danger" pending={remove.pending} onClick={() => setDeleting(event)}>
                    Delete
                  </Button>
                </div>
              </Card>
            </li>
          );
        })}
      </ul>
      <Dialog
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        title={`Delete ${deleting?.name ?? "the event"}?`}
        size="sm"
        footer={
          <>
            <DialogCancel />
            <Button
              variant="danger"
              pending={remove.pending}
              onClick={async () => {
                if (deleting && (await remove.run({ guildId, eventId: deleting.id })).ok) setDeleting(null);
              }}
            >
              Delete event
            </Button>
          </>
        }
      >
        <p className="text-sm">
          {deleting?.user_count ?? 0} interested member{deleting?.user_count === 1 ? "" : "s"} will no longer see it.
          This can&apos;t be undone.
        </p>
      </Dialog>
    </>
  );
}

const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const monthFormat = new Intl.DateTimeFormat(undefined, { month: "long", year: "numeric" });
const dayKey = (date: Date) => `${date.getFullYear()}-${date.getMonth()}-${date.getDate()}`;

/** A month grid (Monday first, the browser's time zone) with each event on its start day. */
function MonthCalendar({ events, onOpen }: { events: Event[]; onOpen: (event: Event) => void }) {
  const [month, setMonth] = useState(() => {
    const now = new Date();
    return new Date(now.getFullYear(), now.getMonth(), 1);
  });
  const byDay = new Map<string, Event[]>();
  for (const event of events) {
    const key = dayKey(new Date(event.scheduled_start_time));
    byDay.set(key, [...(byDay.get(key) ?? []), event]);
  }
  const first = new Date(month.getFullYear(), month.getMonth(), 1);
  const lead = (first.getDay() + 6) % 7;
  const days = new Date(month.getFullYear(), month.getMonth() + 1, 0).getDate();
  const cells = Array.from({ length: Math.ceil((lead + days) / 7) * 7 }, (_, i) => {
    const day = i - lead + 1;
    return day >= 1 && day <= days ? new Date(month.getFullYear(), month.getMonth(), day) : null;
  });
  const today = dayKey(new Date());
  const shift = (by: number) => setMonth(new Date(month.getFullYear(), month.getMonth() + by, 1));
  return (
    <Card>
      <div className="mb-3 flex items-center gap-2">
        <Button size="sm" variant="ghost" onClick={() => shift(-1)} aria-label="Previous month">
          ‹
        </Button>
        <h2 className="min-w-40 text-center font-semibold">{monthFormat.format(month)}</h2>
        <Button size="sm" variant="ghost" onClick={() => shift(1)} aria-label="Next month">
          ›
        </Button>
      </div>
      <div role="grid" aria-label={monthFormat.format(month)} className="grid grid-cols-7 gap-px bg-line text-sm">
        {WEEKDAYS.map((name) => (
          <div key={name} role="columnheader" className="bg-surface p-1 text-center text-xs text-ink-muted">
            {name}
          </div>
        ))}
        {cells.map((date, i) => (
          <div
            key={i}
            role="gridcell"
            aria-label={date ? date.toDateString() : undefined}
            className={`min-h-24 bg-surface p-1 ${date && dayKey(date) === today ? "ring-2 ring-blurple ring-inset" : ""}`}
          >
            {date && <div className="text-xs text-ink-muted">{date.getDate()}</div>}
            {date &&
              (byDay.get(dayKey(date)) ?? []).map((event) => (
                <button
                  key={event.id}
                  type="button"
                  onClick={() => onOpen(event)}
                  className="mt-1 block w-full truncate rounded bg-blurple/15 px-1 text-left text-xs"
                  title={`${event.name}, ${timeFormat.format(new Date(event.scheduled_start_time))}`}
                >
                  {timeFormat.format(new Date(event.scheduled_start_time))} {event.name}
                </button>
              ))}
          </div>
        ))}
      </div>
    </Card>
  );
}

function EventForm({
  guildId,
  event,
  channels,
  onDone,
}: {
  guildId: string;
  event: Event | null;
  channels: EventChannel[];
  onDone: () => void;
}) {
  const defaults: ScheduledEventFormValues = event
    ? {
        name: event.name,
        description: event.description ?? "",
        entity_type: event.entity_type,
        channel_id: event.channel_id ?? null,
        location: event.entity_metadata?.location ?? "",
        scheduled_start_time: event.scheduled_start_time,
        scheduled_end_time: event.scheduled_end_time ?? null,
      }
    : {
        name: "",
        description: "",
        entity_type: Entity.External,
        channel_id: null,
        location: "",
        scheduled_start_time: "",
        scheduled_end_time: null,
      };
  const form = useForm<ScheduledEventFormValues>({
    resolver: zodResolver(ScheduledEventFormSchema),
    defaultValues: defaults,
  });
  const { register, handleSubmit, setError, control, watch, formState } = form;
  const { requestClose } = useDialogForm(formState.isDirty);
  const create = useAction(createScheduledEventAction, { failure: "Couldn't create the event" });
  const modify = useAction(modifyScheduledEventAction, { failure: "Couldn't save the event" });
  const entityType = Number(watch("entity_type"));
  const choices = channels.filter((c) => (entityType === Entity.StageInstance ? c.type === 13 : c.type === 2));
  const errors = formState.errors;

  const onSubmit = handleSubmit(async (values) => {
    const result = event
      ? await modify.run({ guildId, eventId: event.id, ...values })
      : await create.run({ guildId, ...values });
    if (result.ok) onDone();
    else
      applyFieldErrors(setError, result.fieldErrors, [
        "name",
        "description",
        "entity_type",
        "channel_id",
        "location",
        "scheduled_start_time",
        "scheduled_end_time",
      ]);
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Event" className="flex flex-col gap-4">
      {errors.root?.server && (
        <p role="alert" className="rounded-md border border-danger/40 bg-danger/10 p-3 text-sm">
          {errors.root.server.message}
        </p>
      )}
      <Field id="event-type" label="Where" error={errors.entity_type?.message}>
        <Select
          {...fieldProps("event-type", errors.entity_type?.message)}
          {...register("entity_type", { setValueAs: (v) => Number(v) })}
        >
          <option value={Entity.StageInstance}>Stage channel</option>
          <option value={Entity.Voice}>Voice channel</option>
          <option value={Entity.External}>Somewhere else</option>
        </Select>
      </Field>
      {entityType === Entity.External ? (
        <Field id="event-location" label="Location" error={errors.location?.message}>
          <Input {...fieldProps("event-location", errors.location?.message)} {...register("location")} />
        </Field>
      ) : (
        <Field id="event-channel" label="Channel" error={errors.channel_id?.message}>
          <Select {...fieldProps("event-channel", errors.channel_id?.message)} {...register("channel_id")}>
            <option value="">Pick a channel</option>
            {choices.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </Select>
        </Field>
      )}
      <Field id="event-name" label="Event topic" error={errors.name?.message}>
        <Input {...fieldProps("event-name", errors.name?.message)} {...register("name")} />
      </Field>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <Field id="event-start" label="Start date and time" error={errors.scheduled_start_time?.message}>
          <Controller
            control={control}
            name="scheduled_start_time"
            render={({ field }) => (
              <Input
                type="datetime-local"
                {...fieldProps("event-start", errors.scheduled_start_time?.message)}
                value={toLocalInput(field.value)}
                onChange={(e) => field.onChange(fromLocalInput(e.target.value))}
                onBlur={field.onBlur}
              />
            )}
          />
        </Field>
        <Field id="event-end" label="End date and time" error={errors.scheduled_end_time?.message}>
          <Controller
            control={control}
            name="scheduled_end_time"
            render={({ field }) => (
              <Input
                type="datetime-local"
                {...fieldProps("event-end", errors.scheduled_end_time?.message)}
                value={toLocalInput(field.value as string | null)}
                onChange={(e) => field.onChange(fromLocalInput(e.target.value) || null)}
                onBlur={field.onBlur}
              />
            )}
          />
        </Field>
      </div>
      <Field id="event-description" label="Description" error={errors.description?.message}>
        <Textarea
          rows={3}
          {...fieldProps("event-description", errors.description?.message)}
          {...register("description")}
        />
      </Field>
      <div className="flex justify-end gap-2">
        <Button variant="ghost" onClick={requestClose}>
          Cancel
        </Button>
        <Button type="submit" pending={create.pending || modify.pending}>
          {event ? "Save event" : "Create event"}
        </Button>
      </div>
    </form>
  );
}
