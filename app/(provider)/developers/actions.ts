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
// The form posts parallel prefix[] and target[] fields; a length mismatch means a tampered form.
const UrlMappingsFormSchema = z
  .object({
    prefix: z.array(z.string().max(4096)).max(URL_MAPPINGS_MAX + 1),
    target: z.array(z.string().max(4096)).max(URL_MAPPINGS_MAX + 1),
  })
  .refine((form) => form.prefix.length === form.target.length)
  .transform((form) => form.prefix.map((prefix, i) => ({ prefix: prefix.trim(), target: form.target[i].trim() })));
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
  run: (access: ApplicationAccess) => Promise<{ message?: string; data?: T }>,
): Promise<PortalActionState<T>> {
  const developer = await currentDeveloper();
  if (!developer) return fail("Your session has ended. Reload the page to sign in again.");
  if (!ApplicationIdSchema.safeParse(applicationId).success) return fail("Unknown application.");
  try {
    const result = await run(await applicationAccessForOwner(applicationId, developer.id));
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

const FORM_MISMATCH = "That form didn't look right. Reload the page and try again.";

/**
 * One portal action: read the form's fields, parse them with `schema`, then `run` as the application's owner. Every
 * action below is one of these, so the order (parse, session, ownership, service, revalidate) lives once.
 */
function ownerFormAction<S extends z.ZodType, T = undefined>(
  schema: S,
  readForm: (form: FormData) => unknown,
  run: (access: ApplicationAccess, input: z.output<S>) => Promise<{ message?: string; data?: T }>,
) {
  return async (
    applicationId: string,
    _previous: PortalActionState<T>,
    form: FormData,
  ): Promise<PortalActionState<T>> => {
    const parsed = schema.safeParse(readForm(form));
    if (!parsed.success) return fail(FORM_MISMATCH);
    return asOwner<T>(applicationId, (access) => run(access, parsed.data));
  };
}

const readRedirectUri = (form: FormData) => ({ redirect_uri: form.get("redirect_uri") ?? "" });
const NoFieldsSchema = z.object({});
const readNothing = () => ({});

export const addRedirectUriAction = ownerFormAction(RedirectUriFormSchema, readRedirectUri, async (access, input) => {
  await addRedirectUri(access, input.redirect_uri);
  return { message: "Redirect added." };
});

export const removeRedirectUriAction = ownerFormAction(
  RedirectUriFormSchema,
  readRedirectUri,
  async (access, input) => {
    await removeRedirectUri(access, input.redirect_uri);
    return { message: "Redirect removed." };
  },
);

export const saveUrlMappingsAction = ownerFormAction(
  UrlMappingsFormSchema,
  (form) => ({ prefix: form.getAll("prefix"), target: form.getAll("target") }),
  async (access, mappings) => {
    await setUrlMappings(access, mappings);
    return { message: "URL mappings saved." };
  },
);

export const setActivitiesEnabledAction = ownerFormAction(
  EnabledFormSchema,
  (form) => ({ enabled: form.get("enabled") }),
  async (access, input) => {
    const entryPoint = await setActivitiesEnabled(access, input.enabled);
    return {
      message: input.enabled
        ? `Activities enabled. Entry point command /${entryPoint?.name ?? "launch"} is ready.`
        : "Activities disabled. The entry point command was removed.",
    };
  },
);

export const setEntryPointHandlerAction = ownerFormAction(
  HandlerFormSchema,
  (form) => ({ handler: form.get("handler") }),
  async (access, input) => {
    const command = await setEntryPointHandler(access, input.handler);
    return {
      message:
        command.handler === 1 ? "Saved: your app handles the interaction." : "Saved: Discord launches the Activity.",
    };
  },
);

export const setInstallationContextsAction = ownerFormAction(
  ContextsFormSchema,
  (form) => ({ integration_types: form.getAll("integration_types") }),
  async (access, input) => {
    await setInstallationContexts(access, input.integration_types);
    return { message: "Installation contexts saved." };
  },
);

export const setPrivilegedIntentAction = ownerFormAction(
  PrivilegedIntentFormSchema,
  (form) => ({ intent: form.get("intent"), enabled: form.get("enabled") }),
  async (access, input) => {
    await setPrivilegedIntent(access, input.intent, input.enabled);
    const label = PRIVILEGED_INTENT_SETTINGS.find((s) => s.key === input.intent)!.label;
    return { message: `${label} ${input.enabled ? "enabled" : "disabled"}.` };
  },
);

export const resetBotTokenAction = ownerFormAction<typeof NoFieldsSchema, string | undefined>(
  NoFieldsSchema,
  readNothing,
  async (access) => ({
    data: await resetBotToken(access),
  }),
);

export const resetClientSecretAction = ownerFormAction<typeof NoFieldsSchema, string | undefined>(
  NoFieldsSchema,
  readNothing,
  async (access) => ({
    data: await resetClientSecret(access),
  }),
);
