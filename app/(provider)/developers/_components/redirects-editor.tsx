"use client";

// OAuth2 → Redirects: the registered redirect URIs, each removable, and a field to add one (setup rule 1).
import { useActionState, useState } from "react";
import { REDIRECT_URIS_MAX } from "@/lib/discord/limits";
import { checkRedirectUri } from "@/lib/guild-api/schemas/applications";
import { idle, type PortalActionState } from "../_lib/action-result";
import { PlusIcon, TrashIcon } from "./icons";
import { submitThrough } from "./form-submit";
import { ActionStatus } from "./status";

type Action = (previous: PortalActionState, form: FormData) => Promise<PortalActionState>;

export function RedirectsEditor({
  redirectUris,
  addAction,
  removeAction,
}: {
  redirectUris: string[];
  addAction: Action;
  removeAction: Action;
}) {
  const [addState, add, adding] = useActionState(addAction, idle);
  const [removeState, remove, removing] = useActionState(removeAction, idle);
  const [draft, setDraft] = useState("");
  const [touched, setTouched] = useState(false);
  const full = redirectUris.length >= REDIRECT_URIS_MAX;

  // A saved URI leaves the field empty for the next one (adjusted while rendering, once per result).
  const [handledAt, setHandledAt] = useState(0);
  if (addState.at !== handledAt) {
    setHandledAt(addState.at);
    if (addState.ok) {
      setDraft("");
      setTouched(false);
    }
  }

  const problem = touched && draft.trim() ? checkRedirectUri(draft.trim())?.message : undefined;
  const duplicate =
    touched && redirectUris.includes(draft.trim()) ? "This redirect URI is already registered." : undefined;
  const latest = removeState.at > addState.at ? removeState : addState;

  return (
    <div className="flex flex-col gap-4">
      {redirectUris.length === 0 ? (
        <p className="rounded-lg border border-dashed border-line px-4 py-6 text-center text-sm text-ink-muted">
          No redirect URIs yet. Add one below.
        </p>
      ) : (
        <ul aria-label="Redirect URIs" className="divide-y divide-line overflow-hidden rounded-lg border border-line">
          {redirectUris.map((uri) => (
            <li key={uri} className="flex items-center gap-3 bg-surface-raised/60 px-3 py-2">
              <code className="min-w-0 flex-1 truncate font-mono text-sm" title={uri}>
                {uri}
              </code>
              <form onSubmit={submitThrough(remove)}>
                <input type="hidden" name="redirect_uri" value={uri} />
                <button
                  type="submit"
                  disabled={removing}
                  aria-label={`Remove ${uri}`}
                  className="flex items-center gap-1 rounded-md px-2 py-1 text-sm text-ink-muted transition-colors hover:bg-danger/10 hover:text-danger disabled:opacity-50"
                >
                  <TrashIcon className="size-4" />
                  <span className="hidden sm:inline">Remove</span>
                </button>
              </form>
            </li>
          ))}
        </ul>
      )}

      <form
        onSubmit={submitThrough(add, () => {
          setTouched(true);
          return !checkRedirectUri(draft.trim()) && !redirectUris.includes(draft.trim());
        })}
        className="flex flex-col gap-2"
      >
        <label htmlFor="new-redirect" className="text-xs font-bold uppercase tracking-wide text-ink-muted">
          Add redirect
        </label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <input
            id="new-redirect"
            name="redirect_uri"
            type="text"
            inputMode="url"
            placeholder="https://example.com/callback"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            onBlur={() => setTouched(true)}
            disabled={full}
            aria-invalid={Boolean(problem || duplicate)}
            aria-describedby="new-redirect-help"
            className="min-w-0 flex-1 rounded-md border border-line bg-surface-sunken px-3 py-2 font-mono text-sm outline-none transition-colors focus:border-blurple aria-invalid:border-danger disabled:opacity-60"
          />
          <button
            type="submit"
            disabled={adding || full}
            className="inline-flex items-center justify-center gap-1.5 rounded-md bg-blurple px-4 py-2 text-sm font-medium text-white transition-colors hover:bg-blurple-dark disabled:opacity-50"
          >
            <PlusIcon className="size-4" />
            Add Redirect
          </button>
        </div>
        <p id="new-redirect-help" className={`text-xs ${problem || duplicate ? "text-danger" : "text-ink-muted"}`}>
          {problem ??
            duplicate ??
            (full
              ? `You've registered the maximum of ${REDIRECT_URIS_MAX} redirect URIs. Remove one to add another.`
              : `Absolute http(s) address, no #fragment. ${redirectUris.length} of ${REDIRECT_URIS_MAX} used.`)}
        </p>
      </form>
      <ActionStatus state={latest} pending={adding || removing} />
    </div>
  );
}
