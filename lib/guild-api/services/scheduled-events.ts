// Guild Scheduled Events: List Scheduled Events for Guild, Get, Create, Modify and Delete Guild Scheduled Event, Get
// Guild Scheduled Event Users, and Guildhall's extension for a user's own interest (PUT/DELETE …/users/@me). Stage,
// voice and external events with Discord's limits and permissions: Create Events or Manage Events to create, plus the
// channel's permissions Discord asks for a stage (Manage Channels, Mute Members, Move Members) or voice event (View
// Channel, Connect); one's own event with either flag, another's with Manage Events. Status moves only as Discord lets
// it (SCHEDULED → ACTIVE or CANCELED, ACTIVE → COMPLETED; a finished event is 180000). Each change writes its
// GUILD_SCHEDULED_EVENT_* dispatch and its audit-log entry in the same transaction. Active events whose end time has
// passed are completed by a sweep every instance runs (startScheduledEventsSweeper).
import { ChannelType, PermissionFlagsBits as P, RESTJSONErrorCodes } from "discord-api-types/v10";
import type { APIGuildScheduledEvent } from "discord-api-types/v10";
import { hasPermission } from "@/lib/discord/permissions";
import {
  SCHEDULED_EVENT_LIMITS,
  ScheduledEventEntityType as Entity,
  ScheduledEventStatus as Status,
  isFinished,
  mayChangeStatus,
  recurrenceRuleProblems,
} from "@/lib/discord/scheduled-events";
import { newSnowflake } from "@/lib/discord/snowflake";
import { componentLogger } from "@/lib/server/logger";
import { startSweeper, type Sweeper } from "../sweeper";
import { AuditLogEvent, auditByCaller, diffChanges, writeAuditLog } from "../audit-log";
import { ApiError, Errors, FieldErrorCode, invalidFormBody, type FieldIssue } from "../errors";
import { emitEvent } from "../events";
import type { GuildAccess } from "../guards";
import { decodeImage, saveImage, type DecodedImage } from "../images";
import type {
  CreateGuildScheduledEventBody,
  GetGuildScheduledEventUsersQuery,
  ModifyGuildScheduledEventBody,
  RecurrenceRuleBody,
} from "../schemas/scheduled-events";
import { serializeScheduledEvent, serializeScheduledEventUser } from "../serializers/scheduled-events";
import { findChannel, listGuildChannels, type ChannelRow } from "../store/channels";
import { transaction } from "../store/db";
import { findMemberWithUser } from "../store/members";
import {
  changeScheduledEventStatus,
  countUncompletedScheduledEvents,
  deleteScheduledEvent,
  deleteScheduledEventUser,
  findScheduledEvent,
  insertScheduledEvent,
  insertScheduledEventUser,
  listEndedActiveScheduledEvents,
  listGuildScheduledEvents,
  listScheduledEventUsers,
  updateScheduledEvent,
  type ScheduledEventRow,
} from "../store/scheduled-events";
import { findUser, listUsersByIds, type UserRow } from "../store/users";
import { serializeMemberRow } from "./members";
import { deleteImagesOf } from "../store/images";

const E = RESTJSONErrorCodes;
const log = componentLogger("guild-api");

const unknownEvent = () => new ApiError(404, E.UnknownGuildScheduledEvent, "Unknown Guild Scheduled Event");
const finishedEvent = () => new ApiError(400, E.CannotUpdateAFinishedEvent, "Cannot update a finished event");
const tooManyEvents = () =>
  new ApiError(
    400,
    E.MaximumNumberOfUncompletedGuildScheduledEventsReached,
    `Maximum number of uncompleted guild scheduled events reached (${SCHEDULED_EVENT_LIMITS.uncompleted})`,
  );
const noStage = () =>
  new ApiError(400, E.FailedToCreateStageNeededForStageEvent, "Failed to create stage needed for stage event");

const { CHANNEL_INVALID, FIELD_NOT_APPLICABLE, IMAGE_INVALID } = FieldErrorCode;
const REQUIRED = { code: "BASE_TYPE_REQUIRED", message: "This field is required" } as const;

/** The channel type each channel-hosted entity type needs. */
const CHANNEL_TYPE_OF: Readonly<Record<number, number>> = {
  [Entity.StageInstance]: ChannelType.GuildStageVoice,
  [Entity.Voice]: ChannelType.GuildVoice,
};

