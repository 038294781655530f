"use client";

// Installation (setup rule 7): where the app can be installed (Guild Install, User Install, or both, the default)
// and an install link for each, with a permissions picker for the bot's role on server installs.
import { useActionState, useMemo, useState } from "react";
import { PERMISSION_GROUPS } from "@/lib/discord/permissions";
import { idle, type PortalActionState } from "../_lib/action-result";
import { CopyButton } from "./copy-field";
import { WarningIcon } from "./icons";
import { Card } from "./section";
import { submitThrough } from "./form-submit";
import { ActionStatus } from "./status";

type Action = (previous: PortalActionState, form: FormData) => Promise<PortalActionState>;
const GUILD_INSTALL = 0;
const USER_INSTALL = 1;

const CONTEXTS = [
  {
    value: USER_INSTALL,
    title: "User Install",
    text: "Installed to a user's account: its commands follow them across servers, DMs and group DMs, visible only to them. Commands only.",
  },
  {
    value: GUILD_INSTALL,
    title: "Guild Install",
    text: "Installed to a server by a member with Manage Server; visible to everyone there. Adds the bot with the permissions you choose.",
  },
] as const;

/** The install link for one context, in the shape of Discord's Developer Portal links. */
export function installLink(origin: string, clientId: string, context: number, permissions: bigint): string {
  const query =
    context === GUILD_INSTALL
      ? `client_id=${clientId}&scope=applications.commands%20bot&permissions=${permissions}&integration_type=0`
      : `client_id=${clientId}&scope=applications.commands&integration_type=1`;
  return `${origin}/oauth2/authorize?${query}`;
}

