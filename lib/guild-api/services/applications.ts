// Applications: what an owner configures on the built-in Developer Portal (/developers) and what the API answers
// about an application (Get/Edit Current Application, Get Global Application Commands). One function per
// operation, shared by the portal's server actions and the routes; every write runs in one transaction.
//
// Activity setup rules implemented here:
//  1. Redirect URIs: absolute http(s) URLs (a placeholder address is fine), no fragment, at most 10, no duplicates.
//  4. URL Mappings: unique prefixes starting with "/", targets host[:port][/path]; "/" is required while Activities are on.
//  6. Enable Activities creates the default Entry Point command (type 4 PRIMARY_ENTRY_POINT, "launch", handler 2
//     DISCORD_LAUNCH_ACTIVITY) when the application has none. Disabling Activities deletes the entry point, as
//     Discord does (an entry point can't exist without Activities); enabling again creates a fresh default one.
//  7. Installation contexts: server (0), user (1) or both (the default); at least one.
// Secrets: the bot token and the client secret are stored only as SHA-256 hashes; a reset returns the new value
// once. When the reset application is the demo application, the demo secrets file beside the database is
// rewritten too, so `npm run token -- --bot`, the sample Activity's backend and the dashboard keep working.
import { isSnowflake } from "@/lib/discord/snowflake";
import { ApplicationCommandType, ApplicationFlags, EntryPointCommandHandlerType } from "discord-api-types/v10";
import { REDIRECT_URIS_MAX } from "@/lib/discord/limits";
import { newSnowflake } from "@/lib/discord/snowflake";
import { ROOT_PREFIX, type UrlMapping } from "@/lib/discord/url-mappings";
import { readDemoSecrets, writeDemoSecrets } from "@/lib/seed/demo-secrets";
import type { Identity } from "../auth";
import { ApiError, Errors } from "../errors";
import { parseWith } from "../http";
import { transaction } from "../store/db";
import {
  deleteCommandsOfType,
  findApplication,
  findApplicationCommand,
  findGlobalCommandOfType,
  insertGlobalCommand,
  listApplicationsOwnedBy,
  listGlobalCommands,
  updateApplicationSetting,
  updateCommandHandler,
  type ApplicationCommandRow,
  type ApplicationRow,
  redirectUrisOf,
} from "../store/applications";
import { countGuildsOfUser } from "../store/members";
import { countAuthorizations } from "../store/oauth2";
import { findUser } from "../store/users";
import { hashSecret, newBotToken, randomToken } from "../tokens";
import { serializeUser } from "../serializers/users";
import { serializeApplication } from "./oauth2";
import {
  MUTABLE_APPLICATION_FLAGS,
  UrlMappingsBodySchema,
  installationContexts,
  redirectUri,
  redirectUriList,
  type ModifyCurrentApplicationBody,
} from "../schemas/applications";

/** Who may act on an application: its owner (portal session or Bearer token) or its own bot. */
export interface ApplicationAccess {
  application: ApplicationRow;
  actor: { kind: "owner" | "bot"; userId: bigint };
}

const PRIMARY_ENTRY_POINT = ApplicationCommandType.PrimaryEntryPoint;
/** Discord marks applications that have Activities as EMBEDDED. */
const EMBEDDED = BigInt(ApplicationFlags.Embedded);
export const ENTRY_POINT_NAME = "launch";
export const entryPointDescription = (applicationName: string) => `Launch ${applicationName}`;

// ───────────────────────────── Reading and access ─────────────────────────────

const findApplicationRow = findApplication;

/** An id that is not a snowflake (not digits, or past 2^63 − 1, which SQLite cannot bind) names no application. */
function parseId(id: bigint | string): bigint | null {
  if (typeof id === "bigint") return id;
  return isSnowflake(id) ? BigInt(id) : null;
}

/** The application, or 404 Unknown Application (10002). */
export async function getApplicationOrThrow(id: bigint | string): Promise<ApplicationRow> {
  const parsed = parseId(id);
  const row = parsed === null ? undefined : await findApplicationRow(parsed);
  if (!row) throw Errors.unknownApplication();
  return row;
}

