"use client";

// Bot → Privileged Gateway Intents: one switch per intent, saved at once. The gateway refuses an IDENTIFY asking for
// an intent that is off (close code 4014, "Disallowed intent(s)").
import { useActionState } from "react";
import { idle, type PortalActionState } from "../_lib/action-result";
import { CodeWords } from "./code-words";
import { submitThrough } from "./form-submit";
import { ActionStatus } from "./status";

type Action = (previous: PortalActionState, form: FormData) => Promise<PortalActionState>;

export function PrivilegedIntents(props: {
  intents: ReadonlyArray<{ key: string; label: string; description: string; enabled: boolean }>;
  saveAction: Action;
}) {
  const [state, save, saving] = useActionState(props.saveAction, idle);
  return (
    <div className="flex flex-col gap-4">
      {props.intents.map((intent) => (
        <form key={intent.key} onSubmit={submitThrough(save)} className="flex items-start gap-4">
          <input type="hidden" name="intent" value={intent.key} />
          <input type="hidden" name="enabled" value={String(!intent.enabled)} />
          <div className="flex-1">
            <p id={`intent-${intent.key}-label`} className="font-medium">
              {intent.label}
            </p>
            <p className="mt-0.5 text-sm text-ink-muted">
              <CodeWords text={intent.description} />
            </p>
          </div>
          <button
            type="submit"
            role="switch"
            aria-checked={intent.enabled}
            aria-labelledby={`intent-${intent.key}-label`}
            disabled={saving}
            className={`relative mt-0.5 h-6 w-10 shrink-0 rounded-full transition-colors disabled:opacity-50 ${intent.enabled ? "bg-success" : "bg-ink-muted/40"}`}
          >
            <span
              className={`absolute top-0.5 size-5 rounded-full bg-white shadow transition-all ${intent.enabled ? "left-[18px]" : "left-0.5"}`}
            />
          </button>
        </form>
      ))}
      <ActionStatus state={state} pending={saving} />
    </div>
  );
}
