// The API client's error contract as data: one typed error for every non-2xx answer, with Discord's nested
// `errors` tree flattened to field paths ("name", "roles.0", "permission_overwrites.1.allow") so forms can
// show each message next to its field. OAuth2 endpoints answer RFC 6749 bodies; they map onto the same type.
import {
  RESTJSONErrorCodes,
  type RESTError,
  type RESTErrorData,
  type RESTErrorFieldInformation,
  type RESTErrorGroupWrapper,
} from "discord-api-types/v10";

export interface ApiFieldError {
  /** Dotted path into the request body, e.g. "roles.0"; "" for the body itself. */
  path: string;
  code: string;
  message: string;
}

export interface RequestDescription {
  method: string;
  path: string;
}

/** A non-2xx answer from the guild API (or its OAuth2 endpoints). */
export class GuildApiError extends Error {
  readonly status: number;
  /** Discord's JSON error code (RESTJSONErrorCodes), 0 when none; for OAuth2 errors, 0 with `oauthError` set. */
  readonly code: number;
  readonly fieldErrors: readonly ApiFieldError[];
  readonly oauthError: string | null;
  readonly request: RequestDescription;
  readonly body: unknown;

  constructor(status: number, body: unknown, request: RequestDescription) {
    const parsed = parseErrorBody(status, body);
    super(parsed.message);
    this.name = "GuildApiError";
    this.status = status;
    this.code = parsed.code;
    this.fieldErrors = parsed.fieldErrors;
    this.oauthError = parsed.oauthError;
    this.request = request;
    this.body = body;
  }

  /** Field errors grouped by path: what a form needs. */
  get fieldErrorMap(): Record<string, string[]> {
    const map: Record<string, string[]> = {};
    for (const error of this.fieldErrors) (map[error.path] ??= []).push(error.message);
    return map;
  }
}

/** A 429 the client did not (or may not) wait out: non-idempotent requests, or waits longer than allowed. */
export class RateLimitError extends GuildApiError {
  /** Seconds to wait before trying again. */
  readonly retryAfter: number;
  readonly global: boolean;

  constructor(body: unknown, retryAfter: number, global: boolean, request: RequestDescription) {
    super(429, body, request);
    this.name = "RateLimitError";
    this.retryAfter = retryAfter;
    this.global = global;
  }
}

/** The API could not be reached, or answered something that is not HTTP-with-a-body we understand. */
export class GuildApiUnreachableError extends Error {
  constructor(
    readonly request: RequestDescription,
    readonly cause: unknown,
  ) {
    super(`The guild API could not be reached (${request.method} ${request.path}).`);
    this.name = "GuildApiUnreachableError";
  }

  /**
   * Whether the request certainly never reached the API: the connection itself was refused (nothing listens there,
   * or an instance stopped taking connections). Any other failure may have come after the API acted.
   */
  get neverSent(): boolean {
    for (
      let cause = this.cause;
      isRecord(cause) || cause instanceof Error;
      cause = (cause as { cause?: unknown }).cause
    )
      if ((cause as { code?: unknown }).code === "ECONNREFUSED") return true;
    return false;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseErrorBody(
  status: number,
  body: unknown,
): { message: string; code: number; fieldErrors: ApiFieldError[]; oauthError: string | null } {
  if (isRecord(body) && typeof body.error === "string" && !("code" in body)) {
    const description = typeof body.error_description === "string" ? body.error_description : body.error;
    return { message: description, code: 0, fieldErrors: [], oauthError: body.error };
  }
  if (isRecord(body) && typeof body.message === "string") {
    const error = body as unknown as RESTError;
    return {
      message: error.message,
      code: typeof error.code === "number" ? error.code : 0,
      fieldErrors: error.errors ? flattenErrorTree(error.errors) : [],
      oauthError: null,
    };
  }
  if (isFieldMessageMap(body)) {
    // Update Target Users answers a bad file with its own shape, {"target_users_file": ["line 3: …", …]}: field →
    // messages, without Discord's code and message. It is an invalid form body all the same.
    const fieldErrors = Object.entries(body).flatMap(([path, messages]) =>
      messages.map((message) => ({ path, code: "", message })),
    );
    return {
      message: "Invalid Form Body",
      code: RESTJSONErrorCodes.InvalidFormBodyOrContentType,
      fieldErrors,
      oauthError: null,
    };
  }
  return { message: `HTTP ${status}`, code: 0, fieldErrors: [], oauthError: null };
}

function isFieldMessageMap(body: unknown): body is Record<string, string[]> {
  if (!isRecord(body)) return false;
  const values = Object.values(body);
  return (
    values.length > 0 &&
    values.every((value) => Array.isArray(value) && value.every((message) => typeof message === "string"))
  );
}

/**
 * Discord nests field errors by field name and array index down to `{_errors: [{code, message}]}`.
 * Returns them in document order with dotted paths.
 */
export function flattenErrorTree(tree: RESTErrorData, prefix: readonly string[] = []): ApiFieldError[] {
  if (typeof tree === "string") return [{ path: prefix.join("."), code: "", message: tree }];
  if (!isRecord(tree)) return [];
  const out: ApiFieldError[] = [];
  const group = tree as Partial<RESTErrorGroupWrapper> & Record<string, unknown>;
  if (Array.isArray(group._errors)) {
    for (const item of group._errors as unknown[]) {
      if (isRecord(item) && "_errors" in item) {
        out.push(...flattenErrorTree(item as RESTErrorData, prefix));
      } else if (isRecord(item) && typeof item.message === "string") {
        const info = item as unknown as RESTErrorFieldInformation;
        out.push({ path: prefix.join("."), code: String(info.code ?? ""), message: info.message });
      }
    }
  }
  for (const [key, value] of Object.entries(tree)) {
    if (key === "_errors") continue;
    out.push(...flattenErrorTree(value as RESTErrorData, [...prefix, key]));
  }
  return out;
}

/** One human sentence for any error the client throws. */
export function describeApiError(error: unknown): string {
  if (error instanceof RateLimitError) return `Rate limited: try again in ${Math.ceil(error.retryAfter)} s.`;
  if (error instanceof GuildApiError) {
    const first = error.fieldErrors[0];
    if (error.code === 50035 && first)
      return `${error.message}: ${first.path ? `${first.path}: ` : ""}${first.message}`;
    return error.message;
  }
  if (error instanceof GuildApiUnreachableError) return error.message;
  return error instanceof Error ? error.message : String(error);
}
