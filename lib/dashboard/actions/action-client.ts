// The one action client every dashboard mutation goes through:
//   session → API client (the moderator's token, or the bot's in bot mode)
//   → zod validation of the arguments (the same schema the form's resolver uses)
//   → in bot mode, the moderator's own permissions and hierarchy checked with the shared engine, and the reason
//     stamped "name (id): reason" (Discord only sees the bot); in both modes for actions that change only the
//     dashboard's own tables (`dashboardOnly`), which no API call judges
//   → before snapshot → the API call → after snapshot
//   → one AuditHistoryEntry, success or failure, written only for a member of the guild (see isShownGuildMember)
//   → a typed result: {ok: true, data} | {ok: false, error, fieldErrors}.
// Nothing is swallowed: API errors come back with their message and field paths; unexpected errors are logged,
// recorded, and rethrown to the error boundary.
import type { z } from "zod";
import {
  GuildApiClient,
  GuildApiError,
  GuildApiUnreachableError,
  RateLimitError,
  describeApiError,
} from "@/lib/api-client";
import type { Actor } from "@/lib/dashboard/auth/session";
import type { AuditRecorder, AuditTarget } from "@/lib/dashboard/audit/history";
import { ModeratorCheck } from "./moderator";
import { countedOutcome } from "./action-outcome";

import type { ActionResult, FieldErrors } from "@/lib/action-result";
import { componentLogger } from "@/lib/server/logger";
import { auditReason } from "./audit-reason";

const log = componentLogger("action");

export type { ActionResult, FieldErrors };

/**
 * Thrown by a definition's `run` when the dashboard's own rules refuse the request before the API is called (a stale
 * prune preview, a confirmation that does not match, a bulk-ban job paused in another tab): it becomes {ok: false, error, fieldErrors} and an error entry
 * in the history, like an API refusal, instead of reaching the error boundary.
 */
export class ActionRefusal extends Error {
  constructor(
    message: string,
    readonly fieldErrors: FieldErrors = {},
    readonly status = 409,
  ) {
    super(message);
    this.name = "ActionRefusal";
  }
}

export interface ActionContext<I> {
  input: I;
  guildId: string;
  api: GuildApiClient;
  actor: Actor;
  mode: "user" | "bot";
  /** The X-Audit-Log-Reason to send (stamped with the moderator in bot mode); undefined when none. */
  reason: string | undefined;
  /**
   * For an action that runs an operation many times (Revoke selected: Delete Invite for each invite): files one call
   * in the history as that operation's own entry, by this moderator in this guild with the action's reason, as the
   * call made alone would be filed; a failure only when the caller is shown to be a member of the guild.
   */
  recordCall: (entry: CallEntry) => Promise<void>;
}

/** One call of a many-call action, for the history. */
export interface CallEntry {
  /** The operation, e.g. "Delete Invite". */
  action: string;
  target: AuditTarget | null;
  /** The call's own reason, when it is not the one the moderator typed (an appeal's unban). */
  reason?: string | null;
  request?: unknown;
  before?: unknown;
  after?: unknown;
  status: "success" | "error";
  httpStatus?: number | null;
  error?: string | null;
}

export interface GuildActionDefinition<S extends z.ZodType<{ guildId: string; reason?: string }>, R> {
  /** The spec operation, as recorded in the audit history (e.g. "Modify Guild Role"). */
  action: string;
  schema: S;
  /**
   * What the change is about, for the history's target columns; sees the before snapshot and the result when there
   * are. Names come from those (the API), never from the input: the browser could send any.
   */
  target?: (input: z.output<S>, known: { before?: unknown; result?: unknown }) => AuditTarget | null;
  /**
   * Bot mode only (the API judges the moderator's token itself otherwise; both modes when `dashboardOnly`): why the
   * moderator may not do this, or null. Use the check's helpers, which apply the shared permission engine to the
   * moderator's member. Required: in bot mode the API sees only the bot, so an action without its guard would act
   * for any signed-in user.
   */
  authorize: (check: ModeratorCheck, input: z.output<S>) => Promise<string | null> | string | null;
  /**
   * The action changes only the dashboard's own tables (a job, its state), so in user mode no API call judges the
   * moderator either: `authorize` then runs in both modes, the check loaded with the moderator's own token.
   */
  dashboardOnly?: boolean;
  /** The request's effective fields, for the history (default: the input without guildId and reason). */
  request?: (input: z.output<S>) => unknown;
  /**
   * The before snapshot. A snapshot that cannot be read does not block the change, but one that throws ActionRefusal
   * does (a channel or invite of another guild: nothing is changed or filed under this guild).
   */
  before?: (ctx: ActionContext<z.output<S>>) => Promise<unknown>;
  run: (ctx: ActionContext<z.output<S>>) => Promise<R>;
  after?: (result: R, ctx: ActionContext<z.output<S>>) => unknown;
  /** Maps an API field path ("roles.0") to the form's field name; default: unchanged. */
  fieldPath?: (apiPath: string) => string;
  /** A success message for the toast; its names come from the API (the before snapshot, the result), as the history's. */
  message?: (result: R, input: z.output<S>, known: { before?: unknown }) => string;
  /**
   * Whether a success goes into the audit history (default: always; failures do whenever the caller is shown to be
   * a member of the guild). A job driven in many calls writes one entry, when it ends.
   */
  recordSuccess?: (result: R) => boolean;
}

