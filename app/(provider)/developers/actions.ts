"use server";

// The Developer Portal's server actions: each authenticates (the provider session), checks ownership, parses the
// form with zod and calls one service operation; the service applies the rules in its own transaction.
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { ApiError } from "@/lib/guild-api/errors";
import { REDIRECT_URI_MAX_LENGTH, URL_MAPPINGS_MAX } from "@/lib/discord/limits";
import {
  addRedirectUri,
  applicationAccessForOwner,
  removeRedirectUri,
  resetBotToken,
  resetClientSecret,
  setActivitiesEnabled,
  setEntryPointHandler,
  setInstallationContexts,
  setUrlMappings,
  type ApplicationAccess,
} from "@/lib/guild-api/services/applications";
import {
  PRIVILEGED_INTENT_KEYS,
  PRIVILEGED_INTENT_SETTINGS,
  setPrivilegedIntent,
} from "@/lib/guild-api/services/gateway-intents";
import type { FieldErrors } from "@/lib/action-result";
import { flattenErrors, type PortalActionState } from "./_lib/action-result";
import { currentDeveloper } from "./_lib/session";

const ApplicationIdSchema = z.string().regex(/^\d{1,20}$/);
const RedirectUriFormSchema = z.object({ redirect_uri: z.string().trim().max(REDIRECT_URI_MAX_LENGTH) });
const UrlMappingsFormSchema = z.object({
  prefix: z.array(z.string().max(4096)).max(URL_MAPPINGS_MAX + 1),
  target: z.array(z.string().max(4096)).max(URL_MAPPINGS_MAX + 1),
});
const EnabledFormSchema = z.object({ enabled: z.enum(["true", "false"]).transform((v) => v === "true") });
const HandlerFormSchema = z.object({ handler: z.coerce.number().int() });
const PrivilegedIntentFormSchema = z.object({
  intent: z.enum(PRIVILEGED_INTENT_KEYS),
  enabled: z.enum(["true", "false"]).transform((v) => v === "true"),
});
const ContextsFormSchema = z.object({ integration_types: z.array(z.coerce.number().int()).max(2) });

const fail = (error: string, fieldErrors: FieldErrors = {}): PortalActionState<never> => ({
  ok: false,
  error,
  fieldErrors,
  at: Date.now(),
});

/** Signed in, owner of the application, then `run`; rule violations come back as messages, not exceptions. */
async function asOwner<T>(
  applicationId: string,
  run: (access: ApplicationAccess) => { message?: string; data?: T },
): Promise<PortalActionState<T>> {
  const developer = await currentDeveloper();
  if (!developer) return fail("Your session has ended. Reload the page to sign in again.");
  if (!ApplicationIdSchema.safeParse(applicationId).success) return fail("Unknown application.");
  try {
    const result = run(applicationAccessForOwner(applicationId, developer.id));
    revalidatePath(`/developers/applications/${applicationId}`);
    return { ok: true, data: result.data as T, message: result.message, at: Date.now() };
  } catch (error) {
    if (error instanceof ApiError) {
      if (error.status === 403 || error.status === 404) return fail("You don't own this application.");
      const fieldErrors = flattenErrors(error.errors);
      return fail(Object.values(fieldErrors)[0]?.[0] ?? error.message, fieldErrors);
    }
    throw error;
  }
}

function parseForm<S extends z.ZodType>(schema: S, input: unknown): z.output<S> | PortalActionState<never> {
  const parsed = schema.safeParse(input);
  return parsed.success ? parsed.data : fail("That form didn't look right. Reload the page and try again.");
}
const isFailure = (value: unknown): value is PortalActionState<never> =>
  typeof value === "object" && value !== null && "ok" in value && (value as { ok: boolean }).ok === false;

export async function addRedirectUriAction(
  applicationId: string,
  _previous: PortalActionState,
  form: FormData,
): Promise<PortalActionState> {
  const input = parseForm(RedirectUriFormSchema, { redirect_uri: form.get("redirect_uri") ?? "" });
  if (isFailure(input)) return input;
  return asOwner(applicationId, (access) => {
    addRedirectUri(access, input.redirect_uri);
    return { message: "Redirect added." };
  });
}