/** The portal's access check: the signed-in user must own the application (403 Missing Access otherwise). */
export async function applicationAccessForOwner(
  applicationId: bigint | string,
  userId: bigint,
): Promise<ApplicationAccess> {
  const application = await getApplicationOrThrow(applicationId);
  if (application.owner_id !== userId) throw Errors.missingAccess();
  return { application, actor: { kind: "owner", userId } };
}

/**
 * The API's access check. A bot token acts for its own application; a Bearer token acts for the application it
 * was issued to, and only when its user owns that application (Guildhall's superset: Discord takes bot tokens here).
 * With `applicationId`, the caller must be that application's bot or owner (403 Missing Access otherwise).
 */
export async function applicationAccessForIdentity(
  identity: Identity,
  applicationId?: string,
): Promise<ApplicationAccess> {
  if (applicationId !== undefined) {
    const requested = await getApplicationOrThrow(applicationId);
    if (requested.id !== identity.applicationId) throw Errors.missingAccess();
  }
  const application = await getApplicationOrThrow(identity.applicationId);
  if (identity.kind === "bot") return { application, actor: { kind: "bot", userId: identity.userId } };
  if (application.owner_id !== identity.userId) throw Errors.missingAccess();
  return { application, actor: { kind: "owner", userId: identity.userId } };
}

export interface ApplicationSummary {
  id: string;
  name: string;
  description: string;
  icon: string | null;
  activitiesEnabled: boolean;
  hasBot: boolean;
  installationContexts: number[];
}

/** The portal's application list: what `userId` owns, oldest first. */
export async function listOwnedApplications(userId: bigint): Promise<ApplicationSummary[]> {
  return (await listApplicationsOwnedBy(userId)).map((row) => ({
    id: String(row.id),
    name: row.name,
    description: row.description,
    icon: row.icon,
    activitiesEnabled: Boolean(row.activities_enabled),
    hasBot: row.bot_user_id !== null,
    installationContexts: JSON.parse(row.integration_types) as number[],
  }));
}

export const urlMappingsOf = (app: ApplicationRow) => JSON.parse(app.url_mappings) as UrlMapping[];
export const installationContextsOf = (app: ApplicationRow) => JSON.parse(app.integration_types) as number[];

export function findEntryPointCommand(applicationId: bigint): Promise<ApplicationCommandRow | undefined> {
  return findGlobalCommandOfType(applicationId, PRIMARY_ENTRY_POINT);
}

/** Everything the portal's settings page shows, read fresh. Secrets are never part of it. */
export interface ApplicationSettings {
  id: string;
  name: string;
  description: string;
  ownerId: string;
  bot: { id: string; username: string } | null;
  redirectUris: string[];
  urlMappings: UrlMapping[];
  activitiesEnabled: boolean;
  entryPoint: { id: string; name: string; description: string; handler: number } | null;
  installationContexts: number[];
  flags: number;
}

export async function getApplicationSettings(access: ApplicationAccess): Promise<ApplicationSettings> {
  const app = (await findApplicationRow(access.application.id)) ?? access.application;
  const bot = app.bot_user_id === null ? undefined : await findUser(app.bot_user_id);
  const entry = await findEntryPointCommand(app.id);
  return {
    id: String(app.id),
    name: app.name,
    description: app.description,
    ownerId: String(app.owner_id),
    bot: bot ? { id: String(bot.id), username: bot.username } : null,
    redirectUris: redirectUrisOf(app),
    urlMappings: urlMappingsOf(app),
    activitiesEnabled: Boolean(app.activities_enabled),
    entryPoint: entry
      ? {
          id: String(entry.id),
          name: entry.name,
          description: entry.description,
          handler: Number(entry.handler ?? EntryPointCommandHandlerType.DiscordLaunchActivity),
        }
      : null,
    installationContexts: installationContextsOf(app),
    flags: Number(applicationFlags(app)),
  };
}

// ───────────────────────────── Serializers (Discord's shapes) ─────────────────────────────

