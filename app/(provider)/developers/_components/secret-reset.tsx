"use client";

// Bot token and client secret: never shown again after they are made. Resetting asks first, then shows the new
// value once, with a Copy button; the server keeps only its hash.
import { useActionState, useState } from "react";
import { idle, type PortalActionState } from "../_lib/action-result";
import { CopyButton } from "./copy-field";
import { WarningIcon } from "./icons";
import { submitThrough } from "./form-submit";
import { FieldLabel } from "./section";

type Action = (
  previous: PortalActionState<string | undefined>,
  form: FormData,
) => Promise<PortalActionState<string | undefined>>;

export function SecretReset(props: {
  kind: "bot-token" | "client-secret";
  label: string;
  action: Action;
  confirmTitle: string;
  confirmText: string;
  buttonLabel: string;
}) {
  const [state, reset, resetting] = useActionState(props.action, idle as PortalActionState<string | undefined>);
  const [confirming, setConfirming] = useState(false);
  const secret = state.ok ? state.data : undefined;

  return (
    <div className="min-w-0">
      <FieldLabel>{props.label}</FieldLabel>
      {secret ? (
        <div className="flex flex-col gap-2">
          <div className="flex items-center gap-2">
            <code
              data-testid={`${props.kind}-value`}
              className="min-w-0 flex-1 break-all rounded-md bg-surface-sunken px-3 py-1.5 font-mono text-sm"
            >
              {secret}
            </code>
            <CopyButton value={secret} />
          </div>
          <p className="flex items-start gap-1.5 text-xs text-[#A8650F] dark:text-warning">
            <WarningIcon className="mt-px size-3.5 shrink-0" />
            Copy it now: for security, it is shown only once. Reset again if you lose it.
          </p>
        </div>
      ) : (
        <div className="flex items-center gap-3">
          <code
            className="min-w-0 flex-1 truncate rounded-md bg-surface-sunken px-3 py-1.5 font-mono text-sm tracking-widest text-ink-muted"
            aria-label="Hidden"
          >
            ••••••••••••••••••••
          </code>
          <button
            type="button"
            onClick={() => setConfirming(true)}
            className="shrink-0 rounded-md bg-blurple px-3 py-1.5 text-sm font-medium text-white hover:bg-blurple-dark"
          >
            {props.buttonLabel}
          </button>
        </div>
      )}
      {!state.ok && (
        <p role="alert" className="mt-2 text-sm text-danger">
          {state.error}
        </p>
      )}
      {confirming && (
        <div
          role="alertdialog"
          aria-labelledby={`${props.kind}-confirm`}
          className="fixed inset-0 z-40 flex items-center justify-center bg-black/50 p-4"
        >
          <form
            onSubmit={submitThrough(reset, () => {
              setConfirming(false);
              return true;
            })}
            className="w-full max-w-md rounded-xl bg-surface p-6 shadow-2xl ring-1 ring-line"
          >
            <h4 id={`${props.kind}-confirm`} className="flex items-center gap-2 text-lg font-semibold">
              <WarningIcon className="size-5 text-[#A8650F] dark:text-warning" /> {props.confirmTitle}
            </h4>
            <p className="mt-2 text-sm text-ink-muted">{props.confirmText}</p>
            <div className="mt-5 flex justify-end gap-3">
              <button
                type="button"
                onClick={() => setConfirming(false)}
                className="rounded-md px-4 py-2 text-sm font-medium hover:underline"
              >
                Cancel
              </button>
              <button
                type="submit"
                disabled={resetting}
                className="rounded-md bg-danger px-4 py-2 text-sm font-medium text-white hover:opacity-90 disabled:opacity-50"
              >
                Yes, do it!
              </button>
            </div>
          </form>
        </div>
      )}
    </div>
  );
}
