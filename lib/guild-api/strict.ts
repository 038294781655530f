// DISCORD_STRICT=1: the built-in API refuses what Discord refuses and offers nothing Discord does not, so the dashboard
// (and any bot) can be tried against Discord's terms without Discord. Every operation is judged by Discord's own rule
// (discordPolicyOf in lib/discord/policies.ts): management routes take bot tokens only (a Bearer token gets Discord's
// 401 whatever its scopes, and `guildhall.manage` is an unknown scope), Guildhall's extension routes are not routed
// (404 as any unknown route), and where Guildhall is more lenient than Discord (Search Guild Members v2's permissions)
// Discord's requirement holds. One switch per process, read once: the router is built from it at start.
import { discordPolicyOf, POLICIES, type OperationName, type OperationPolicy } from "@/lib/discord/policies";

let strict = process.env.DISCORD_STRICT === "1";

/** Whether this process's API runs on Discord's terms (DISCORD_STRICT=1). */
export const discordStrict = (): boolean => strict;

/** Sets the mode before the server starts (startGuildhallServer's `strict` option, for tests and scripts). */
export function setDiscordStrict(on: boolean): void {
  strict = on;
}

/** The rule this process judges `operation` by: Discord's in strict mode (null: not routed), Guildhall's otherwise. */
export function apiPolicyOf(operation: OperationName): OperationPolicy | null {
  return strict ? discordPolicyOf(operation) : POLICIES[operation];
}
