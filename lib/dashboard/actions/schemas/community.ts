// Pieces the widget, welcome screen and onboarding forms share: lengths counted in characters as the API counts
// them, emoji references, and id lists without repeats.
import { z } from "zod";
import { EMOJI_NAME_MAX, isUnicodeEmoji } from "@/lib/discord/emoji";
import { snowflakeSchema } from "./common";

const chars = (value: string) => [...value].length;

/** A string of min…max characters (code points, as the API counts). */
export const charsBetween = (min: number, max: number, label = "Must") =>
  z
    .string()
    .refine(
      (value) => chars(value) >= min && chars(value) <= max,
      min > 0 ? `${label} be between ${min} and ${max} characters.` : `${label} be at most ${max} characters.`,
    );

/**
 * An emoji reference: a custom emoji of the guild (emoji_id, its name alongside), a standard emoji (emoji_name only, a
 * unicode character), or none (both null).
 */
export const emojiReference = {
  emoji_id: snowflakeSchema.nullable(),
  emoji_name: z.string().max(EMOJI_NAME_MAX).nullable(),
};

/** Refines an object holding an emoji reference: without an id, the name must be a unicode emoji. */
export function refineEmoji(value: { emoji_id: string | null; emoji_name: string | null }, ctx: z.RefinementCtx): void {
  if (value.emoji_id === null && value.emoji_name !== null && !isUnicodeEmoji(value.emoji_name)) {
    ctx.addIssue({
      code: "custom",
      path: ["emoji_name"],
      message: "Use a standard emoji (like 👋), or pick one of the server's emojis.",
    });
  }
}
