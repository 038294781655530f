// What the portal's server actions answer: success with an optional note and value (a new secret, shown once),
// or a message with field errors keyed by their path in the request ("url_mappings.1.target").
import type { ErrorTree, FieldError } from "@/lib/guild-api/errors";

export type ActionResult<T = undefined> =
  | { ok: true; message?: string; data?: T; at: number }
  | { ok: false; error: string; fieldErrors: Record<string, string>; at: number };

export const idle = { ok: true, at: 0 } as const;

/** Flattens Discord's nested error tree into "a.b.0.c" → first message. */
export function flattenErrors(
  tree: ErrorTree | undefined,
  prefix: string[] = [],
  out: Record<string, string> = {},
): Record<string, string> {
  if (!tree) return out;
  for (const [key, value] of Object.entries(tree)) {
    if (key === "_errors") {
      const path = prefix.join(".");
      if (!(path in out)) out[path] = (value as FieldError[])[0]?.message ?? "Invalid value.";
    } else {
      flattenErrors(value as ErrorTree, [...prefix, key], out);
    }
  }
  return out;
}
