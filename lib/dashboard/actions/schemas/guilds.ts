// Modify Guild: the settings form's values, and the action's input (only the fields that changed).
import { z } from "zod";
import { GuildSystemChannelFlags } from "discord-api-types/v10";
import {
  AFK_TIMEOUTS,
  GUILD_BANNER_ASPECT,
  GUILD_DESCRIPTION_MAX,
  GUILD_FEATURES,
  GUILD_LOCALES,
  GUILD_NAME_LENGTH,
  ICON_MAX_SIZE,
  MUTABLE_GUILD_FEATURES,
  SYSTEM_CHANNEL_FLAGS_ALL,
} from "@/lib/discord/limits";
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { guildFeatureRequirement } from "@/lib/discord/guild-feature-names";
import { guildActionBase, snowflakeSchema } from "./common";

const chars = (value: string) => [...value].length;
const nullableChannel = snowflakeSchema.nullable();
const imageData = z
  .string()
  .regex(/^data:image\/(png|jpeg|gif);base64,[A-Za-z0-9+/]+=*$/, "Upload a PNG, JPEG or GIF image.")
  .nullable();

export const GuildSettingsSchema = z.object({
  name: z
    .string()
    .refine((v) => v === v.trim(), "The name can't start or end with spaces.")
    .refine(
      (v) => chars(v) >= GUILD_NAME_LENGTH.min && chars(v) <= GUILD_NAME_LENGTH.max,
      `Must be between ${GUILD_NAME_LENGTH.min} and ${GUILD_NAME_LENGTH.max} characters.`,
    ),
  description: z.string().max(GUILD_DESCRIPTION_MAX, `At most ${GUILD_DESCRIPTION_MAX} characters.`).nullable(),
  icon: imageData,
  banner: imageData,
  splash: imageData,
  discovery_splash: imageData,
  afk_channel_id: nullableChannel,
  afk_timeout: z
    .number()
    .refine((v) => (AFK_TIMEOUTS as readonly number[]).includes(v), `One of ${AFK_TIMEOUTS.join(", ")} seconds.`),
  system_channel_id: nullableChannel,
  system_channel_flags: z
    .number()
    .int()
    .min(0)
    .refine((v) => (v & ~SYSTEM_CHANNEL_FLAGS_ALL) === 0, "Unknown system channel flag."),
  rules_channel_id: nullableChannel,
  public_updates_channel_id: nullableChannel,
  safety_alerts_channel_id: nullableChannel,
  verification_level: z.number().int().min(0).max(4),
  default_message_notifications: z.number().int().min(0).max(1),
  explicit_content_filter: z.number().int().min(0).max(2),
  preferred_locale: z.enum(GUILD_LOCALES),
  features: z.array(z.enum(GUILD_FEATURES)).max(64),
  premium_progress_bar_enabled: z.boolean(),
});

export type GuildSettingsValues = z.infer<typeof GuildSettingsSchema>;

/** The action's input: the changed fields only (at least one). */
export const ModifyGuildInputSchema = GuildSettingsSchema.partial()
  .extend(guildActionBase)
  .refine((input) => Object.keys(input).some((key) => key !== "guildId" && key !== "reason"), {
    message: "Nothing to save.",
    path: [],
  });

export type ModifyGuildInput = z.input<typeof ModifyGuildInputSchema>;

// ── Presentation of the enumerations, with their meaning ──
export const VERIFICATION_LEVELS = [
  { value: 0, label: "None", meaning: "Unrestricted" },
  { value: 1, label: "Low", meaning: "Must have a verified email" },
  { value: 2, label: "Medium", meaning: "Must also be registered for longer than 5 minutes" },
  { value: 3, label: "High", meaning: "Must also be a member of this server for longer than 10 minutes" },
  { value: 4, label: "Highest", meaning: "Must have a verified phone number" },
] as const;

export const NOTIFICATION_LEVELS = [
  { value: 0, label: "All messages", meaning: "Members are notified of every message by default" },
  { value: 1, label: "Only @mentions", meaning: "Members are notified only when mentioned" },
] as const;

export const EXPLICIT_CONTENT_FILTERS = [
  { value: 0, label: "Don't scan", meaning: "No media is scanned" },
  { value: 1, label: "Members without roles", meaning: "Scan media from members without a role" },
  { value: 2, label: "All members", meaning: "Scan media from everyone" },
] as const;

export const AFK_TIMEOUT_OPTIONS = AFK_TIMEOUTS.map((seconds) => ({
  value: seconds,
  label: seconds < 3600 ? `${seconds / 60} minute${seconds === 60 ? "" : "s"}` : "1 hour",
}));

/** The system channel flags, phrased as Discord's settings (checked = the notice is sent, i.e. the SUPPRESS bit is clear). */
export const SYSTEM_CHANNEL_FLAG_OPTIONS = [
  {
    flag: GuildSystemChannelFlags.SuppressJoinNotifications,
    name: "SUPPRESS_JOIN_NOTIFICATIONS",
    label: "Send a random welcome message when someone joins this server",
  },
  {
    flag: GuildSystemChannelFlags.SuppressJoinNotificationReplies,
    name: "SUPPRESS_JOIN_NOTIFICATION_REPLIES",
    label: "Prompt members to reply to welcome messages with a sticker",
  },
  {
    flag: GuildSystemChannelFlags.SuppressPremiumSubscriptions,
    name: "SUPPRESS_PREMIUM_SUBSCRIPTIONS",
    label: "Send a message when someone boosts this server",
  },
  {
    flag: GuildSystemChannelFlags.SuppressGuildReminderNotifications,
    name: "SUPPRESS_GUILD_REMINDER_NOTIFICATIONS",
    label: "Send helpful tips for server setup",
  },
  {
    flag: GuildSystemChannelFlags.SuppressRoleSubscriptionPurchaseNotifications,
    name: "SUPPRESS_ROLE_SUBSCRIPTION_PURCHASE_NOTIFICATIONS",
    label: "Send a message when someone purchases or renews a role subscription",
  },
  {
    flag: GuildSystemChannelFlags.SuppressRoleSubscriptionPurchaseNotificationReplies,
    name: "SUPPRESS_ROLE_SUBSCRIPTION_PURCHASE_NOTIFICATION_REPLIES",
    label: "Prompt members to reply to role subscription messages with a sticker",
  },
] as const;

