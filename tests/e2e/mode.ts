// Which dashboard the specs drive (playwright.config.ts's E2E_MODE): the moderator's own token against the built-in
// API (user), or bot mode against the API on Discord's terms (bot, DISCORD_STRICT=1). Where the two differ on purpose,
// a spec asks here what the moderator's change looks like through the API.
import { E2E_MODE } from "../../playwright.config";

export const botMode = E2E_MODE === "bot";

/**
 * The audit-log reason the guild records for a moderator's change: in bot mode the bot makes it, so the dashboard
 * names the moderator in the reason ("Mod (id): …", lib/dashboard/actions/action-client.ts).
 */
export function recordedReason(reason: string, moderator: { name: string; id: string }): string {
  return botMode ? `${moderator.name} (${moderator.id}): ${reason}` : reason;
}

/** Who the guild's API names as having made a change: the moderator, or in bot mode the bot. */
export function recordedActor(moderatorId: string, botId: string): string {
  return botMode ? botId : moderatorId;
}
