"use client";

// Calling a server action from a form or button: pending state, a toast with the outcome, field errors handed to
// the form, and a trip to sign-in when the session is gone.
import { useCallback, useTransition } from "react";
import { usePathname, useRouter } from "next/navigation";
import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import { useToast } from "@/components/ui/toast";
import type { ActionResult, FieldErrors } from "@/lib/dashboard/actions/action-client";

export interface UseActionOptions {
  /** Toast title on failure, e.g. "Couldn't save settings". */
  failure?: string;
  /** No toast on success (the caller shows its own). */
  quiet?: boolean;
}

export function useAction<I, R>(action: (input: I) => Promise<ActionResult<R>>, options: UseActionOptions = {}) {
  const [pending, startTransition] = useTransition();
  const toast = useToast();
  const router = useRouter();
  const pathname = usePathname();
  const run = useCallback(
    (input: I) =>
      new Promise<ActionResult<R>>((resolve) => {
        startTransition(async () => {
          let result: ActionResult<R>;
          try {
            result = await action(input);
          } catch {
            result = {
              ok: false,
              error: "Something went wrong on the server. Nothing may have changed; check and try again.",
              fieldErrors: {},
            };
          }
          if (result.ok) {
            if (!options.quiet) toast.success(result.message ?? "Saved.");
          } else if (result.status === 401) {
            toast.error("Signed out", result.error);
            router.push(`/sign-in?callbackUrl=${encodeURIComponent(pathname)}`);
          } else {
            toast.error(options.failure ?? "That didn't work", result.error);
          }
          resolve(result);
        });
      }),
    [action, options.failure, options.quiet, pathname, router, toast],
  );
  return { run, pending };
}

/** Puts the action's field errors on the form's fields ("" → the form's root). */
export function applyFieldErrors<T extends FieldValues>(
  setError: UseFormSetError<T>,
  fieldErrors: FieldErrors,
  known?: readonly string[],
): void {
  for (const [path, messages] of Object.entries(fieldErrors)) {
    const field =
      path === "" || (known && !known.some((k) => path === k || path.startsWith(`${k}.`))) ? "root.server" : path;
    setError(field as Path<T>, { type: "server", message: messages.join(" ") });
  }
}