/** The features Modify Guild can toggle, what they do, and the permission each takes. */
export const FEATURE_TOGGLES = (Object.keys(MUTABLE_GUILD_FEATURES) as Array<keyof typeof MUTABLE_GUILD_FEATURES>).map(
  (feature) => ({
    feature,
    permission: MUTABLE_GUILD_FEATURES[feature] === "ADMINISTRATOR" ? P.Administrator : P.ManageGuild,
    label: {
      COMMUNITY: "Community",
      DISCOVERABLE: "Server Discovery",
      INVITES_DISABLED: "Pause invites",
      RAID_ALERTS_DISABLED: "Disable raid alerts",
    }[feature],
    description: {
      COMMUNITY: "Enables Community features: welcome screen, announcement channels, discovery.",
      DISCOVERABLE: "Lists the server publicly. Needs a Community server with a description and a rules channel.",
      INVITES_DISABLED: "Nobody can join through an invite until this is turned off.",
      RAID_ALERTS_DISABLED: "Stops alerts about suspicious join activity.",
    }[feature],
  }),
);

export type ImageField = "icon" | "banner" | "splash" | "discovery_splash";

/** Checked in the browser before upload; the API checks the same rules again. */
export const IMAGE_FIELD_RULES: Record<
  ImageField,
  {
    label: string;
    formats: readonly string[];
    feature?: string;
    animatedFeature?: string;
    maxSize?: number;
    aspect?: { width: number; height: number };
    /** The field's rules; the image field says the feature it needs (`feature`) when the server lacks it. */
    hint: string;
  }
> = {
  icon: {
    label: "Icon",
    formats: ["image/png", "image/jpeg", "image/gif"],
    animatedFeature: "ANIMATED_ICON",
    maxSize: ICON_MAX_SIZE,
    hint: `PNG, JPEG or GIF, at most ${ICON_MAX_SIZE}×${ICON_MAX_SIZE}. Animated GIFs need ${guildFeatureRequirement("ANIMATED_ICON")}.`,
  },
  banner: {
    label: "Banner",
    formats: ["image/png", "image/jpeg", "image/gif"],
    feature: "BANNER",
    animatedFeature: "ANIMATED_BANNER",
    aspect: GUILD_BANNER_ASPECT,
    hint: `16:9 PNG, JPEG or GIF; animated needs ${guildFeatureRequirement("ANIMATED_BANNER")}.`,
  },
  splash: {
    label: "Invite background",
    formats: ["image/png", "image/jpeg"],
    feature: "INVITE_SPLASH",
    aspect: GUILD_BANNER_ASPECT,
    hint: "16:9 PNG or JPEG.",
  },
  discovery_splash: {
    label: "Discovery splash",
    formats: ["image/png", "image/jpeg"],
    feature: "DISCOVERABLE",
    aspect: GUILD_BANNER_ASPECT,
    hint: "16:9 PNG or JPEG.",
  },
};

/**
 * Largest image accepted for upload. A server action's request body is capped (Next's serverActions.bodySizeLimit,
 * 1 MB by default) and a data URI is 4/3 of the file.
 */
export const IMAGE_UPLOAD_MAX_BYTES = 700 * 1024;

/** Whether width×height is ratio within a pixel of rounding (the API's rule). */
export function hasAspectRatio(width: number, height: number, ratio: { width: number; height: number }): boolean {
  return Math.abs(width * ratio.height - height * ratio.width) < ratio.width;
}

/** Why an image cannot be used for the field, or null. */
export function imageProblem(
  field: ImageField,
  image: { type: string; size: number; width: number; height: number; animated: boolean },
  features: readonly string[],
): string | null {
  const rule = IMAGE_FIELD_RULES[field];
  if (rule.feature && !features.includes(rule.feature))
    return `The server needs ${guildFeatureRequirement(rule.feature)} for a ${rule.label.toLowerCase()}.`;
  if (!rule.formats.includes(image.type))
    return `Use ${rule.formats.map((f) => f.replace("image/", "").toUpperCase()).join(", ")}.`;
  if (image.size > IMAGE_UPLOAD_MAX_BYTES)
    return `At most ${Math.round(IMAGE_UPLOAD_MAX_BYTES / 1024)} KB (this one is ${Math.round(image.size / 1024)} KB).`;
  if (image.animated && (!rule.animatedFeature || !features.includes(rule.animatedFeature)))
    return rule.animatedFeature
      ? `Animated images need ${guildFeatureRequirement(rule.animatedFeature)}.`
      : "Animated images can't be used here.";
  if (rule.maxSize && (image.width > rule.maxSize || image.height > rule.maxSize))
    return `At most ${rule.maxSize}×${rule.maxSize} (this one is ${image.width}×${image.height}).`;
  if (rule.aspect && !hasAspectRatio(image.width, image.height, rule.aspect))
    return `Must be ${rule.aspect.width}:${rule.aspect.height} (this one is ${image.width}×${image.height}).`;
  return null;
}
