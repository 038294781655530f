// Request schemas of the application operations: Edit Current Application's body, and the Developer Portal's
// settings (redirect URIs, URL Mappings, Activities, entry point handler, installation contexts). Pure (zod and
// lib/discord only), so the portal's client components validate with the same schemas as the server.
// Rules that need the stored application (the root mapping while Activities are on, the limit on redirect URIs
// once added to the stored ones) are checked again by the service.
import { z } from "zod";
import { ApplicationFlags, ApplicationIntegrationType, EntryPointCommandHandlerType } from "discord-api-types/v10";
import {
  APPLICATION_DESCRIPTION_MAX,
  REDIRECT_URIS_MAX,
  REDIRECT_URI_MAX_LENGTH,
  URL_MAPPINGS_MAX,
} from "@/lib/discord/limits";
import { booleanQuery } from "./common";
import { checkMappingPrefix, checkMappingTarget, normalizeMappingPrefix } from "@/lib/discord/url-mappings";

const issue = (ctx: z.RefinementCtx, code: string, message: string, path?: PropertyKey[]) =>
  ctx.addIssue({ code: "custom", message, params: { code }, path });

/** Why `uri` can't be a redirect URI (setup rule 1), or null: an absolute http(s) URL without a fragment. */
export function checkRedirectUri(uri: string): { code: string; message: string } | null {
  if (uri.length === 0) return { code: "URL_TYPE_INVALID_URL", message: "Enter a redirect URI." };
  if (uri.length > REDIRECT_URI_MAX_LENGTH)
    return { code: "BASE_TYPE_MAX_LENGTH", message: `Must be ${REDIRECT_URI_MAX_LENGTH} or fewer in length.` };
  if (/\s/.test(uri)) return { code: "URL_TYPE_INVALID_URL", message: "Not a well formed URL: it contains spaces." };
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return {
      code: "URL_TYPE_INVALID_URL",
      message: "Not a well formed URL: use an absolute address such as https://example.com/callback.",
    };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return {
      code: "URL_TYPE_INVALID_SCHEME",
      message: `Scheme "${url.protocol.slice(0, -1)}" is not supported. Scheme must be one of ('http', 'https').`,
    };
  }
  if (!url.hostname) return { code: "URL_TYPE_INVALID_URL", message: "Not a well formed URL: it has no host." };
  if (uri.includes("#"))
    return { code: "URL_TYPE_INVALID_URL", message: "A redirect URI can't contain a fragment (#)." };
  return null;
}

/** One redirect URI, exactly as registered: the authorize endpoint compares them byte for byte. */
export const redirectUri = z.string().superRefine((value, ctx) => {
  const problem = checkRedirectUri(value);
  if (problem) issue(ctx, problem.code, problem.message);
});

/** The whole list: at most 10, no duplicates. */
export const redirectUriList = z.array(redirectUri).superRefine((uris, ctx) => {
  if (uris.length > REDIRECT_URIS_MAX)
    issue(ctx, "BASE_TYPE_MAX_LENGTH", `An application can have at most ${REDIRECT_URIS_MAX} redirect URIs.`);
  uris.forEach((uri, index) => {
    if (uris.indexOf(uri) !== index)
      issue(ctx, "BASE_TYPE_INVALID", "This redirect URI is already registered.", [index]);
  });
});

export const AddRedirectUriBodySchema = z.object({ redirect_uri: redirectUri });
export const RemoveRedirectUriBodySchema = z.object({ redirect_uri: z.string().min(1).max(REDIRECT_URI_MAX_LENGTH) });

/** One URL Mapping row (setup rule 4): the prefix is stored normalized ("/api/" as "/api"). */
export const UrlMappingSchema = z.object({
  prefix: z
    .string()
    .superRefine((value, ctx) => {
      const problem = checkMappingPrefix(value);
      if (problem) issue(ctx, "BASE_TYPE_INVALID", problem);
    })
    .transform(normalizeMappingPrefix),
  target: z.string().superRefine((value, ctx) => {
    const problem = checkMappingTarget(value);
    if (problem) issue(ctx, "BASE_TYPE_INVALID", problem);
  }),
});
export type UrlMappingInput = z.input<typeof UrlMappingSchema>;

