// The dashboard's configuration, read from the environment on the server only: where the guild API is, which
// OAuth2 provider signs moderators in, and how the dashboard authenticates its API calls. Never import this
// from a client component: it holds the client secret and the bot token.
//
// Defaults target the built-in API in the same process (over real HTTP, like any other client); pointing the
// URLs at Discord (GUILD_API_URL=https://discord.com/api, OAUTH_AUTHORIZE_URL=https://discord.com/oauth2/authorize)
// and supplying the application's credentials makes the same dashboard manage guilds on Discord itself.
import "server-only";
import crypto from "node:crypto";
import fs from "node:fs";
import { secretsPathBase } from "@/lib/db/database-url";
import { MANAGE_SCOPE } from "@/lib/discord/policies";
import { readDemoSecrets } from "@/lib/seed/demo-secrets";

/** How management calls authenticate: the moderator's own OAuth2 token, or the application's bot token. */
export type GuildApiAuthMode = "user" | "bot";

export interface DashboardConfig {
  /** The dashboard's public origin (next-auth's NEXTAUTH_URL). */
  publicUrl: string;
  /** The guild API base without version, e.g. http://127.0.0.1:3000/api or https://discord.com/api */
  guildApiUrl: string;
  /** The same API as browsers and other websites reach it (widget images and embed snippets). */
  browserApiUrl: string;
  apiVersion: string;
  /** Browser-facing base of guild icons and avatars (the built-in /cdn, or Discord's CDN). */
  cdnUrl: string;
  /** Browser-facing authorize page. */
  authorizeUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  userInfoUrl: string;
  clientId: string;
  clientSecret: string;
  authMode: GuildApiAuthMode;
  /** Only in bot mode. */
  botToken: string | null;
  scopes: string;
}

const trimSlash = (url: string) => url.replace(/\/+$/, "");

export function publicUrl(): string {
  return trimSlash(
    process.env.PUBLIC_URL ?? process.env.NEXTAUTH_URL ?? `http://localhost:${process.env.PORT ?? 3000}`,
  );
}

let cached: { key: string; config: DashboardConfig } | null = null;

export function dashboardConfig(): DashboardConfig {
  // Cheap to rebuild, but the demo secrets are a file read: keep one per environment.
  const key = [
    process.env.PUBLIC_URL,
    process.env.PORT,
    process.env.GUILD_API_URL,
    process.env.GUILD_API_PUBLIC_URL,
    process.env.OAUTH_AUTHORIZE_URL,
    process.env.CDN_URL,
    process.env.GUILD_API_AUTH,
    process.env.GUILD_API_BOT_TOKEN,
    process.env.GUILD_API_VERSION,
    process.env.GUILDHALL_CLIENT_ID,
    process.env.GUILDHALL_CLIENT_SECRET,
    process.env.DATABASE_URL,
  ].join("|");
  if (cached?.key === key) return cached.config;

  const origin = publicUrl();
  const guildApiUrl = trimSlash(process.env.GUILD_API_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}/api`);
  const apiVersion = process.env.GUILD_API_VERSION ?? "10";
  const versioned = `${guildApiUrl}/v${apiVersion}`;
  const demo = process.env.GUILDHALL_CLIENT_ID ? null : readDemoSecrets();
  const authMode: GuildApiAuthMode = process.env.GUILD_API_AUTH === "bot" ? "bot" : "user";
  const config: DashboardConfig = {
    publicUrl: origin,
    guildApiUrl,
    // The built-in API is reached on loopback from the server, but on the public origin from anywhere else.
    browserApiUrl: trimSlash(
      process.env.GUILD_API_PUBLIC_URL ?? (process.env.GUILD_API_URL ? guildApiUrl : `${origin}/api`),
    ),
    apiVersion,
    cdnUrl: trimSlash(
      process.env.CDN_URL ??
        (/\/\/(www\.)?discord\.com\//.test(`${guildApiUrl}/`) ? "https://cdn.discordapp.com" : `${origin}/cdn`),
    ),
    authorizeUrl: process.env.OAUTH_AUTHORIZE_URL ?? `${origin}/oauth2/authorize`,
    tokenUrl: `${versioned}/oauth2/token`,
    revokeUrl: `${versioned}/oauth2/token/revoke`,
    userInfoUrl: `${versioned}/users/@me`,
    clientId: process.env.GUILDHALL_CLIENT_ID ?? demo?.applicationId ?? "",
    clientSecret: process.env.GUILDHALL_CLIENT_SECRET ?? demo?.clientSecret ?? "",
    authMode,
    botToken: authMode === "bot" ? (process.env.GUILD_API_BOT_TOKEN ?? readDemoSecrets()?.botToken ?? null) : null,
    // With the moderator's own token (user mode, the built-in API), management needs Guildhall's scope; Discord has no
    // such scope, and in bot mode the bot token manages, so the sign-in asks only for who the moderator is.
    scopes: authMode === "user" ? `identify guilds ${MANAGE_SCOPE}` : "identify guilds",
  };
  cached = { key, config };
  return config;
}

/** NEXTAUTH_SECRET, or a random secret generated once and kept beside the database (so every instance on it agrees). */
export function nextAuthSecret(): string {
  if (process.env.NEXTAUTH_SECRET) return process.env.NEXTAUTH_SECRET;
  const file = `${secretsPathBase()}.nextauth-secret`;
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    const secret = crypto.randomBytes(32).toString("base64url");
    try {
      // "wx": if another instance wrote it first, use theirs.
      fs.writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
      return secret;
    } catch {
      return fs.readFileSync(file, "utf8").trim();
    }
  }
}