/** What Discord asks of the caller in the event's channel, per entity type (its "Permissions Requirements"). */
const CHANNEL_PERMISSIONS_OF: Readonly<Record<number, bigint>> = {
  [Entity.StageInstance]: P.ManageChannels | P.MuteMembers | P.MoveMembers,
  [Entity.Voice]: P.ViewChannel | P.Connect,
};

function callerMayInChannel(access: GuildAccess, channel: Pick<ChannelRow, "permission_overwrites">, mask: bigint) {
  return access.isOwner || hasPermission(access.channelPermissions(channel.permission_overwrites), mask);
}

/** An event the caller may see: external ones always, channel ones when the caller can view the channel. */
function visibleTo(access: GuildAccess, row: ScheduledEventRow, channels: ReadonlyMap<bigint, ChannelRow>): boolean {
  if (row.channel_id === null) return true;
  const channel = channels.get(row.channel_id);
  return channel === undefined || callerMayInChannel(access, channel, P.ViewChannel);
}

async function channelsById(guildId: bigint): Promise<Map<bigint, ChannelRow>> {
  return new Map((await listGuildChannels(guildId)).map((channel) => [channel.id, channel]));
}

/** The event if it is the guild's and the caller may see it; 10070 otherwise. */
async function findVisibleEventOrThrow(access: GuildAccess, eventId: bigint): Promise<ScheduledEventRow> {
  const row = await findScheduledEvent(access.guildId, eventId);
  if (!row) throw unknownEvent();
  if (row.channel_id !== null) {
    const channel = await findChannel(access.guildId, row.channel_id);
    if (channel && !callerMayInChannel(access, channel, P.ViewChannel)) throw unknownEvent();
  }
  return row;
}

async function creatorsOf(rows: readonly ScheduledEventRow[]): Promise<Map<string, UserRow>> {
  const ids = [...new Set(rows.flatMap((row) => (row.creator_id === null ? [] : [String(row.creator_id)])))];
  if (ids.length === 0) return new Map();
  return new Map((await listUsersByIds(ids)).map((user) => [String(user.id), user]));
}

async function serializeWithCreator(row: ScheduledEventRow, withUserCount: boolean) {
  const creator = row.creator_id === null ? null : await findUser(row.creator_id);
  return serializeScheduledEvent(row, { withUserCount, creator });
}

// ── Reads ──────────────────────────────────────────────────────────────────────────────────────────────────────

export async function listScheduledEventsForGuild(
  access: GuildAccess,
  query: { with_user_count: boolean },
): Promise<APIGuildScheduledEvent[]> {
  access.authorize("List Scheduled Events for Guild");
  const rows = await listGuildScheduledEvents(access.guildId);
  const channels = await channelsById(access.guildId);
  const visible = rows.filter((row) => visibleTo(access, row, channels));
  const creators = await creatorsOf(visible);
  return visible.map((row) =>
    serializeScheduledEvent(row, {
      withUserCount: query.with_user_count,
      creator: row.creator_id === null ? null : creators.get(String(row.creator_id)),
    }),
  );
}

export async function getGuildScheduledEvent(
  access: GuildAccess,
  eventId: bigint,
  query: { with_user_count: boolean },
): Promise<APIGuildScheduledEvent> {
  access.authorize("Get Guild Scheduled Event");
  return await serializeWithCreator(await findVisibleEventOrThrow(access, eventId), query.with_user_count);
}

/**
 * Get Guild Scheduled Event Users: ascending by user id, after `after` or before `before` (before wins, as Discord's
 * "before" paging), `limit` at most 100; each with the member object when with_member is set and they are one.
 */
export async function getGuildScheduledEventUsers(
  access: GuildAccess,
  eventId: bigint,
  query: GetGuildScheduledEventUsersQuery,
) {
  access.authorize("Get Guild Scheduled Event Users");
  const event = await findVisibleEventOrThrow(access, eventId);
  const cursor = query.before !== undefined ? { before: BigInt(query.before) } : { after: BigInt(query.after ?? "0") };
  const users = await listScheduledEventUsers(event.id, cursor, query.limit);
  return await Promise.all(
    users.map(async (user) => {
      const member = query.with_member ? await findMemberWithUser(access.guildId, user.id) : undefined;
      return serializeScheduledEventUser(event.id, user, member ? serializeMemberRow(member) : undefined);
    }),
  );
}

// ── Writes ─────────────────────────────────────────────────────────────────────────────────────────────────────