export interface ActionSession {
  actor: Actor;
}

export interface ActionDependencies<Session extends ActionSession = ActionSession> {
  getSession: () => Promise<Session | null>;
  mode: () => "user" | "bot";
  createApi: (session: Session) => Promise<GuildApiClient>;
  record: AuditRecorder;
  /** After a success: refresh the guild's pages. */
  revalidate?: (guildId: string) => void;
}

/** zod issues → {"name": ["…"], "roles.0": ["…"]}, the shape forms read. */
export function zodFieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) (out[issue.path.map(String).join(".")] ??= []).push(issue.message);
  return out;
}

/** What an action answers a caller without a session (the browser's useAction sends them to sign in on 401). */
export function signedOutResult(): Extract<ActionResult<never>, { ok: false }> {
  return { ok: false, error: "Your session has expired. Sign in again.", fieldErrors: {}, status: 401 };
}

/** What an action answers input its schema refuses: 400 with the field errors, as the API answers (never 422). */
export function invalidInputResult(error: z.ZodError): Extract<ActionResult<never>, { ok: false }> {
  return { ok: false, error: "Some fields need your attention.", fieldErrors: zodFieldErrors(error), status: 400 };
}

function failure(error: unknown, fieldPath: (path: string) => string): Extract<ActionResult<never>, { ok: false }> {
  if (error instanceof ActionRefusal)
    return { ok: false, error: error.message, fieldErrors: error.fieldErrors, status: error.status };
  if (error instanceof RateLimitError) {
    return {
      ok: false,
      error: `Rate limited: waiting ${Math.ceil(error.retryAfter)} s before this can be tried again.`,
      fieldErrors: {},
      status: 429,
      retryAfter: error.retryAfter,
    };
  }
  if (error instanceof GuildApiError) {
    const fieldErrors: FieldErrors = {};
    for (const field of error.fieldErrors) (fieldErrors[fieldPath(field.path)] ??= []).push(field.message);
    return { ok: false, error: describeApiError(error), fieldErrors, status: error.status, code: error.code };
  }
  return { ok: false, error: describeApiError(error), fieldErrors: {} };
}

/**
 * Whether the API shows `userId` to be a member of the guild: Get Guild Member with their id, asked with the client the
 * action uses (the moderator's own token in user mode, which a stranger's guild answers 403 Missing Access; the
 * bot's in bot mode, answered 404 Unknown Member). Anything but a member, an unknown guild or an API that cannot
 * answer included, is "not shown".
 */
export async function isShownGuildMember(api: GuildApiClient, guildId: string, userId: string): Promise<boolean> {
  try {
    await api.members.get(guildId, userId);
    return true;
  } catch {
    return false;
  }
}

const withoutKeys = (input: Record<string, unknown>) => {
  const { guildId: _g, reason: _r, ...rest } = input;
  return rest;
};

export function createGuildAction<
  S extends z.ZodType<{ guildId: string; reason?: string }>,
  R,
  Session extends ActionSession,
