// Modify Guild Incident Actions: pause invites and DMs until a time at most 24 hours ahead. While invites are paused,
// creating and accepting invites is refused (services/invites.ts, invitesPaused).
import { INCIDENT_ACTION_MAX_MS } from "@/lib/discord/limits";
import { invalidFormBody, type FieldIssue } from "../errors";
import type { GuildAccess } from "../guards";
import type { ModifyGuildIncidentActionsBody } from "../schemas/community";
import { transaction } from "../store/db";
import { findGuild, updateGuildIncidentActions, type GuildRow } from "../store/guilds";
import { emitGuildUpdate } from "./widget";

const iso = (ms: bigint | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/** The incidents data object, every field present (null when not set). */
export function serializeIncidentActions(guild: GuildRow) {
  return {
    invites_disabled_until: iso(guild.invites_disabled_until),
    dms_disabled_until: iso(guild.dms_disabled_until),
    dm_spam_detected_at: iso(guild.dm_spam_detected_at),
    raid_detected_at: iso(guild.raid_detected_at),
  };
}

type Field = "invites_disabled_until" | "dms_disabled_until";
const FIELDS: readonly Field[] = ["invites_disabled_until", "dms_disabled_until"];

/**
 * Modify Guild Incident Actions (MANAGE_GUILD): each field a time at most 24 hours ahead; null, or a time already
 * past, lifts the action; an absent field keeps its action as it is. A change fires GUILD_UPDATE with the guild.
 * Discord's audit log has no entry type for incident actions, so none is written.
 */
export async function modifyGuildIncidentActions(
  access: GuildAccess,
  body: ModifyGuildIncidentActionsBody,
  now = Date.now(),
) {
  access.authorize("Modify Guild Incident Actions");
  const issues: FieldIssue[] = [];
  const next: Partial<Record<Field, bigint | null>> = {};
  for (const field of FIELDS) {
    const value = body[field];
    if (value === undefined) continue;
    if (value !== null && value > now + INCIDENT_ACTION_MAX_MS) {
      issues.push({
        path: [field],
        code: "INCIDENT_ACTION_TOO_FAR",
        message: "Must be at most 24 hours in the future.",
      });
      continue;
    }
    next[field] = value === null || value <= now ? null : BigInt(value);
  }
  if (issues.length > 0) throw invalidFormBody(issues);

  const guildId = access.guildId;
  return await transaction(async () => {
    const before = (await findGuild(guildId)) as GuildRow;
    const invites =
      next.invites_disabled_until === undefined ? before.invites_disabled_until : next.invites_disabled_until;
    const dms = next.dms_disabled_until === undefined ? before.dms_disabled_until : next.dms_disabled_until;
    await updateGuildIncidentActions(guildId, invites, dms);
    if (invites !== before.invites_disabled_until || dms !== before.dms_disabled_until)
      await emitGuildUpdate(guildId, now);
    return serializeIncidentActions((await findGuild(guildId)) as GuildRow);
  });
}