/** The event's fields after a request, judged together: every field error at once, or the row to store. */
interface EventFields {
  name: string;
  description: string | null;
  scheduled_start_time: number;
  scheduled_end_time: number | null;
  privacy_level: number;
  entity_type: number;
  channel_id: bigint | null;
  location: string | null;
  recurrence_rule: RecurrenceRuleBody | null;
  status: number;
}

function recurrenceIssues(rule: RecurrenceRuleBody | null, issues: FieldIssue[]) {
  if (!rule) return;
  for (const problem of recurrenceRuleProblems(rule))
    issues.push({
      path: ["recurrence_rule", problem.field],
      code: "GUILD_SCHEDULED_EVENT_RECURRENCE_RULE_INVALID",
      message: problem.message,
    });
}

/**
 * Judges the fields (the channel's type and the caller's permissions in it, an external event's location and end
 * time, the times' order, a start in the future when it changes, the recurrence rule): 400 50035 with every problem,
 * 403 when the caller lacks the channel's permissions.
 */
async function judgeFields(
  access: GuildAccess,
  fields: EventFields,
  options: { startChanged: boolean; placeChanged: boolean; now: number },
): Promise<void> {
  const issues: FieldIssue[] = [];
  if (fields.entity_type === Entity.External) {
    if (fields.channel_id !== null)
      issues.push({
        path: ["channel_id"],
        code: FIELD_NOT_APPLICABLE,
        message: "An external event has no channel: channel_id must be null.",
      });
    if (!fields.location) issues.push({ path: ["entity_metadata", "location"], ...REQUIRED });
    if (fields.scheduled_end_time === null) issues.push({ path: ["scheduled_end_time"], ...REQUIRED });
  } else {
    if (fields.location !== null)
      issues.push({
        path: ["entity_metadata", "location"],
        code: FIELD_NOT_APPLICABLE,
        message: "Only external events have a location.",
      });
    if (fields.channel_id === null) issues.push({ path: ["channel_id"], ...REQUIRED });
    else {
      const channel = await findChannel(access.guildId, fields.channel_id);
      // A place is refused when it is set: an event whose channel was deleted since can still be edited, cancelled or
      // ended (or moved elsewhere).
      const placeGone = !channel && !options.placeChanged;
      if (!placeGone && (!channel || Number(channel.type) !== CHANNEL_TYPE_OF[fields.entity_type]))
        issues.push({
          path: ["channel_id"],
          code: CHANNEL_INVALID,
          message:
            fields.entity_type === Entity.StageInstance
              ? "Must be a stage channel of this server."
              : "Must be a voice channel of this server.",
        });
      else if (channel && !callerMayInChannel(access, channel, CHANNEL_PERMISSIONS_OF[fields.entity_type]))
        throw Errors.missingPermissions();
    }
  }
  if (options.startChanged && fields.scheduled_start_time <= options.now)
    issues.push({
      path: ["scheduled_start_time"],
      code: "GUILD_SCHEDULED_EVENT_SCHEDULED_START_TIME_IN_PAST",
      message: "Cannot schedule event in the past.",
    });
  if (fields.scheduled_end_time !== null && fields.scheduled_end_time <= fields.scheduled_start_time)
    issues.push({
      path: ["scheduled_end_time"],
      code: "GUILD_SCHEDULED_EVENT_END_BEFORE_START",
      message: "The end time must be after the start time.",
    });
  recurrenceIssues(fields.recurrence_rule, issues);
  if (issues.length > 0) throw invalidFormBody(issues);
}

/** A cover image's largest file (Discord's attachment limit): each event keeps one, the one it shows. */
const COVER_MAX_BYTES = 10 * 1024 * 1024;

function decodeCover(image: string | null | undefined): DecodedImage | null | undefined {
  if (image === undefined || image === null) return image;
  const decoded = decodeImage(image);
  if (decoded && decoded.bytes.length > COVER_MAX_BYTES)
    throw Errors.invalidField(["image"], "BINARY_TYPE_MAX_SIZE", "File cannot be larger than 10240.0 kb.");
  if (!decoded)
    throw Errors.invalidField(
      ["image"],
      IMAGE_INVALID,
      "Invalid image data: must be a base64 data URI of a png, jpeg or gif image.",
    );
  return decoded;
}

