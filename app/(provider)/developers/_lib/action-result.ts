// What the portal's server actions answer: Guildhall's one action result (a new secret, shown once, is its data),
// stamped with the time it was made, because the portal's forms keep it in useActionState and compare the stamps
// of two forms' states to show the newer one.
import type { ActionResult, FieldErrors } from "@/lib/action-result";
import type { ErrorTree, FieldError } from "@/lib/guild-api/errors";

export type PortalActionState<T = undefined> = ActionResult<T> & { at: number };

export const idle = { ok: true, data: undefined, at: 0 } as const;

/** Flattens Discord's nested error tree into "a.b.0.c" → its messages. */
export function flattenErrors(tree: ErrorTree | undefined, prefix: string[] = [], out: FieldErrors = {}): FieldErrors {
  if (!tree) return out;
  for (const [key, value] of Object.entries(tree)) {
    if (key === "_errors") {
      const messages = (value as FieldError[]).map((error) => error.message);
      out[prefix.join(".")] = messages.length > 0 ? messages : ["Invalid value."];
    } else {
      flattenErrors(value as ErrorTree, [...prefix, key], out);
    }
  }
  return out;
}
