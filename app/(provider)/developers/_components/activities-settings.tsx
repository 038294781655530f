"use client";

// Activities → Settings (setup rule 6): the Enable Activities switch and the Entry Point command it creates, with
// its handler: Discord launches the Activity (2, the default) or the app handles the interaction (1).
import { useActionState, useRef, useState } from "react";
import { idle, type PortalActionState } from "../_lib/action-result";
import { WarningIcon } from "./icons";
import { submitThrough } from "./form-submit";
import { CodeWords } from "./code-words";
import { ActionStatus } from "./status";

type Action = (previous: PortalActionState, form: FormData) => Promise<PortalActionState>;

const HANDLERS = [
  {
    value: 2,
    title: "Discord Launches Activity",
    badge: "Default",
    text: "Invoking the command opens your Activity, and Discord posts a message in the channel it was launched from.",
  },
  {
    value: 1,
    title: "App Handles Interaction",
    text: "Your app receives the interaction and answers it itself, for example with a LAUNCH_ACTIVITY response after its own checks.",
  },
] as const;

export function ActivitiesSettings(props: {
  appName: string;
  enabled: boolean;
  hasRootMapping: boolean;
  entryPoint: { id: string; name: string; description: string; handler: number } | null;
  toggleAction: Action;
  handlerAction: Action;
}) {
  const [toggleState, toggle, toggling] = useActionState(props.toggleAction, idle);
  const [handlerState, setHandler, savingHandler] = useActionState(props.handlerAction, idle);
  const [confirmOff, setConfirmOff] = useState(false);
  const [handler, setHandlerChoice] = useState(props.entryPoint?.handler ?? 2);
  const [savedHandler, setSavedHandler] = useState(props.entryPoint?.handler);
  const handlerForm = useRef<HTMLFormElement>(null);

  // Follow the server after a save or a fresh entry point.
  if (savedHandler !== props.entryPoint?.handler) {
    setSavedHandler(props.entryPoint?.handler);
    setHandlerChoice(props.entryPoint?.handler ?? 2);
  }
  const latest = handlerState.at > toggleState.at ? handlerState : toggleState;
  const blocked = !props.enabled && !props.hasRootMapping;

  return (
    <div className="flex flex-col gap-5">
      <form
        onSubmit={submitThrough(toggle, () => {
          setConfirmOff(false);
          return true;
        })}
        className="flex items-start gap-4"
      >
        <input type="hidden" name="enabled" value={String(!props.enabled)} />
        <div className="flex-1">
          <p id="enable-activities-label" className="font-medium">
            Enable Activities
          </p>
          <p className="mt-0.5 text-sm text-ink-muted">
            Lets people launch {props.appName} as an Activity. Turning it on creates the default Entry Point command,{" "}
            <code className="font-mono">/launch</code>.
          </p>
          {blocked && (
            <p className="mt-2 text-sm text-[#A8650F] dark:text-warning">
              Add a root mapping (prefix <code className="font-mono">/</code>) under{" "}
              <a href="#url-mappings" className="font-medium underline">
                URL Mappings
              </a>{" "}
              first.
            </p>
          )}
        </div>
        <button
          type={props.enabled ? "button" : "submit"}
          role="switch"
          aria-checked={props.enabled}
          aria-labelledby="enable-activities-label"
          disabled={toggling || blocked}
          onClick={props.enabled ? () => setConfirmOff(true) : undefined}
          className={`relative mt-0.5 h-6 w-10 shrink-0 rounded-full transition-colors disabled:opacity-50 ${props.enabled ? "bg-success" : "bg-ink-muted/40"}`}
        >
          <span
            className={`absolute top-0.5 size-5 rounded-full bg-white shadow transition-all ${props.enabled ? "left-[18px]" : "left-0.5"}`}
          />
        </button>
        {confirmOff && (
          <div
            role="alertdialog"
            aria-labelledby="disable-activities-title"
            className="fixed inset-0 z-40 flex items-center justify-center bg-black/50 p-4"
          >
            <div className="w-full max-w-md rounded-xl bg-surface p-6 shadow-2xl ring-1 ring-line">
              <h4 id="disable-activities-title" className="flex items-center gap-2 text-lg font-semibold">
                <WarningIcon className="size-5 text-[#A8650F] dark:text-warning" /> Turn off Activities?
              </h4>
              <p className="mt-2 text-sm text-ink-muted">
                The Entry Point command <code className="font-mono">/{props.entryPoint?.name ?? "launch"}</code> is
                removed with them, as on Discord. Turning Activities back on creates a fresh default one.
              </p>
              <div className="mt-5 flex justify-end gap-3">
                <button
                  type="button"
                  onClick={() => setConfirmOff(false)}
                  className="rounded-md px-4 py-2 text-sm font-medium hover:underline"
                >
                  Cancel
                </button>
                <button
                  type="submit"
                  className="rounded-md bg-danger px-4 py-2 text-sm font-medium text-white hover:opacity-90"
                >
                  Turn Off Activities
                </button>
              </div>
            </div>
          </div>
        )}
      </form>

      {props.enabled && props.entryPoint && (
        <div className="rounded-lg border border-line bg-surface-raised/60 p-4">
          <div className="flex flex-wrap items-center gap-2">
            <p className="font-medium">Entry Point Command</p>
            <code
              data-developer-sample
              className="rounded-full bg-surface-sunken px-2 py-0.5 font-mono text-xs text-ink-muted"
            >
              PRIMARY_ENTRY_POINT
            </code>
          </div>
          <div className="mt-3 flex items-center gap-3 rounded-md bg-surface px-3 py-2 ring-1 ring-line">
            <code className="font-mono font-semibold text-blurple dark:text-blurple-light">
              /{props.entryPoint.name}
            </code>
            <span className="text-sm text-ink-muted">{props.entryPoint.description}</span>
          </div>
          <form ref={handlerForm} onSubmit={submitThrough(setHandler)} className="mt-4">
            <fieldset>
              <legend className="mb-2 text-xs font-bold uppercase tracking-wide text-ink-muted">Handler</legend>
              <div className="grid gap-3 sm:grid-cols-2">
                {HANDLERS.map((option) => (
                  <label
                    key={option.value}
                    className={`flex cursor-pointer items-start gap-3 rounded-lg border p-3 transition-colors ${handler === option.value ? "border-blurple bg-blurple/5 dark:bg-blurple/10" : "border-line bg-surface hover:border-ink-muted/50"}`}
                  >
                    <input
                      type="radio"
                      name="handler"
                      value={option.value}
                      checked={handler === option.value}
                      onChange={() => {
                        setHandlerChoice(option.value);
                        // Saved as soon as it's chosen, like the other switches on this page.
                        queueMicrotask(() => handlerForm.current?.requestSubmit());
                      }}
                      className="mt-1 accent-blurple"
                    />
                    <span>
                      <span className="flex items-center gap-2 text-sm font-medium">
                        {option.title}
                        {"badge" in option && (
                          <span className="rounded bg-surface-sunken px-1.5 py-px text-[10px] font-bold uppercase text-ink-muted">
                            {option.badge}
                          </span>
                        )}
                      </span>
                      <span className="mt-0.5 block text-xs text-ink-muted">
                        <CodeWords text={option.text} />
                      </span>
                      <code data-developer-sample className="mt-1 block font-mono text-[11px] text-ink-muted">
                        handler: {option.value} ({option.value === 1 ? "APP_HANDLER" : "DISCORD_LAUNCH_ACTIVITY"})
                      </code>
                    </span>
                  </label>
                ))}
              </div>
            </fieldset>
          </form>
        </div>
      )}
      <ActionStatus state={latest} pending={toggling || savingHandler} />
    </div>
  );
}