/** Discord keeps a recurrence rule's start on the event's start. */
const recurrenceJson = (rule: RecurrenceRuleBody | null, start: number): string | null =>
  rule
    ? JSON.stringify({
        start: new Date(start).toISOString(),
        end: null,
        frequency: rule.frequency,
        interval: rule.interval ?? 1,
        by_weekday: rule.by_weekday ?? null,
        by_n_weekday: rule.by_n_weekday ?? null,
        by_month: rule.by_month ?? null,
        by_month_day: rule.by_month_day ?? null,
        by_year_day: null,
        count: null,
      })
    : null;

function rowOf(base: Pick<ScheduledEventRow, "id" | "guild_id" | "creator_id" | "user_count">, fields: EventFields) {
  return {
    ...base,
    channel_id: fields.channel_id,
    name: fields.name,
    description: fields.description,
    scheduled_start_time: BigInt(fields.scheduled_start_time),
    scheduled_end_time: fields.scheduled_end_time === null ? null : BigInt(fields.scheduled_end_time),
    privacy_level: BigInt(fields.privacy_level),
    status: BigInt(fields.status),
    entity_type: BigInt(fields.entity_type),
    entity_metadata: fields.location === null ? null : JSON.stringify({ location: fields.location }),
    image: null as string | null,
    recurrence_rule: recurrenceJson(fields.recurrence_rule, fields.scheduled_start_time),
  } satisfies ScheduledEventRow;
}

function fieldsOf(row: ScheduledEventRow): EventFields {
  return {
    name: row.name,
    description: row.description,
    scheduled_start_time: Number(row.scheduled_start_time),
    scheduled_end_time: row.scheduled_end_time === null ? null : Number(row.scheduled_end_time),
    privacy_level: Number(row.privacy_level),
    entity_type: Number(row.entity_type),
    channel_id: row.channel_id,
    location: row.entity_metadata
      ? ((JSON.parse(row.entity_metadata) as { location?: string }).location ?? null)
      : null,
    recurrence_rule: row.recurrence_rule ? (JSON.parse(row.recurrence_rule) as RecurrenceRuleBody) : null,
    status: Number(row.status),
  };
}

/** The audit log's view of an event: Discord's change keys for scheduled events (the cover as image_hash). */
function auditView(event: APIGuildScheduledEvent): Record<string, unknown> {
  const { name, description, channel_id, privacy_level, status, entity_type, scheduled_start_time } = event;
  return {
    name,
    description,
    channel_id,
    privacy_level,
    status,
    entity_type,
    location: event.entity_metadata?.location ?? null,
    scheduled_start_time,
    scheduled_end_time: event.scheduled_end_time,
    image_hash: event.image,
    recurrence_rule: event.recurrence_rule,
  };
}

export async function createGuildScheduledEvent(
  access: GuildAccess,
  body: CreateGuildScheduledEventBody,
  reason: string | null,
  now = Date.now(),
): Promise<APIGuildScheduledEvent> {
  access.authorize("Create Guild Scheduled Event");
  const cover = decodeCover(body.image);
  const fields: EventFields = {
    name: body.name,
    description: body.description || null,
    scheduled_start_time: body.scheduled_start_time,
    scheduled_end_time: body.scheduled_end_time ?? null,
    privacy_level: body.privacy_level,
    entity_type: body.entity_type,
    channel_id: body.channel_id ? BigInt(body.channel_id) : null,
    location: body.entity_metadata?.location ?? null,
    recurrence_rule: body.recurrence_rule ?? null,
    status: Status.Scheduled,
  };
  return await transaction(async () => {
    await judgeFields(access, fields, { startChanged: true, placeChanged: true, now });
    if ((await countUncompletedScheduledEvents(access.guildId)) >= SCHEDULED_EVENT_LIMITS.uncompleted)
      throw tooManyEvents();
    const id = newSnowflake();
    const row = rowOf({ id, guild_id: access.guildId, creator_id: access.caller.userId, user_count: 0n }, fields);
    if (cover) row.image = await saveImage("guild-events", id, cover);
    await insertScheduledEvent(row);
    const event = await serializeWithCreator(row, false);
    await emitEvent(access.guildId, "GUILD_SCHEDULED_EVENT_CREATE", event);
    await auditByCaller(access, {
      actionType: AuditLogEvent.GuildScheduledEventCreate,
      targetId: id,
      reason,
      changes: diffChanges({}, auditView(event)).filter((change) => change.new_value !== null),
    });
    return event;
  });
}

