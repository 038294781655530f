// Modify Guild Welcome Screen: the form's values and the action's input, with the spec's limits (up to 5 channels)
// and Discord's (description 140 characters, a channel's description 1 to 50).
import { z } from "zod";
import {
  WELCOME_CHANNEL_DESCRIPTION_LENGTH,
  WELCOME_CHANNELS_MAX,
  WELCOME_DESCRIPTION_MAX,
} from "@/lib/discord/limits";
import { guildActionBase, snowflakeSchema } from "./common";
import { charsBetween, emojiReference, refineEmoji } from "./community";

export const WelcomeChannelSchema = z
  .object({
    channel_id: snowflakeSchema,
    description: charsBetween(
      WELCOME_CHANNEL_DESCRIPTION_LENGTH.min,
      WELCOME_CHANNEL_DESCRIPTION_LENGTH.max,
      "The description must",
    ),
    ...emojiReference,
  })
  .superRefine(refineEmoji);

export const WelcomeScreenSchema = z.object({
  enabled: z.boolean(),
  description: charsBetween(0, WELCOME_DESCRIPTION_MAX, "The description must"),
  welcome_channels: z
    .array(WelcomeChannelSchema)
    .max(WELCOME_CHANNELS_MAX, `At most ${WELCOME_CHANNELS_MAX} channels.`)
    .superRefine((channels, ctx) => {
      const seen = new Set<string>();
      channels.forEach((channel, index) => {
        if (seen.has(channel.channel_id))
          ctx.addIssue({ code: "custom", path: [index, "channel_id"], message: "This channel is already listed." });
        seen.add(channel.channel_id);
      });
    }),
});
export type WelcomeScreenValues = z.infer<typeof WelcomeScreenSchema>;

export const ModifyWelcomeScreenInputSchema = WelcomeScreenSchema.extend(guildActionBase);
export type ModifyWelcomeScreenInput = z.input<typeof ModifyWelcomeScreenInputSchema>;
