// Modify Guild Widget: the form's values and the action's input.
import { z } from "zod";
import { GuildWidgetStyle } from "discord-api-types/v10";
import { guildActionBase, snowflakeSchema } from "./common";

export const WidgetSettingsSchema = z.object({
  enabled: z.boolean(),
  /** The channel the widget's Join button invites to; null for no invite. */
  channel_id: snowflakeSchema.nullable(),
});
export type WidgetSettingsValues = z.infer<typeof WidgetSettingsSchema>;

export const ModifyWidgetInputSchema = WidgetSettingsSchema.extend(guildActionBase);
export type ModifyWidgetInput = z.input<typeof ModifyWidgetInputSchema>;

/** Get Guild Widget Image styles, as Discord names and draws them. */
export const WIDGET_STYLES = [
  { style: GuildWidgetStyle.Shield, label: "Shield", description: "A small badge with the online count." },
  {
    style: GuildWidgetStyle.Banner1,
    label: "Banner 1",
    description: "Server name and online count, with the Discord logo.",
  },
  { style: GuildWidgetStyle.Banner2, label: "Banner 2", description: "A compact banner with the server icon." },
  { style: GuildWidgetStyle.Banner3, label: "Banner 3", description: "Banner 2 with a Chat Now call to action." },
  {
    style: GuildWidgetStyle.Banner4,
    label: "Banner 4",
    description: "A large banner with the server icon and a Join button.",
  },
] as const;
export type WidgetStyle = GuildWidgetStyle;