/** Stored flags, plus EMBEDDED while Activities are on (derived, so it can't drift from activities_enabled). */
function applicationFlags(app: ApplicationRow): bigint {
  return app.activities_enabled ? app.flags | EMBEDDED : app.flags & ~EMBEDDED;
}

/** The private application object (PrivateApplicationResponse): what its owner or bot sees. */
export async function serializePrivateApplication(app: ApplicationRow) {
  const owner = await findUser(app.owner_id);
  const bot = app.bot_user_id === null ? undefined : await findUser(app.bot_user_id);
  const flags = applicationFlags(app);
  const guildCount = app.bot_user_id === null ? 0 : await countGuildsOfUser(app.bot_user_id);
  // Authorizations: users holding a live token of the app; user installs: those whose grant includes commands.
  const authorizations = await countAuthorizations(app.id, BigInt(Date.now()));
  return {
    ...serializeApplication(app),
    flags: Number(flags),
    flags_new: String(flags),
    ...(bot ? { bot: serializeUser(bot) } : {}),
    // A deleted owner still has an id; Discord shows such users as "deleted_user".
    owner: serializeUser(
      owner ?? {
        id: app.owner_id,
        username: "deleted_user",
        global_name: null,
        discriminator: "0",
        avatar: null,
        bot: 0n,
        public_flags: 0n,
      },
    ),
    team: null,
    redirect_uris: redirectUrisOf(app),
    interactions_endpoint_url: null,
    role_connections_verification_url: null,
    approximate_guild_count: Number(guildCount),
    approximate_user_install_count: Number(authorizations.installs),
    approximate_user_authorization_count: Number(authorizations.users),
    explicit_content_filter: 0,
    eligible_oauth2_scopes: [
      "identify",
      "email",
      "guilds",
      "guilds.join",
      "guilds.members.read",
      "applications.commands",
      "bot",
      "rpc.voice.read",
    ],
  };
}

/** An application command as Discord sends it; entry points (type 4) carry their `handler`. */
export function serializeApplicationCommand(row: ApplicationCommandRow) {
  return {
    id: String(row.id),
    application_id: String(row.application_id),
    version: String(row.version),
    default_member_permissions: null,
    type: Number(row.type),
    name: row.name,
    description: row.description,
    ...(row.guild_id === null ? {} : { guild_id: String(row.guild_id) }),
    dm_permission: true,
    contexts: JSON.parse(row.contexts) as number[],
    integration_types: JSON.parse(row.integration_types) as number[],
    nsfw: false,
    ...(Number(row.type) === PRIMARY_ENTRY_POINT
      ? { handler: Number(row.handler ?? EntryPointCommandHandlerType.DiscordLaunchActivity) }
      : {}),
  };
}

// ───────────────────────────── API operations ─────────────────────────────

/** Get Current Application (GET /applications/@me). */
export async function getCurrentApplication(access: ApplicationAccess) {
  return await serializePrivateApplication((await findApplicationRow(access.application.id)) ?? access.application);
}

/**
 * Edit Current Application (PATCH /applications/@me): description, flags (only the limited gateway intents may
 * change), and the installation contexts as the keys of integration_types_config.
 */
export async function modifyCurrentApplication(access: ApplicationAccess, body: ModifyCurrentApplicationBody) {
  const id = access.application.id;
  await transaction(async () => {
    const app = (await findApplicationRow(id))!;
    if (body.description !== undefined) await updateApplicationSetting(id, "description", body.description ?? "");
    if (body.flags !== undefined && body.flags !== null) {
      const requested = BigInt(body.flags) & ~EMBEDDED;
      const fixed = ~BigInt(MUTABLE_APPLICATION_FLAGS);
      if ((requested & fixed) !== (app.flags & ~EMBEDDED & fixed)) {
        throw Errors.invalidField(
          ["flags"],
          "BASE_TYPE_INVALID",
          "Only the limited gateway intent flags (presence, guild members, message content) can be changed.",
        );
      }
      await updateApplicationSetting(
        id,
        "flags",
        (app.flags & fixed) | (requested & BigInt(MUTABLE_APPLICATION_FLAGS)),
      );
    }
    if (body.integration_types_config) {
      await writeInstallationContexts(id, Object.keys(body.integration_types_config).map(Number));
    }
  });
  return await getCurrentApplication(access);
}

