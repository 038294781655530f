// What a server action answers, wherever Guildhall has forms (the dashboard's actions and the Developer Portal's):
// success with its data and an optional note, or a message with field errors keyed by their path in the request
// ("url_mappings.1.target"), each with its messages. Pure types: pages, actions and client components share them.
export type FieldErrors = Record<string, string[]>;

export type ActionResult<T = undefined> =
  | { ok: true; data: T; message?: string }
  | { ok: false; error: string; fieldErrors: FieldErrors; status?: number; code?: number; retryAfter?: number };
