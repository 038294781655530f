// The Developer Portal's Privileged Gateway Intents: each switch sets its intent's _LIMITED application flag (what
// Discord's portal sets for an application below 100 servers) or clears both that and the approved flag. IDENTIFY
// refuses a privileged intent whose flags are both clear (4014), and bots need GUILD_MEMBERS for List Guild Members.
import { ApplicationFlags } from "discord-api-types/v10";
import { transaction } from "../store/db";
import { findApplicationFlags, updateApplicationSetting } from "../store/applications";
import type { ApplicationAccess } from "./applications";

export const PRIVILEGED_INTENT_SETTINGS = [
  {
    key: "presence",
    label: "Presence Intent",
    description: "Receive members' presences: their status in GUILD_CREATE and REQUEST_GUILD_MEMBERS answers.",
    approved: ApplicationFlags.GatewayPresence,
    limited: ApplicationFlags.GatewayPresenceLimited,
  },
  {
    key: "guild_members",
    label: "Server Members Intent",
    description:
      "Receive GUILD_MEMBER_ADD, GUILD_MEMBER_UPDATE and GUILD_MEMBER_REMOVE, request the whole member list over the gateway, and list members through the API.",
    approved: ApplicationFlags.GatewayGuildMembers,
    limited: ApplicationFlags.GatewayGuildMembersLimited,
  },
  {
    key: "message_content",
    label: "Message Content Intent",
    description: "Receive the content of messages (Guildhall stores no messages; Discord bots ask for it).",
    approved: ApplicationFlags.GatewayMessageContent,
    limited: ApplicationFlags.GatewayMessageContentLimited,
  },
] as const;

export type PrivilegedIntentKey = (typeof PRIVILEGED_INTENT_SETTINGS)[number]["key"];
export const PRIVILEGED_INTENT_KEYS = PRIVILEGED_INTENT_SETTINGS.map((s) => s.key) as [
  PrivilegedIntentKey,
  ...PrivilegedIntentKey[],
];

/** Which privileged intents the application's flags enable. */
export function privilegedIntentsOf(flags: number | bigint): Record<PrivilegedIntentKey, boolean> {
  const bits = BigInt(flags);
  return Object.fromEntries(
    PRIVILEGED_INTENT_SETTINGS.map((s) => [s.key, (bits & BigInt(s.approved | s.limited)) !== 0n]),
  ) as Record<PrivilegedIntentKey, boolean>;
}

/** Turns one privileged intent on or off for the application (its owner only: the access says who acts). */
export async function setPrivilegedIntent(
  access: ApplicationAccess,
  key: PrivilegedIntentKey,
  enabled: boolean,
): Promise<void> {
  const setting = PRIVILEGED_INTENT_SETTINGS.find((s) => s.key === key)!;
  await transaction(async () => {
    const id = access.application.id;
    const flags = (await findApplicationFlags(id)) ?? 0n;
    const next = enabled ? flags | BigInt(setting.limited) : flags & ~BigInt(setting.approved | setting.limited);
    await updateApplicationSetting(id, "flags", next);
  });
}