/** The URL Mappings table: unique prefixes (after normalizing), at most URL_MAPPINGS_MAX rows. */
export const UrlMappingsBodySchema = z.object({
  url_mappings: z.array(UrlMappingSchema).superRefine((mappings, ctx) => {
    if (mappings.length > URL_MAPPINGS_MAX)
      issue(ctx, "BASE_TYPE_MAX_LENGTH", `An application can have at most ${URL_MAPPINGS_MAX} URL mappings.`);
    const seen = new Map<string, number>();
    mappings.forEach((mapping, index) => {
      const first = seen.get(mapping.prefix);
      if (first === undefined) seen.set(mapping.prefix, index);
      else
        issue(ctx, "BASE_TYPE_INVALID", `The prefix "${mapping.prefix}" is already mapped (row ${first + 1}).`, [
          index,
          "prefix",
        ]);
    });
  }),
});
export type UrlMappingsBody = z.output<typeof UrlMappingsBodySchema>;

export const ActivitiesEnabledBodySchema = z.object({ enabled: z.boolean() });

/** Entry point handler: 1 APP_HANDLER (the app answers the interaction), 2 DISCORD_LAUNCH_ACTIVITY (the default). */
export const ENTRY_POINT_HANDLERS = [
  EntryPointCommandHandlerType.AppHandler,
  EntryPointCommandHandlerType.DiscordLaunchActivity,
] as const;
export const EntryPointHandlerBodySchema = z.object({ handler: z.literal(ENTRY_POINT_HANDLERS) });

/** Installation contexts (setup rule 7): 0 server (GUILD_INSTALL), 1 user (USER_INSTALL); at least one. */
export const INSTALLATION_CONTEXTS = [
  ApplicationIntegrationType.GuildInstall,
  ApplicationIntegrationType.UserInstall,
] as const;
export const installationContexts = z
  .array(z.literal(INSTALLATION_CONTEXTS))
  .superRefine((types, ctx) => {
    if (types.length === 0)
      issue(ctx, "BASE_TYPE_MIN_LENGTH", "Choose at least one installation context: server, user, or both.");
  })
  .transform((types) => [...new Set(types)].sort());
export const InstallationContextsBodySchema = z.object({ integration_types: installationContexts });

/** The application flags an owner may change through the API (Discord: only the limited gateway intents). */
export const MUTABLE_APPLICATION_FLAGS =
  ApplicationFlags.GatewayPresenceLimited |
  ApplicationFlags.GatewayGuildMembersLimited |
  ApplicationFlags.GatewayMessageContentLimited;

const integrationTypeConfig = z
  .object({
    oauth2_install_params: z
      .object({
        scopes: z
          .array(z.enum(["applications.commands", "bot"]))
          .min(1)
          .nullable()
          .optional(),
        permissions: z
          .union([z.number().int().min(0), z.string().regex(/^\d{1,20}$/)])
          .nullable()
          .optional(),
      })
      .nullable()
      .optional(),
  })
  .nullable();

/**
 * Edit Current Application. Guildhall stores the description, the flags and the installation contexts (the keys of
 * integration_types_config); Discord's other fields (icon, cover_image, tags, interactions_endpoint_url, install
 * params, …) are accepted and not stored, so a client written for Discord keeps working.
 */
export const ModifyCurrentApplicationBodySchema = z.object({
  // Discord's OpenAPI describes a localized {default, localizations}; its docs and clients send a plain string.
  description: z
    .union([
      z.string(),
      z.object({ default: z.string(), localizations: z.record(z.string(), z.string()).nullable().optional() }),
    ])
    .transform((value) => (typeof value === "string" ? value : value.default))
    .pipe(z.string().max(APPLICATION_DESCRIPTION_MAX))
    .nullable()
    .optional(),
  flags: z.number().int().min(0).nullable().optional(),
  integration_types_config: z
    .partialRecord(z.enum(["0", "1"]), integrationTypeConfig)
    .superRefine((config, ctx) => {
      if (Object.keys(config).length === 0)
        issue(ctx, "BASE_TYPE_MIN_LENGTH", "Choose at least one installation context: server, user, or both.");
    })
    .nullable()
    .optional(),
});
export type ModifyCurrentApplicationBody = z.output<typeof ModifyCurrentApplicationBodySchema>;

export const ApplicationCommandsQuerySchema = z.object({
  with_localizations: booleanQuery,
});
