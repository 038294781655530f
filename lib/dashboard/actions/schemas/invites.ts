// Create Channel Invite (channel, expiry preset, use limit, temporary, unique), Delete Invite (one, or many at once),
// and Update Target Users (a CSV of user ids read in the browser and sent as text).
import { z } from "zod";
import { ChannelType, type RESTGetAPIInviteTargetUsersJobStatusResult } from "discord-api-types/v10";
import { INVITE_MAX_AGE, INVITE_MAX_USES } from "@/lib/discord/limits";
import { guildActionBase, snowflakeSchema } from "./common";

/** Discord's "Expire after" choices, in seconds; 0 never expires. */
export const INVITE_MAX_AGE_PRESETS = [
  { label: "30 minutes", seconds: 1800 },
  { label: "1 hour", seconds: 3600 },
  { label: "6 hours", seconds: 21_600 },
  { label: "12 hours", seconds: 43_200 },
  { label: "1 day", seconds: INVITE_MAX_AGE.default },
  { label: "7 days", seconds: INVITE_MAX_AGE.max },
  { label: "Never", seconds: 0 },
] as const;

/** Discord's "Max number of uses" choices; 0 is unlimited. */
export const INVITE_MAX_USES_PRESETS = [0, 1, 5, 10, 25, 50, INVITE_MAX_USES.max] as const;

/** Channels an invite can point at (not categories or threads). */
export const INVITABLE_CHANNEL_TYPES: readonly ChannelType[] = [
  ChannelType.GuildText,
  ChannelType.GuildVoice,
  ChannelType.GuildAnnouncement,
  ChannelType.GuildStageVoice,
  ChannelType.GuildForum,
  ChannelType.GuildMedia,
];

const presetSeconds = INVITE_MAX_AGE_PRESETS.map((p) => p.seconds) as readonly number[];

export const CreateInviteFormSchema = z.object({
  channelId: snowflakeSchema,
  max_age: z
    .number()
    .int()
    .refine((v) => presetSeconds.includes(v), "Pick one of the expiry choices."),
  max_uses: z
    .number({ message: "Enter a number." })
    .int("Whole uses only.")
    .min(INVITE_MAX_USES.min, "At least 0.")
    .max(INVITE_MAX_USES.max, `At most ${INVITE_MAX_USES.max}.`),
  temporary: z.boolean(),
  unique: z.boolean(),
});
export type CreateInviteValues = z.infer<typeof CreateInviteFormSchema>;

export const CreateInviteInputSchema = CreateInviteFormSchema.extend(guildActionBase);

/** Invite codes are base62 (vanity codes may also hold dashes). */
export const inviteCodeSchema = z.string().regex(/^[A-Za-z0-9-]{1,32}$/, "Not a valid invite code.");

export const DeleteInviteInputSchema = z.object({ ...guildActionBase, code: inviteCodeSchema });

/** Most invites one "Revoke selected" deletes: a guild holds about this many at most (Discord caps them near 1000). */
export const BULK_DELETE_INVITES_MAX = 1000;

/** "Revoke selected": the invites' codes (each once, in the order selected) and one reason for every delete. */
export const BulkDeleteInvitesInputSchema = z.object({
  ...guildActionBase,
  codes: z
    .array(inviteCodeSchema)
    .min(1, "Select at least one invite.")
    .max(BULK_DELETE_INVITES_MAX, `At most ${BULK_DELETE_INVITES_MAX} invites at once.`)
    .transform((codes) => [...new Set(codes)]),
});

/**
 * Largest target-users file the dashboard sends. A server action's request body is capped (Next's
 * serverActions.bodySizeLimit, 1 MB by default); at up to 21 bytes a line this is still about 40,000 users.
 */
export const TARGET_USERS_FILE_MAX_BYTES = 900 * 1024;

export const TargetUsersInputSchema = z.object({
  ...guildActionBase,
  code: inviteCodeSchema,
  /** For the history: the file's name as the moderator picked it. */
  fileName: z.string().trim().max(255).optional(),
  csv: z
    .string()
    .refine(
      (text) => new TextEncoder().encode(text).length <= TARGET_USERS_FILE_MAX_BYTES,
      `At most ${Math.round(TARGET_USERS_FILE_MAX_BYTES / 1024)} KB.`,
    )
    .refine((text) => text.trim().length > 0, "The file is empty."),
});

/** "line 3: \"abc\" is not a valid user id" → {line: 3, problem: "\"abc\" is not a valid user id"}; other text keeps line null. */
export function parseTargetUsersProblem(message: string): { line: number | null; problem: string } {
  const match = /^line (\d+): (.*)$/s.exec(message);
  return match ? { line: Number(match[1]), problem: match[2] } : { line: null, problem: message };
}

/** How many user ids a CSV holds (blank lines and a user_id header not counted), for the history and the form. */
export function countTargetUserLines(csv: string): number {
  return csv
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .filter((line, index) => {
      const value = line
        .trim()
        .replace(/^"(.*)"$/, "$1")
        .trim();
      return value !== "" && !(index === 0 && value.toLowerCase() === "user_id");
    }).length;
}

/** A target-users job as the dashboard shows it; `total` users > 0 means only those users may accept the invite. */
export interface TargetUsersJob {
  status: number;
  total: number;
  processed: number;
  completedAt: string | null;
  errorMessage: string | null;
}

export function toTargetUsersJob(job: RESTGetAPIInviteTargetUsersJobStatusResult): TargetUsersJob {
  return {
    status: job.status,
    total: job.total_users,
    processed: job.processed_users,
    completedAt: job.completed_at,
    errorMessage: job.error_message || null,
  };
}
