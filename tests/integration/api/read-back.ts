// What the API's integration tests check besides the answer: how a refused request failed (its 50035 field codes),
// and what a change wrote beside itself: its gateway events in the outbox and its audit-log entries, read straight
// from the test server's database as a second witness.
import { expect } from "vitest";
import { DiscordAPIError } from "@discordjs/rest";
import { sql } from "@/lib/guild-api/store/db";

/** The error a request was refused with, or null when it succeeded. */
export const fail = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error as DiscordAPIError,
  );

/** The `_errors` codes at a path of a 50035 error body (and that it was one). */
export function fieldCodes(error: DiscordAPIError | null, ...path: Array<string | number>): string[] {
  expect(error, "expected the request to fail").toBeInstanceOf(DiscordAPIError);
  expect(error!.code).toBe(50035);
  let node = (error!.rawError as { errors?: unknown }).errors as Record<string, unknown> | undefined;
  for (const key of path) node = node?.[String(key)] as Record<string, unknown> | undefined;
  return ((node?._errors as Array<{ code: string }> | undefined) ?? []).map((e) => e.code);
}

/** The newest event's id in the outbox: pass it to `eventsSince` after the change. */
export const lastEventId = async () =>
  ((await sql.get("SELECT COALESCE(MAX(id), 0) AS id FROM gateway_events")) as { id: bigint }).id;

/**
 * The events written after `after`, oldest first. Audit-log entries are events too (GUILD_AUDIT_LOG_ENTRY_CREATE);
 * tests read them with `auditEntries`, so the event lists they compare leave them out.
 */
export const eventsSince = async <Payload = Record<string, unknown>>(after: bigint) =>
  (
    (await sql.all(
      "SELECT type, payload FROM gateway_events WHERE id > ? AND type != 'GUILD_AUDIT_LOG_ENTRY_CREATE' ORDER BY id",
      after,
    )) as Array<{
      type: string;
      payload: string;
    }>
  ).map((event) => ({ type: event.type, d: JSON.parse(event.payload) as Payload }));

export interface AuditEntry {
  userId: string;
  targetId: string | null;
  reason: string | null;
  changes: Array<{ key: string; old_value?: unknown; new_value?: unknown }>;
  options: Record<string, string> | null;
}

/** A guild's audit-log entries of one action type (and target, when given), oldest first. */
export const auditEntries = async (guildId: string, actionType: number, targetId?: string): Promise<AuditEntry[]> =>
  (
    (await sql.all(
      "SELECT user_id, target_id, reason, changes, options FROM audit_log_entries WHERE guild_id = ? AND action_type = ? AND (CAST(? AS TEXT) IS NULL OR target_id = ?) ORDER BY id",
      BigInt(guildId),
      actionType,
      targetId ?? null,
      targetId ?? null,
    )) as Array<{
      user_id: bigint;
      target_id: string | null;
      reason: string | null;
      changes: string | null;
      options: string | null;
    }>
  ).map((entry) => ({
    userId: String(entry.user_id),
    targetId: entry.target_id,
    reason: entry.reason,
    changes: entry.changes ? (JSON.parse(entry.changes) as AuditEntry["changes"]) : [],
    options: entry.options ? (JSON.parse(entry.options) as Record<string, string>) : null,
  }));

/** The newest audit-log entry's id: pass it to `auditSince` after the change. */
export const lastAuditId = async () =>
  ((await sql.get("SELECT COALESCE(MAX(id), 0) AS id FROM audit_log_entries")) as { id: bigint }).id;

/** A guild's audit-log rows written after `after`, oldest first, as stored. */
export const auditSince = async (guildId: string, after: bigint) =>
  (await sql.all(
    "SELECT user_id, action_type, reason, changes FROM audit_log_entries WHERE guild_id = ? AND id > ? ORDER BY id",
    BigInt(guildId),
    after,
  )) as Array<{
    user_id: bigint;
    action_type: bigint;
    reason: string | null;
    changes: string | null;
  }>;

/** A permission overwrite as the API answers it. */
export interface WireOverwrite {
  id: string;
  type: number;
  allow: string;
  deny: string;
}

/** A guild channel as the API answers it: the fields the channel tests read, the rest left open. */
export type WireChannel = Record<string, unknown> & {
  id: string;
  type: number;
  name: string;
  position: number;
  parent_id: string | null;
  permission_overwrites: WireOverwrite[];
};