/** Get Global Application Commands (GET /applications/{application.id}/commands). */
export async function getGlobalApplicationCommands(access: ApplicationAccess) {
  return (await listGlobalCommands(access.application.id)).map(serializeApplicationCommand);
}

// ───────────────────────────── Portal operations ─────────────────────────────

/** OAuth2 → Redirects: register one more redirect URI (rule 1). */
export async function addRedirectUri(access: ApplicationAccess, uri: string): Promise<string[]> {
  const value = parseWith(redirectUri, uri);
  return await transaction(async () => {
    const uris = redirectUrisOf((await findApplicationRow(access.application.id))!);
    if (uris.includes(value))
      throw Errors.invalidField(["redirect_uri"], "BASE_TYPE_INVALID", "This redirect URI is already registered.");
    if (uris.length >= REDIRECT_URIS_MAX)
      throw Errors.invalidField(
        ["redirect_uri"],
        "BASE_TYPE_MAX_LENGTH",
        `An application can have at most ${REDIRECT_URIS_MAX} redirect URIs.`,
      );
    const next = [...uris, value];
    await updateApplicationSetting(access.application.id, "redirect_uris", JSON.stringify(next));
    return next;
  });
}

/** OAuth2 → Redirects: unregister a redirect URI (the authorize endpoint refuses it from then on). */
export async function removeRedirectUri(access: ApplicationAccess, uri: string): Promise<string[]> {
  return await transaction(async () => {
    const uris = redirectUrisOf((await findApplicationRow(access.application.id))!);
    if (!uris.includes(uri))
      throw Errors.invalidField(["redirect_uri"], "BASE_TYPE_INVALID", "This redirect URI is not registered.");
    const next = uris.filter((u) => u !== uri);
    await updateApplicationSetting(access.application.id, "redirect_uris", JSON.stringify(next));
    return next;
  });
}

/** OAuth2 → Redirects: replace the whole list (at most 10, unique). */
export async function setRedirectUris(access: ApplicationAccess, uris: readonly string[]): Promise<string[]> {
  const next = parseWith(redirectUriList, uris);
  await transaction(
    async () => await updateApplicationSetting(access.application.id, "redirect_uris", JSON.stringify(next)),
  );
  return next;
}

/** Activities → URL Mappings: replace the table (rule 4); "/" must stay while Activities are on. */
export async function setUrlMappings(
  access: ApplicationAccess,
  mappings: readonly { prefix: string; target: string }[],
): Promise<UrlMapping[]> {
  const { url_mappings: next } = parseWith(UrlMappingsBodySchema, { url_mappings: mappings });
  return await transaction(async () => {
    const app = (await findApplicationRow(access.application.id))!;
    if (app.activities_enabled && !next.some((m) => m.prefix === ROOT_PREFIX)) {
      throw Errors.invalidField(
        ["url_mappings"],
        "BASE_TYPE_REQUIRED",
        'Activities need a root mapping: keep a row for the prefix "/" (your Activity\'s own host).',
      );
    }
    await updateApplicationSetting(
      app.id,
      "url_mappings",
      JSON.stringify(next.map(({ prefix, target }) => ({ prefix, target }))),
    );
    return next;
  });
}

/**
 * Activities → Settings → Enable Activities (rule 6). Enabling needs the root URL mapping and creates the default
 * Entry Point command once; disabling deletes the entry point (Discord removes it with Activities).
 */
