// The outcome of the last action in a card: a quiet confirmation or an alert naming what to fix.
import type { PortalActionState } from "../_lib/action-result";
import { CheckIcon, WarningIcon } from "./icons";

export function ActionStatus({ state, pending }: { state: PortalActionState<unknown>; pending?: boolean }) {
  if (pending)
    return (
      <p className="text-sm text-ink-muted" aria-live="polite">
        Saving…
      </p>
    );
  if (!state.ok)
    return (
      <p
        role="alert"
        className="flex items-start gap-2 rounded-md border border-danger/40 bg-danger/10 px-3 py-2 text-sm"
      >
        <WarningIcon className="mt-0.5 size-4 shrink-0 text-danger" />
        {state.error}
      </p>
    );
  if (state.message)
    return (
      <p role="status" className="flex items-center gap-1.5 text-sm text-success">
        <CheckIcon className="size-4" />
        {state.message}
      </p>
    );
  return null;
}