export function InstallationSettings(props: {
  applicationId: string;
  origin: string;
  contexts: number[];
  hasBot: boolean;
  saveAction: Action;
}) {
  const saved = props.contexts.join(",");
  const [state, save, saving] = useActionState(props.saveAction, idle);
  const [chosen, setChosen] = useState<number[]>(props.contexts);
  const [baseline, setBaseline] = useState(saved);
  if (baseline !== saved) {
    setBaseline(saved);
    setChosen(props.contexts);
  }
  const dirty = [...chosen].sort().join(",") !== saved;
  const none = chosen.length === 0;

  const [linkContext, setLinkContext] = useState<number>(
    props.contexts.includes(GUILD_INSTALL) ? GUILD_INSTALL : USER_INSTALL,
  );
  const context = props.contexts.includes(linkContext) ? linkContext : props.contexts[0];
  const [permissions, setPermissions] = useState<bigint>(0n);
  const link = useMemo(
    () => installLink(props.origin, props.applicationId, context, permissions),
    [props.origin, props.applicationId, context, permissions],
  );

  return (
    <>
      <Card
        id="installation-contexts"
        title="Installation Contexts"
        description="Choose where your app can be installed. Both is recommended: people pick one when they install."
      >
        <form onSubmit={submitThrough(save, () => !none)} className="flex flex-col gap-4">
          <div className="grid gap-3 sm:grid-cols-2">
            {CONTEXTS.map((option) => (
              <label
                key={option.value}
                className={`flex cursor-pointer gap-3 rounded-lg border p-4 transition-colors ${chosen.includes(option.value) ? "border-blurple bg-blurple/5 dark:bg-blurple/10" : "border-line hover:border-ink-muted/50"}`}
              >
                <input
                  type="checkbox"
                  name="integration_types"
                  value={option.value}
                  checked={chosen.includes(option.value)}
                  onChange={(event) =>
                    setChosen((current) =>
                      event.target.checked ? [...current, option.value] : current.filter((v) => v !== option.value),
                    )
                  }
                  className="mt-1 size-4 accent-blurple"
                />
                <span>
                  <span className="block font-medium">{option.title}</span>
                  <span className="mt-0.5 block text-sm text-ink-muted">{option.text}</span>
                </span>
              </label>
            ))}
          </div>
          {none && (
            <p role="alert" className="flex items-center gap-2 text-sm text-danger">
              <WarningIcon className="size-4" /> Choose at least one installation context.
            </p>
          )}
          <div className="flex items-center justify-end gap-3">
            <ActionStatus state={dirty && state.ok ? idle : state} pending={saving} />
            {dirty && (
              <button
                type="button"
                onClick={() => setChosen(props.contexts)}
                className="text-sm font-medium hover:underline"
              >
                Reset
              </button>
            )}
            <button
              type="submit"
              disabled={!dirty || none || saving}
              className="rounded-md bg-success px-4 py-1.5 text-sm font-medium text-white transition-opacity hover:opacity-90 disabled:opacity-50"
            >
              Save Changes
            </button>
          </div>
        </form>
      </Card>

      <Card
        id="install-link"
        title="Install Link"
        description="Share this link to install your app. It opens the authorize page, where people choose a server (Guild Install) or add the app to their account (User Install)."
      >
        <div className="flex flex-col gap-4">
          <div
            role="radiogroup"
            aria-label="Install type"
            className="inline-flex w-fit rounded-lg bg-surface-sunken p-1 text-sm"
          >
            {CONTEXTS.filter((c) => props.contexts.includes(c.value)).map((option) => (
              <button
                key={option.value}
                type="button"
                role="radio"
                aria-checked={context === option.value}
                onClick={() => setLinkContext(option.value)}
                className={`rounded-md px-3 py-1.5 font-medium transition-colors ${context === option.value ? "bg-surface shadow-sm" : "text-ink-muted hover:text-ink"}`}
              >
                {option.title}
              </button>
            ))}
          </div>

          {context === GUILD_INSTALL && (
            <div className="flex flex-col gap-3">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <p className="text-xs font-bold uppercase tracking-wide text-ink-muted">Bot permissions</p>
                <p className="font-mono text-xs text-ink-muted">
                  permissions={String(permissions)}
                  {permissions !== 0n && (
                    <button
                      type="button"
                      onClick={() => setPermissions(0n)}
                      className="ml-2 font-sans font-medium text-blurple hover:underline"
                    >
                      Clear
                    </button>
                  )}
                </p>
              </div>
              {!props.hasBot && (
                <p className="text-sm text-[#A8650F] dark:text-warning">
                  This application has no bot: server installs add only its commands.
                </p>
              )}
              <div className="grid gap-x-6 gap-y-4 rounded-lg border border-line p-4 sm:grid-cols-2 xl:grid-cols-3">
                {PERMISSION_GROUPS.map((group) => (
                  <fieldset key={group.id}>
                    <legend className="mb-1.5 text-xs font-semibold text-ink-muted">{group.label}</legend>
                    <div className="flex flex-col gap-1">
                      {group.permissions.map((permission) => (
                        <label
                          key={permission.key}
                          className="flex items-center gap-2 text-sm"
                          title={permission.description}
                        >
                          <input
                            type="checkbox"
                            checked={(permissions & permission.flag) === permission.flag}
                            onChange={(event) =>
                              setPermissions((current) =>
                                event.target.checked ? current | permission.flag : current & ~permission.flag,
                              )
                            }
                            className="size-3.5 accent-blurple"
                          />
                          <span className={permission.dangerous ? "text-[#A8650F] dark:text-warning" : undefined}>
                            {permission.label}
                          </span>
                        </label>
                      ))}
                    </div>
                  </fieldset>
                ))}
              </div>
              <p className="text-xs text-ink-muted">
                Permissions in amber are elevated: they let the bot change the server or act on members.
              </p>
            </div>
          )}

          <div>
            <p className="mb-1.5 text-xs font-bold uppercase tracking-wide text-ink-muted">Generated link</p>
            <div className="flex items-center gap-2">
              <code
                data-testid="install-link"
                className="min-w-0 flex-1 truncate rounded-md bg-surface-sunken px-3 py-2 font-mono text-sm"
                title={link}
              >
                {link}
              </code>
              <CopyButton value={link} />
              <a
                href={link}
                target="_blank"
                rel="noreferrer"
                className="shrink-0 rounded-md border border-line px-3 py-1.5 text-sm font-medium hover:bg-surface-raised"
              >
                Open
              </a>
            </div>
          </div>
        </div>
      </Card>
    </>
  );
}
