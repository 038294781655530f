// Step two: what the application asks for, every scope in words, the server to add a bot to, and the choice.
import { Icons } from "@/components/ui/icons";
import { decideAction, signOutAction } from "../actions";
import { BotPermissions, BotServerPicker, type InstallGuild } from "./bot-permissions";
import { Notice } from "./authorize-shell";
import { SubmitButton } from "./submit-button";
import type { IdentityUser } from "./app-identity";

export interface ConsentScope {
  scope: string;
  description: string;
}

export interface BotInstall {
  /** Servers the user owns or holds Manage Server in, each with what the bot's role gets there and what is dropped. */
  guilds: InstallGuild[];
  preselected: string | null;
  locked: boolean;
  /** Labels of the permissions the link asks for. */
  requested: string[];
  /** The link names a server the user can't add bots to. */
  preselectedRefused: boolean;
}

export function ConsentForm(props: {
  query: string;
  appName: string;
  user: IdentityUser;
  scopes: ConsentScope[];
  destination: string;
  bot: BotInstall | null;
  installError: string | null;
}) {
  const { bot } = props;
  const canAuthorize = !bot || (bot.guilds.length > 0 && !(bot.locked && bot.preselectedRefused));
  return (
    <>
      <div className="flex items-center justify-between gap-3 rounded-lg bg-surface-raised px-3 py-2 text-sm ring-1 ring-line">
        <span className="min-w-0 truncate">
          Signed in as <strong className="font-semibold">{props.user.displayName}</strong>{" "}
          <span className="text-ink-muted">@{props.user.username}</span>
        </span>
        <form action={signOutAction}>
          <input type="hidden" name="query" value={props.query} />
          <button type="submit" className="shrink-0 font-medium text-blurple hover:underline dark:text-blurple-light">
            Not you? Sign out
          </button>
        </form>
      </div>

      <section aria-labelledby="scopes-heading" className="flex flex-col gap-3">
        <h2 id="scopes-heading" className="text-xs font-semibold uppercase tracking-wide text-ink-muted">
          This will allow {props.appName} to:
        </h2>
        <ul className="flex flex-col divide-y divide-line">
          {props.scopes.map(({ scope, description }) => (
            <li key={scope} className="flex items-start gap-3 py-2.5 first:pt-0 last:pb-0">
              <span
                aria-hidden
                className="mt-0.5 flex size-5 shrink-0 items-center justify-center rounded-full bg-success text-white"
              >
                <svg
                  viewBox="0 0 24 24"
                  className="size-3.5"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="3"
                  strokeLinecap="round"
                  strokeLinejoin="round"
                >
                  <path d="m5 12 5 5 9-10" />
                </svg>
              </span>
              <span className="flex flex-col">
                <span className="text-sm">{description}</span>
                <span className="font-mono text-xs text-ink-muted">{scope}</span>
              </span>
            </li>
          ))}
        </ul>
      </section>

      <form action={decideAction} className="flex flex-col gap-5">
        <input type="hidden" name="query" value={props.query} />
        {props.installError && <Notice>{props.installError}</Notice>}
        {bot && <BotSection bot={bot} />}
        <ul className="flex flex-col gap-1.5 text-xs text-ink-muted">
          <li className="flex items-start gap-2">
            <Icons.link className="mt-0.5 size-3.5 shrink-0" />
            <span className="break-words">{props.destination}</span>
          </li>
          <li className="flex items-start gap-2">
            <Icons.lock className="mt-0.5 size-3.5 shrink-0" />
            <span>{props.appName} can&apos;t read your password or act outside these permissions.</span>
          </li>
        </ul>
        <div className="flex items-center justify-end gap-3 border-t border-line pt-5">
          <SubmitButton name="decision" value="cancel" variant="ghost">
            Cancel
          </SubmitButton>
          <SubmitButton name="decision" value="authorize" disabled={!canAuthorize} className="min-w-28">
            Authorize
          </SubmitButton>
        </div>
      </form>
    </>
  );
}

function BotSection({ bot }: { bot: BotInstall }) {
  const lockedGuild = bot.locked ? bot.guilds.find((g) => g.id === bot.preselected) : undefined;
  return (
    <section
      aria-labelledby="bot-heading"
      className="flex flex-col gap-3 rounded-lg bg-surface-raised p-4 ring-1 ring-line"
    >
      <h2 id="bot-heading" className="text-xs font-semibold uppercase tracking-wide text-ink-muted">
        Server install
      </h2>
      {bot.preselectedRefused && (
        <Notice tone="warning">
          You need Manage Server in the server this link names to add the bot there.
          {bot.locked ? "" : " Choose another one."}
        </Notice>
      )}
      {lockedGuild ? (
        <>
          <p className="text-sm">
            <input type="hidden" name="guild_id" value={lockedGuild.id} />
            The bot will be added to <strong>{lockedGuild.name}</strong>.
          </p>
          <BotPermissions guild={lockedGuild} requested={bot.requested} />
        </>
      ) : bot.locked ? null : bot.guilds.length === 0 ? (
        <Notice tone="warning">
          You don&apos;t own or manage any server, so there is nowhere to add this bot. You need Manage Server in a
          server.
        </Notice>
      ) : (
        <BotServerPicker
          guilds={bot.guilds}
          defaultGuildId={bot.preselectedRefused ? "" : (bot.preselected ?? "")}
          requested={bot.requested}
        />
      )}
    </section>
  );
}