>(
  definition: GuildActionDefinition<S, R>,
  deps: ActionDependencies<Session>,
): (raw: z.input<S>) => Promise<ActionResult<R>> {
  const fieldPath = definition.fieldPath ?? ((path: string) => path);
  const act = async (raw: z.input<S>): Promise<ActionResult<R>> => {
    const session = await deps.getSession();
    if (!session) return signedOutResult();

    const parsed = definition.schema.safeParse(raw);
    if (!parsed.success) return invalidInputResult(parsed.error);
    const input = parsed.data;
    const mode = deps.mode();
    const actor = session.actor;
    const guildId = input.guildId;
    const request = definition.request ? definition.request(input) : withoutKeys(input as Record<string, unknown>);
    const reason = auditReason(input.reason, actor, mode);
    const record = ({
      result,
      ...entry
    }: {
      status: "success" | "error";
      before?: unknown;
      after?: unknown;
      result?: R;
      httpStatus?: number | null;
      error?: string | null;
    }) =>
      deps.record({
        guildId,
        actor,
        action: definition.action,
        target: definition.target?.(input, { before: entry.before, result }) ?? null,
        reason: input.reason?.trim() || null,
        request,
        ...entry,
      });

    let api: GuildApiClient;
    try {
      api = await deps.createApi(session);
    } catch (error) {
      const result = failure(error, fieldPath);
      return error instanceof Error && error.name === "SessionExpiredError" ? { ...result, status: 401 } : result;
    }

    // Only a member of the guild writes into its history: anyone signed in can name any guild id. A success was
    // judged by the API for this guild, and bot mode's permission check has loaded the moderator's own member; any
    // other failure asks the API once (failures only: the happy path pays nothing), and the answer holds for the
    // rest of the action (a many-call action may fail many times).
    let memberShown = false;
    let memberLookup: Promise<boolean> | undefined;
    const shownMember = async () =>
      memberShown || (await (memberLookup ??= isShownGuildMember(api, guildId, actor.id)));
    const recordFailure = async (entry: Parameters<typeof record>[0]) => {
      if (await shownMember()) await record(entry);
    };
    const recordCall = async ({ action, target, request: callRequest, ...entry }: CallEntry) => {
      if (entry.status === "success") memberShown = true;
      else if (!(await shownMember())) return;
      await deps.record({
        guildId,
        actor,
        action,
        target,
        reason: input.reason?.trim() || null,
        request: callRequest,
        ...entry,
      });
    };
    const ctx: ActionContext<typeof input> = { input, guildId, api, actor, mode, reason, recordCall };

    if (mode === "bot" || definition.dashboardOnly) {
      let refusal: string | null;
      try {
        const check = await ModeratorCheck.load(api, guildId, actor.id, mode);
        memberShown = true;
        refusal = await definition.authorize(check, input);
      } catch (error) {
        const result = failure(error, fieldPath);
        await recordFailure({
          status: "error",
          httpStatus: result.status ?? null,
          error: `Could not check your permissions: ${result.error}`,
        });
        return { ...result, error: `Could not check your permissions: ${result.error}` };
      }
      if (refusal) {
        await record({ status: "error", httpStatus: 403, error: `Refused by the dashboard: ${refusal}` });
        return { ok: false, error: `You can't do this: ${refusal}.`, fieldErrors: {}, status: 403 };
      }
    }

    let before: unknown;
    try {
      before = definition.before ? await definition.before(ctx) : undefined;
    } catch (error) {
      if (error instanceof ActionRefusal) {
        const outcome = failure(error, fieldPath);
        await recordFailure({ status: "error", httpStatus: outcome.status ?? null, error: outcome.error });
        return outcome;
      }
      // A snapshot that cannot be read must not block the change; the history then says so.
      before = { snapshotError: describeApiError(error) };
    }

    let result: R;
    try {
      result = await definition.run(ctx);
    } catch (error) {
      const outcome = failure(error, fieldPath);
      await recordFailure({ status: "error", before, httpStatus: outcome.status ?? null, error: outcome.error });
      if (error instanceof GuildApiError || error instanceof GuildApiUnreachableError || error instanceof ActionRefusal)
        return outcome;
      log.error({ err: error, action: definition.action }, "an action failed");
      throw error;
    }
    const after = definition.after ? definition.after(result, ctx) : undefined;
    if (definition.recordSuccess?.(result) ?? true)
      await record({ status: "success", before, after, result, httpStatus: 200 });
    deps.revalidate?.(guildId);
    return { ok: true, data: result, message: definition.message?.(result, input, { before }) };
  };
  return (raw) => countedOutcome(definition.action, act(raw));
}