export async function removeRedirectUriAction(
  applicationId: string,
  _previous: PortalActionState,
  form: FormData,
): Promise<PortalActionState> {
  const input = parseForm(RedirectUriFormSchema, { redirect_uri: form.get("redirect_uri") ?? "" });
  if (isFailure(input)) return input;
  return asOwner(applicationId, (access) => {
    removeRedirectUri(access, input.redirect_uri);
    return { message: "Redirect removed." };
  });
}

export async function saveUrlMappingsAction(
  applicationId: string,
  _previous: PortalActionState,
  form: FormData,
): Promise<PortalActionState> {
  const input = parseForm(UrlMappingsFormSchema, { prefix: form.getAll("prefix"), target: form.getAll("target") });
  if (isFailure(input)) return input;
  if (input.prefix.length !== input.target.length)
    return fail("That form didn't look right. Reload the page and try again.");
  const mappings = input.prefix.map((prefix, i) => ({ prefix: prefix.trim(), target: input.target[i].trim() }));
  return asOwner(applicationId, (access) => {
    setUrlMappings(access, mappings);
    return { message: "URL mappings saved." };
  });
}

export async function setActivitiesEnabledAction(
  applicationId: string,
  _previous: PortalActionState,
  form: FormData,
): Promise<PortalActionState> {
  const input = parseForm(EnabledFormSchema, { enabled: form.get("enabled") });
  if (isFailure(input)) return input;
  return asOwner(applicationId, (access) => {
    const entryPoint = setActivitiesEnabled(access, input.enabled);
    return {
      message: input.enabled
        ? `Activities enabled. Entry point command /${entryPoint?.name ?? "launch"} is ready.`
        : "Activities disabled. The entry point command was removed.",
    };
  });
}

export async function setEntryPointHandlerAction(
  applicationId: string,
  _previous: PortalActionState,
  form: FormData,
): Promise<PortalActionState> {
  const input = parseForm(HandlerFormSchema, { handler: form.get("handler") });
  if (isFailure(input)) return input;
  return asOwner(applicationId, (access) => {
    const command = setEntryPointHandler(access, input.handler);
    return {
      message:
        command.handler === 1 ? "Saved: your app handles the interaction." : "Saved: Discord launches the Activity.",
    };
  });
}

export async function setInstallationContextsAction(
  applicationId: string,
  _previous: PortalActionState,
  form: FormData,
): Promise<PortalActionState> {
  const input = parseForm(ContextsFormSchema, { integration_types: form.getAll("integration_types") });
  if (isFailure(input)) return input;
  return asOwner(applicationId, (access) => {
    setInstallationContexts(access, input.integration_types);
    return { message: "Installation contexts saved." };
  });
}

export async function setPrivilegedIntentAction(
  applicationId: string,
  _previous: PortalActionState,
  form: FormData,
): Promise<PortalActionState> {
  const input = parseForm(PrivilegedIntentFormSchema, { intent: form.get("intent"), enabled: form.get("enabled") });
  if (isFailure(input)) return input;
  const label = PRIVILEGED_INTENT_SETTINGS.find((s) => s.key === input.intent)!.label;
  return asOwner(applicationId, (access) => {
    setPrivilegedIntent(access, input.intent, input.enabled);
    return { message: `${label} ${input.enabled ? "enabled" : "disabled"}.` };
  });
}

export async function resetBotTokenAction(
  applicationId: string,
  _previous: PortalActionState<string | undefined>,
  _form: FormData,
): Promise<PortalActionState<string | undefined>> {
  return asOwner(applicationId, (access) => ({ data: resetBotToken(access) }));
}

export async function resetClientSecretAction(
  applicationId: string,
  _previous: PortalActionState<string | undefined>,
  _form: FormData,
): Promise<PortalActionState<string | undefined>> {
  return asOwner(applicationId, (access) => ({ data: resetClientSecret(access) }));
}
