// `npm run doctor`: whether a guild API (Guildhall's, strict or not, or Discord's) gives the dashboard in bot mode what
// it needs, asked the way the dashboard asks (lib/api-client, the bot's token): the API answers; the token is a bot's;
// the OAuth2 application lists the dashboard's sign-in redirect URI; the bot is in the server(s); its permissions
// there open which sections (the sidebar's own rule, lib/dashboard/sections.ts); its application may receive members
// live (the privileged GUILD_MEMBERS intent); the gateway takes it. Each check says what works or what to change.
// A failed check means the dashboard cannot run; a warning means a part of it will be missing.
import {
  ApplicationFlags,
  PermissionFlagsBits as P,
  type RESTGetAPICurrentUserGuildsResult,
} from "discord-api-types/v10";
import { GuildApiClient, GuildApiError, GuildApiUnreachableError, Routes } from "@/lib/api-client";
import { compareRolePositions, describeMissing, hasPermission } from "@/lib/discord/permissions";
import { botInviteUrl, DASHBOARD_BOT_PERMISSIONS } from "./bot-permissions";
import { DASHBOARD_SECTIONS, sectionDisabledReason } from "./sections";

export type CheckStatus = "ok" | "warn" | "fail";

export interface DoctorCheck {
  status: CheckStatus;
  /** What was checked, in a few words. */
  name: string;
  /** What was found, or what to change. */
  detail: string;
}

export interface DoctorOptions {
  /** The API's base URL without version: https://discord.com/api, http://localhost:3000/api. */
  api: string;
  botToken: string;
  /** Only this server (the bot must be in it); otherwise every server the bot is in (the first 25). */
  guildId?: string;
  /** The dashboard's public origin: its sign-in redirect URI is `${publicUrl}/api/auth/callback/guildhall`. */
  publicUrl: string;
  fetch?: typeof fetch;
}

export interface DoctorReport {
  checks: DoctorCheck[];
  /** False when a check failed: the dashboard cannot run against this API with this bot. */
  usable: boolean;
}

const GUILDS_SHOWN = 25;

interface ApplicationInfo {
  id: string;
  name: string;
  flags?: number;
  redirect_uris?: string[];
}

/** Where the API's OAuth2 pages are: Discord's beside discord.com/api, Guildhall's beside its own /api. */
export function authorizeUrlOf(api: string): string {
  return `${api.replace(/\/api\/?$/, "")}/oauth2/authorize`;
}