export async function setActivitiesEnabled(
  access: ApplicationAccess,
  enabled: boolean,
): Promise<ApplicationSettings["entryPoint"]> {
  await transaction(async () => {
    const app = (await findApplicationRow(access.application.id))!;
    if (enabled) {
      if (!urlMappingsOf(app).some((m) => m.prefix === ROOT_PREFIX)) {
        throw Errors.invalidField(
          ["enabled"],
          "BASE_TYPE_INVALID",
          'Add a URL mapping for the prefix "/" (your Activity\'s host) before enabling Activities.',
        );
      }
      await updateApplicationSetting(app.id, "activities_enabled", 1n);
      if (!(await findEntryPointCommand(app.id))) {
        await insertGlobalCommand({
          id: newSnowflake(),
          application_id: app.id,
          type: PRIMARY_ENTRY_POINT,
          name: ENTRY_POINT_NAME,
          description: entryPointDescription(app.name),
          handler: EntryPointCommandHandlerType.DiscordLaunchActivity,
          integration_types: app.integration_types,
          contexts: JSON.stringify([0, 1, 2]),
          version: newSnowflake(),
        });
      }
    } else {
      await updateApplicationSetting(app.id, "activities_enabled", 0n);
      await deleteCommandsOfType(app.id, PRIMARY_ENTRY_POINT);
    }
  });
  const entry = await findEntryPointCommand(access.application.id);
  return entry
    ? { id: String(entry.id), name: entry.name, description: entry.description, handler: Number(entry.handler) }
    : null;
}

/**
 * Activities → Settings → Entry Point handler: 2 DISCORD_LAUNCH_ACTIVITY (Discord opens the Activity and posts a
 * message in the channel) or 1 APP_HANDLER (the app answers the interaction itself). Bumps the command's version.
 */
export async function setEntryPointHandler(access: ApplicationAccess, handler: number) {
  if (
    handler !== EntryPointCommandHandlerType.AppHandler &&
    handler !== EntryPointCommandHandlerType.DiscordLaunchActivity
  ) {
    throw Errors.invalidField(["handler"], "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.");
  }
  return await transaction(async () => {
    const entry = await findEntryPointCommand(access.application.id);
    if (!entry)
      throw new ApiError(404, 10063, "Unknown application command: enable Activities to create the entry point.");
    await updateCommandHandler(entry.id, handler, newSnowflake());
    return serializeApplicationCommand((await findApplicationCommand(entry.id)) as ApplicationCommandRow);
  });
}

async function writeInstallationContexts(applicationId: bigint, types: readonly number[]): Promise<number[]> {
  const next = parseWith(installationContexts, types);
  await updateApplicationSetting(applicationId, "integration_types", JSON.stringify(next));
  return next;
}

/** Installation → Installation contexts (rule 7): server (0), user (1) or both; at least one. */
export async function setInstallationContexts(access: ApplicationAccess, types: readonly number[]): Promise<number[]> {
  return await transaction(async () => await writeInstallationContexts(access.application.id, types));
}

/** Keeps the development secrets file in step when the portal resets a secret of one of the demo's applications. */
function syncDemoSecrets(applicationId: bigint, change: { botToken?: string; clientSecret?: string }): void {
  const demo = readDemoSecrets();
  if (demo && demo.applicationId === String(applicationId)) writeDemoSecrets({ ...demo, ...change });
  else if (demo && demo.activityApplicationId === String(applicationId) && change.clientSecret !== undefined)
    writeDemoSecrets({ ...demo, activityClientSecret: change.clientSecret });
}

/** Bot → Reset Token: a new bot token, returned once; the old one stops working at once. */
export async function resetBotToken(access: ApplicationAccess): Promise<string> {
  const app = access.application;
  if (app.bot_user_id === null)
    throw Errors.invalidField(["bot"], "APPLICATION_HAS_NO_BOT", "This application has no bot.");
  const token = newBotToken(app.bot_user_id);
  await transaction(async () => await updateApplicationSetting(app.id, "bot_token_hash", hashSecret(token)));
  syncDemoSecrets(app.id, { botToken: token });
  return token;
}

/** OAuth2 → Reset Secret: a new client secret, returned once; code exchanges need it from now on. */
export async function resetClientSecret(access: ApplicationAccess): Promise<string> {
  const secret = randomToken(24);
  await transaction(
    async () => await updateApplicationSetting(access.application.id, "client_secret_hash", hashSecret(secret)),
  );
  syncDemoSecrets(access.application.id, { clientSecret: secret });
  return secret;
}