/** One's own event with Create Events or Manage Events (the policy's); another's only with Manage Events. */
function authorizeChange(access: GuildAccess, row: ScheduledEventRow) {
  if (row.creator_id !== access.caller.userId && !access.isOwner && !access.has(P.ManageEvents))
    throw Errors.missingPermissions();
}

export async function modifyGuildScheduledEvent(
  access: GuildAccess,
  eventId: bigint,
  body: ModifyGuildScheduledEventBody,
  reason: string | null,
  now = Date.now(),
): Promise<APIGuildScheduledEvent> {
  access.authorize("Modify Guild Scheduled Event");
  const cover = decodeCover(body.image);
  return await transaction(async () => {
    const row = await findVisibleEventOrThrow(access, eventId);
    authorizeChange(access, row);
    const current = fieldsOf(row);
    if (isFinished(current.status)) throw finishedEvent();
    const entityType = body.entity_type ?? current.entity_type;
    const typeChanged = entityType !== current.entity_type;
    const toExternal = entityType === Entity.External;
    const next: EventFields = {
      name: body.name ?? current.name,
      description: body.description === undefined ? current.description : body.description || null,
      scheduled_start_time: body.scheduled_start_time ?? current.scheduled_start_time,
      scheduled_end_time: body.scheduled_end_time === undefined ? current.scheduled_end_time : body.scheduled_end_time,
      privacy_level: body.privacy_level ?? current.privacy_level,
      entity_type: entityType,
      // Moving to an external event drops the channel (Discord asks for channel_id null; sending one is refused).
      channel_id:
        body.channel_id === undefined
          ? toExternal && typeChanged
            ? null
            : current.channel_id
          : body.channel_id === null
            ? null
            : BigInt(body.channel_id),
      location:
        body.entity_metadata === undefined
          ? toExternal
            ? current.location
            : null
          : (body.entity_metadata?.location ?? null),
      recurrence_rule: body.recurrence_rule === undefined ? current.recurrence_rule : body.recurrence_rule,
      status: body.status ?? current.status,
    };
    const issues: FieldIssue[] = [];
    if (!mayChangeStatus(current.status, next.status))
      issues.push({
        path: ["status"],
        code: "GUILD_SCHEDULED_EVENT_INVALID_STATUS_TRANSITION",
        message: "An event goes from scheduled to active or canceled, and from active to completed.",
      });
    const startChanged = next.scheduled_start_time !== current.scheduled_start_time;
    if (startChanged && current.status === Status.Active)
      issues.push({
        path: ["scheduled_start_time"],
        code: FIELD_NOT_APPLICABLE,
        message: "An active event's start time cannot change.",
      });
    if (issues.length > 0) throw invalidFormBody(issues);
    // Starting a stage event opens its stage: the channel must still be a stage Guildhall can use.
    if (next.status === Status.Active && current.status !== Status.Active && entityType === Entity.StageInstance) {
      const stage = next.channel_id === null ? undefined : await findChannel(access.guildId, next.channel_id);
      if (!stage || Number(stage.type) !== ChannelType.GuildStageVoice) throw noStage();
    }
    const placeChanged = next.channel_id !== current.channel_id || next.entity_type !== current.entity_type;
    await judgeFields(access, next, { startChanged, placeChanged, now });
    const updated = rowOf(row, next);
    updated.image = row.image;
    if (cover !== undefined) {
      // The replaced cover goes: an event keeps only the image it shows.
      await deleteImagesOf("guild-events", row.id);
      updated.image = cover === null ? null : await saveImage("guild-events", row.id, cover);
    }
    await updateScheduledEvent(updated);
    const before = serializeScheduledEvent(row);
    const event = await serializeWithCreator(updated, false);
    const changes = diffChanges(auditView(before), auditView(event));
    if (changes.length > 0) {
      await emitEvent(access.guildId, "GUILD_SCHEDULED_EVENT_UPDATE", event);
      await auditByCaller(access, {
        actionType: AuditLogEvent.GuildScheduledEventUpdate,
        targetId: eventId,
        reason,
        changes,
      });
    }
    return event;
  });
}

export async function deleteGuildScheduledEvent(access: GuildAccess, eventId: bigint, reason: string | null) {
  access.authorize("Delete Guild Scheduled Event");
  await transaction(async () => {
    const row = await findVisibleEventOrThrow(access, eventId);
    authorizeChange(access, row);
    if (!(await deleteScheduledEvent(access.guildId, eventId))) throw unknownEvent();
    await deleteImagesOf("guild-events", eventId);
    const event = serializeScheduledEvent(row);
    await emitEvent(access.guildId, "GUILD_SCHEDULED_EVENT_DELETE", event);
    await auditByCaller(access, {
      actionType: AuditLogEvent.GuildScheduledEventDelete,
      targetId: eventId,
      reason,
      changes: Object.entries(auditView(event))
        .filter(([, value]) => value !== null)
        .map(([key, value]) => ({ key, old_value: value })),
    });
  });
}

