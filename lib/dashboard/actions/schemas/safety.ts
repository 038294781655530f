// The safety page: Modify Guild Incident Actions (pause invites or DMs for a preset up to 24 hours, or lift the
// pause) and the guild features a moderator with Manage Server may switch (Modify Guild).
import { z } from "zod";
import { INCIDENT_ACTION_MAX_MS } from "@/lib/discord/limits";
import { guildActionBase } from "./common";

export const INCIDENT_ACTIONS = [
  {
    key: "invites",
    field: "invites_disabled_until",
    label: "Pause invites",
    paused: "Invites are paused",
    description: "Nobody can create or use an invite to join.",
  },
  {
    key: "dms",
    field: "dms_disabled_until",
    label: "Pause DMs",
    paused: "DMs are paused",
    description: "Members who aren't friends can't start DMs with each other in this server.",
  },
] as const;
export type IncidentActionKey = (typeof INCIDENT_ACTIONS)[number]["key"];

const MAX_HOURS = INCIDENT_ACTION_MAX_MS / 3_600_000;
export const INCIDENT_PRESET_HOURS = [1, 6, 12, MAX_HOURS] as const;

/** `hours`: how long from now the pause lasts (at most 24); 0 lifts it. */
export const IncidentActionInputSchema = z.object({
  ...guildActionBase,
  action: z.enum(["invites", "dms"]),
  hours: z.number().int().min(0).max(MAX_HOURS, `At most ${MAX_HOURS} hours.`),
});
export type IncidentActionInput = z.infer<typeof IncidentActionInputSchema>;

/** Features Modify Guild lets Manage Server switch, as the safety page offers them. */
export const SAFETY_FEATURES = ["RAID_ALERTS_DISABLED", "INVITES_DISABLED"] as const;

export const GuildFeatureInputSchema = z.object({
  ...guildActionBase,
  feature: z.enum(SAFETY_FEATURES),
  enabled: z.boolean(),
});

export const MFA_LEVELS = [
  { value: 0, label: "Off", meaning: "Moderators don't need two-factor authentication." },
  {
    value: 1,
    label: "Required",
    meaning: "Moderators need two-factor authentication on their account to take moderation actions.",
  },
] as const;
