// The welcome screen: Get Guild Welcome Screen and Modify Guild Welcome Screen. Its enabled flag is the guild's
// WELCOME_SCREEN_ENABLED feature; its description and channels are columns of the guild row.
import { isUnicodeEmoji } from "@/lib/discord/emoji";
import { diffChanges, auditGuildUpdate } from "../audit-log";
import { Errors, invalidFormBody, type FieldIssue } from "../errors";
import { Permission, type GuildAccess } from "../guards";
import type { ModifyGuildWelcomeScreenBody } from "../schemas/community";
import { serializeWelcomeScreen, type WelcomeScreenChannel } from "../serializers/invites";
import { transaction } from "../store/db";
import { isContentChannelOf } from "../store/channels";
import { findGuildEmoji } from "../store/expressions";
import { findGuild, updateGuildWelcomeScreen, type GuildRow } from "../store/guilds";
import { emitGuildUpdate } from "./widget";
import { mapSequentially } from "../sequential";

const FEATURE = "WELCOME_SCREEN_ENABLED";
const features = (guild: GuildRow) => JSON.parse(guild.features) as string[];

/** Get Guild Welcome Screen: any member while it is enabled; MANAGE_GUILD otherwise. */
export function getGuildWelcomeScreen(access: GuildAccess) {
  if (!features(access.guild).includes(FEATURE)) access.require(Permission.ManageGuild);
  return serializeWelcomeScreen(access.guild);
}

/**
 * The welcome channels as stored: each a channel of the guild; emoji_id a custom emoji of the guild (emoji_name then
 * becomes that emoji's name), otherwise emoji_name a unicode emoji or null. Field errors are collected.
 */
async function resolveWelcomeChannels(
  guildId: bigint,
  channels: NonNullable<ModifyGuildWelcomeScreenBody["welcome_channels"]>,
  issues: FieldIssue[],
): Promise<WelcomeScreenChannel[]> {
  return mapSequentially(channels, async (channel, index) => {
    const path = ["welcome_channels", index];
    // Any guild channel but categories and threads.
    if (!(await isContentChannelOf(guildId, BigInt(channel.channel_id))))
      issues.push({
        path: [...path, "channel_id"],
        code: "CHANNEL_INVALID",
        message: "Must be a channel of this guild.",
      });
    let emojiName = channel.emoji_name ?? null;
    const emojiId = channel.emoji_id ?? null;
    if (emojiId !== null) {
      const emoji = await findGuildEmoji(guildId, BigInt(emojiId));
      if (!emoji)
        issues.push({
          path: [...path, "emoji_id"],
          code: "EMOJI_INVALID",
          message: "Must be a custom emoji of this guild.",
        });
      else emojiName = emoji.name;
    } else if (emojiName !== null && !isUnicodeEmoji(emojiName)) {
      issues.push({
        path: [...path, "emoji_name"],
        code: "EMOJI_INVALID",
        message: "Must be a unicode emoji, or the name of the custom emoji given by emoji_id.",
      });
    }
    return {
      channel_id: channel.channel_id,
      description: channel.description,
      emoji_id: emojiId,
      emoji_name: emojiName,
    };
  });
}

/**
 * Modify Guild Welcome Screen (MANAGE_GUILD): enabled toggles WELCOME_SCREEN_ENABLED (a Community feature: enabling it
 * needs COMMUNITY) and fires GUILD_UPDATE when it changes; description and welcome_channels replace the stored ones
 * (null clears). One GUILD_UPDATE audit entry with the changed keys.
 */
export async function modifyGuildWelcomeScreen(
  access: GuildAccess,
  body: ModifyGuildWelcomeScreenBody,
  reason: string | null,
  now = Date.now(),
) {
  access.authorize("Modify Guild Welcome Screen");
  const guildId = access.guildId;
  return await transaction(async () => {
    const before = await findGuild(guildId);
    if (!before) throw Errors.unknownGuild();
    const issues: FieldIssue[] = [];
    let nextFeatures = features(before);
    const wasEnabled = nextFeatures.includes(FEATURE);
    if (body.enabled !== undefined && body.enabled !== null && body.enabled !== wasEnabled) {
      if (body.enabled && !nextFeatures.includes("COMMUNITY"))
        issues.push({
          path: ["enabled"],
          code: "GUILD_FEATURE_REQUIRED",
          message: "Only Community servers can enable the welcome screen.",
        });
      nextFeatures = body.enabled ? [...nextFeatures, FEATURE] : nextFeatures.filter((f) => f !== FEATURE);
    }
    const description = body.description === undefined ? before.welcome_description : body.description || null;
    const channels =
      body.welcome_channels === undefined
        ? null
        : await resolveWelcomeChannels(guildId, body.welcome_channels ?? [], issues);
    if (issues.length > 0) throw invalidFormBody(issues);

    await updateGuildWelcomeScreen(guildId, {
      features: JSON.stringify(nextFeatures),
      welcomeDescription: description,
      welcomeChannels: channels === null ? before.welcome_channels : JSON.stringify(channels),
    });
    const after = (await findGuild(guildId)) as GuildRow;
    const view = (g: GuildRow) => ({ ...serializeWelcomeScreen(g), enabled: features(g).includes(FEATURE) });
    const changes = diffChanges(view(before), view(after), ["description", "welcome_channels", "enabled"]);
    await auditGuildUpdate(access, reason, changes);
    if (features(after).includes(FEATURE) !== wasEnabled) await emitGuildUpdate(guildId, now);
    return serializeWelcomeScreen(after);
  });
}
