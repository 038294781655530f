// Integration reads for the dashboard (Get Guild Integrations): each integration as the page shows it, with its
// application's bot and the sync state the API reports (subscription integrations only).
import type { APIGuildIntegration } from "discord-api-types/v10";
import { managementApi } from "./api";
import type { UserRef } from "@/lib/dashboard/users/user-ref";
import { userRef } from "./users";
import { readOrThrow } from "./read";
import type { GuildViewer } from "./viewer";

export interface IntegrationRow {
  id: string;
  name: string;
  type: string;
  typeLabel: string;
  enabled: boolean;
  account: { id: string; name: string };
  addedBy: UserRef | null;
  application: { id: string; name: string; description: string } | null;
  bot: UserRef | null;
  scopes: string[];
  /** Subscription integrations only; null when the API does not report it. */
  sync: {
    syncing: boolean | null;
    syncedAt: string | null;
    subscriberCount: number | null;
    revoked: boolean | null;
    role: { id: string; name: string } | null;
    expireBehavior: "remove role" | "kick" | null;
    expireGraceDays: number | null;
  } | null;
}

const TYPE_LABELS: Record<string, string> = {
  discord: "Bot",
  twitch: "Twitch",
  youtube: "YouTube",
  guild_subscription: "Server subscription",
};

export function toIntegrationRow(
  integration: APIGuildIntegration,
  roleNames: ReadonlyMap<string, string>,
): IntegrationRow {
  const bot = integration.application?.bot;
  const subscription = integration.type !== "discord";
  return {
    id: integration.id,
    name: integration.name,
    type: integration.type,
    typeLabel: TYPE_LABELS[integration.type] ?? integration.type,
    enabled: integration.enabled,
    account: { id: integration.account.id, name: integration.account.name },
    addedBy: integration.user ? userRef(integration.user) : null,
    application: integration.application
      ? {
          id: integration.application.id,
          name: integration.application.name,
          description: integration.application.description,
        }
      : null,
    bot: bot ? userRef({ ...bot, bot: true }) : null,
    scopes: integration.scopes ?? [],
    sync: subscription
      ? {
          syncing: integration.syncing ?? null,
          syncedAt: integration.synced_at ?? null,
          subscriberCount: integration.subscriber_count ?? null,
          revoked: integration.revoked ?? null,
          role: integration.role_id
            ? { id: integration.role_id, name: roleNames.get(integration.role_id) ?? "deleted role" }
            : null,
          expireBehavior:
            integration.expire_behavior === undefined
              ? null
              : integration.expire_behavior === 1
                ? "kick"
                : "remove role",
          expireGraceDays: integration.expire_grace_period ?? null,
        }
      : null,
  };
}

export async function getGuildIntegrations(viewer: GuildViewer): Promise<IntegrationRow[]> {
  return readOrThrow(async () => {
    const api = await managementApi(viewer.session);
    const roleNames = new Map(viewer.roles.map((r) => [r.id, r.name]));
    return (await api.guilds.getIntegrations(viewer.guild.id)).map((integration) =>
      toIntegrationRow(integration, roleNames),
    );
  });
}
