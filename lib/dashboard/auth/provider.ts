// The OAuth2 provider moderators sign in with: the built-in one by default, or Discord's own when the URLs and
// client credentials point there (lib/dashboard/config.ts). Scopes `identify guilds`, plus `guildhall.manage` when the dashboard
// manages with the moderator's own token (user mode); PKCE and state checked.
import "server-only";
import type { OAuthConfig } from "next-auth/providers/oauth";
import type { APIUser } from "discord-api-types/v10";
import type { DashboardConfig } from "@/lib/dashboard/config";
import { userAvatarUrl } from "@/lib/dashboard/data/cdn";

export const PROVIDER_ID = "guildhall";

export function guildhallProvider(config: DashboardConfig): OAuthConfig<APIUser> {
  return {
    id: PROVIDER_ID,
    name: "Guildhall",
    type: "oauth",
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    authorization: { url: config.authorizeUrl, params: { scope: config.scopes } },
    token: config.tokenUrl,
    userinfo: config.userInfoUrl,
    checks: ["pkce", "state"],
    client: { token_endpoint_auth_method: "client_secret_basic" },
    profile(profile) {
      return {
        id: profile.id,
        name: profile.global_name ?? profile.username,
        email: null,
        image: userAvatarUrl(profile.id, profile.avatar),
      };
    },
  };
}