// ── A user's own interest (Guildhall's extension of Discord's user-only routes) ───────────────────────────────

const userPayload = (guildId: bigint, eventId: bigint, userId: bigint) => ({
  guild_scheduled_event_id: String(eventId),
  user_id: String(userId),
  guild_id: String(guildId),
});

/** Marks the caller interested (idempotent); GUILD_SCHEDULED_EVENT_USER_ADD when it is new. A finished event: 180000. */
export async function createGuildScheduledEventUser(access: GuildAccess, eventId: bigint): Promise<void> {
  access.authorize("Create Guild Scheduled Event User");
  if (access.caller.kind === "bot") throw Errors.botsCannotUse();
  await transaction(async () => {
    const row = await findVisibleEventOrThrow(access, eventId);
    if (isFinished(Number(row.status))) throw finishedEvent();
    const userId = access.caller.userId;
    if (await insertScheduledEventUser(access.guildId, eventId, userId))
      await emitEvent(access.guildId, "GUILD_SCHEDULED_EVENT_USER_ADD", userPayload(access.guildId, eventId, userId));
  });
}

/** Drops the caller's interest (idempotent); GUILD_SCHEDULED_EVENT_USER_REMOVE when there was one. */
export async function deleteGuildScheduledEventUser(access: GuildAccess, eventId: bigint): Promise<void> {
  access.authorize("Delete Guild Scheduled Event User");
  if (access.caller.kind === "bot") throw Errors.botsCannotUse();
  await transaction(async () => {
    await findVisibleEventOrThrow(access, eventId);
    const userId = access.caller.userId;
    if (await deleteScheduledEventUser(eventId, userId))
      await emitEvent(
        access.guildId,
        "GUILD_SCHEDULED_EVENT_USER_REMOVE",
        userPayload(access.guildId, eventId, userId),
      );
  });
}

// ── Events that move on their own ──────────────────────────────────────────────────────────────────────────────

/** Events completed per sweep transaction; more wait for the next pass. */
const SWEEP_BATCH = 100;
/** How often the sweep looks: an event completes within this of its end time. */
export const SCHEDULED_EVENTS_SWEEP_INTERVAL_MS = 15_000;

/**
 * Completes active events whose end time has passed (Discord does so for external events; Guildhall, which runs no
 * stage or voice session to end, does so for every active event with an end time), each with its
 * GUILD_SCHEDULED_EVENT_UPDATE and an audit entry by nobody (the system). The status changes only if it is still
 * ACTIVE, so two instances sweeping at once complete each event once. Returns how many it completed.
 */
export async function completeEndedScheduledEvents(now = Date.now()): Promise<number> {
  return await transaction(async () => {
    let completed = 0;
    for (const row of await listEndedActiveScheduledEvents(now, SWEEP_BATCH)) {
      if (!(await changeScheduledEventStatus(row.id, Status.Active, Status.Completed))) continue;
      const updated = { ...row, status: BigInt(Status.Completed) };
      const event = await serializeWithCreator(updated, false);
      await emitEvent(row.guild_id, "GUILD_SCHEDULED_EVENT_UPDATE", event);
      await writeAuditLog({
        guildId: row.guild_id,
        userId: null,
        actionType: AuditLogEvent.GuildScheduledEventUpdate,
        targetId: row.id,
        changes: [{ key: "status", old_value: Status.Active, new_value: Status.Completed }],
      });
      completed++;
    }
    return completed;
  });
}

/** Runs the sweep every SCHEDULED_EVENTS_SWEEP_INTERVAL_MS for as long as this server runs. */
export function startScheduledEventsSweeper(intervalMs = SCHEDULED_EVENTS_SWEEP_INTERVAL_MS): Sweeper {
  return startSweeper(
    intervalMs,
    async () => {
      const completed = await completeEndedScheduledEvents();
      if (completed > 0) log.info({ completed }, "completed scheduled events whose end time passed");
    },
    (error) => log.error({ err: error }, "completing ended scheduled events failed"),
  );
}