function refusal(error: unknown): string {
  if (error instanceof GuildApiUnreachableError) return `cannot reach it (${error.message})`;
  if (error instanceof GuildApiError) return `${error.status} ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const checks: DoctorCheck[] = [];
  const add = (status: CheckStatus, name: string, detail: string) => checks.push({ status, name, detail });
  const done = () => ({ checks, usable: !checks.some((check) => check.status === "fail") });
  const client = new GuildApiClient({
    baseUrl: options.api,
    token: options.botToken,
    authPrefix: "Bot",
    retries: 1,
    timeoutMs: 10_000,
    fetch: options.fetch,
  });

  // 1. The API answers at all (an anonymous route).
  try {
    await client.gateway.get();
    add("ok", "API", `${options.api} answers`);
  } catch (error) {
    add("fail", "API", `${options.api}: ${refusal(error)}. Check the URL (without /v10) and that the server runs.`);
    return done();
  }

  // 2. The token is a bot's.
  let botId: string;
  try {
    const bot = await client.users.getCurrent();
    if (!bot.bot) {
      add(
        "fail",
        "bot token",
        `it belongs to ${bot.username}, a user: give the bot's token (Bot tab of the application)`,
      );
      return done();
    }
    botId = bot.id;
    add("ok", "bot token", `the bot ${bot.username} (${bot.id})`);
  } catch (error) {
    add(
      "fail",
      "bot token",
      `refused: ${refusal(error)}. Reset the token in the application's Bot tab and copy it again`,
    );
    return done();
  }

  // 3. The application: the dashboard's redirect URI, and the members intent for live updates.
  let applicationId: string | null = null;
  try {
    const application = await client.rest.request<ApplicationInfo>({
      method: "GET",
      path: Routes.currentApplication(),
    });
    applicationId = application.id;
    const redirect = `${options.publicUrl.replace(/\/$/, "")}/api/auth/callback/guildhall`;
    if (application.redirect_uris === undefined)
      add("warn", "redirect URI", `the API does not list redirect URIs: make sure ${redirect} is one`);
    else if (application.redirect_uris.includes(redirect)) add("ok", "redirect URI", `${redirect} is registered`);
    else
      add(
        "fail",
        "redirect URI",
        `${redirect} is not among the application's redirect URIs (${application.redirect_uris.join(", ") || "none"}): add it under OAuth2 → Redirects, or sign-in fails`,
      );
    const flags = application.flags ?? 0;
    const members = ApplicationFlags.GatewayGuildMembers | ApplicationFlags.GatewayGuildMembersLimited;
    if ((flags & members) !== 0) add("ok", "members intent", "the bot may receive members live (GUILD_MEMBERS)");
    else
      add(
        "warn",
        "members intent",
        "the Server Members Intent is off: turn it on in the application's Bot tab, or the members pages refresh only on reload",
      );
  } catch (error) {
    add("fail", "application", `GET /applications/@me refused: ${refusal(error)}`);
  }

  // 4. The bot's servers, and what its permissions open in each.
  let guilds: RESTGetAPICurrentUserGuildsResult;
  try {
    guilds = [];
    // Every page (200 a page): a bot in many servers still finds the one asked for.
    for (let after: string | undefined; ;) {
      const page = await client.users.getGuilds({ limit: 200, after });
      guilds.push(...page);
      if (page.length < 200) break;
      after = page[page.length - 1].id;
    }
  } catch (error) {
    add("fail", "servers", `GET /users/@me/guilds refused: ${refusal(error)}`);
    return done();
  }
  const invite = botInviteUrl(authorizeUrlOf(options.api), applicationId ?? botId, options.guildId);
  const wanted = options.guildId ? guilds.filter((guild) => guild.id === options.guildId) : guilds;
  if (options.guildId && wanted.length === 0) {
    add("fail", "servers", `the bot is not in server ${options.guildId}: add it with ${invite}`);
    return done();
  }
  if (wanted.length === 0) {
    add("fail", "servers", `the bot is in no server: add it with ${invite}`);
    return done();
  }
  add("ok", "servers", `the bot is in ${guilds.length} server${guilds.length === 1 ? "" : "s"}`);
  for (const guild of wanted.slice(0, GUILDS_SHOWN)) {
    const permissions = BigInt(guild.permissions ?? "0");
    if (hasPermission(permissions, P.Administrator)) {
      add("ok", `${guild.name}`, "the bot is an administrator: every section works");
      await checkHierarchy(client, guild, botId, add);
      continue;
    }
    const closed = DASHBOARD_SECTIONS.flatMap((section) => {
      const reason = sectionDisabledReason(section, permissions);
      return reason ? [`${section.label} (${reason})`] : [];
    });
    if (closed.length > 0)
      add(
        "warn",
        guild.name,
        `closed to everyone, since the bot lacks what they need: ${closed.join("; ")}. Give the bot's role these permissions`,
      );
    else {
      const lacking = describeMissing(permissions, DASHBOARD_BOT_PERMISSIONS);
      add(
        lacking ? "warn" : "ok",
        guild.name,
        lacking
          ? `every section opens, but the bot ${lacking}: the dashboard's actions that use them are refused. Give the bot's role every permission of ${DASHBOARD_BOT_PERMISSIONS}`
          : "the bot's permissions open every section",
      );
    }
    await checkHierarchy(client, guild, botId, add);
  }
  if (wanted.length > GUILDS_SHOWN)
    add("warn", "servers", `${wanted.length - GUILDS_SHOWN} more not checked: pass --guild`);

  // 5. The gateway takes the bot (live updates).
  try {
    const gateway = await client.gateway.getBot();
    const left = gateway.session_start_limit.remaining;
    add(
      left > 0 ? "ok" : "warn",
      "gateway",
      left > 0
        ? `${gateway.url} (${left} sessions left today)`
        : "no session starts left today: live updates wait for the reset",
    );
  } catch (error) {
    add("warn", "gateway", `GET /gateway/bot refused: ${refusal(error)}; pages work, live updates do not`);
  }
  return done();
}

/**
 * Discord lets the bot change only members and roles below its highest role: the roles above it (and the members who
 * hold them) are out of the dashboard's reach, whoever signs in. Administrator does not lift it.
 */
async function checkHierarchy(
  client: GuildApiClient,
  guild: { id: string; name: string },
  botId: string,
  add: (status: CheckStatus, name: string, detail: string) => void,
): Promise<void> {
  try {
    const [roles, member] = await Promise.all([client.roles.list(guild.id), client.members.get(guild.id, botId)]);
    // The engine's order: equal positions rank by id, as Discord's client does.
    const ranked = roles.map((role) => ({ id: role.id, position: role.position, name: role.name }));
    const top = ranked
      .filter((role) => member.roles.includes(role.id))
      .reduce((best, role) => (compareRolePositions(role, best) > 0 ? role : best), { id: guild.id, position: 0 });
    const above = ranked
      .filter((role) => role.id !== guild.id && !member.roles.includes(role.id) && compareRolePositions(role, top) > 0)
      .sort((a, b) => compareRolePositions(b, a))
      .map((role) => role.name);
    if (above.length === 0) add("ok", `${guild.name} roles`, "the bot's role is the highest: it can manage every role");
    else
      add(
        "warn",
        `${guild.name} roles`,
        `${above.join(", ")} ${above.length === 1 ? "is" : "are"} above the bot's highest role: members with ${above.length === 1 ? "it" : "them"} can't be moderated and ${above.length === 1 ? "it" : "they"} can't be edited through the dashboard. Drag the bot's role above the roles it should manage (Server Settings → Roles)`,
      );
  } catch (error) {
    add("warn", `${guild.name} roles`, `could not read the roles and the bot's member: ${refusal(error)}`);
  }
}

/** The report as the command prints it. */
export function formatDoctorReport(report: DoctorReport): string {
  const mark: Record<CheckStatus, string> = { ok: "ok  ", warn: "warn", fail: "FAIL" };
  const lines = report.checks.map((check) => `${mark[check.status]}  ${check.name}: ${check.detail}`);
  lines.push(
    report.usable
      ? "The dashboard can run against this API (warnings name what will be missing)."
      : "The dashboard cannot run against this API yet: change what FAIL names, then run the doctor again.",
  );
  return lines.join("\n");
}
