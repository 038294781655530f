// Step two: what the application asks for, every scope in words, the server to add a bot to, and the choice.
import { Icons } from "@/components/ui/icons";
import { Select } from "@/components/ui/input";
import { cn } from "@/components/ui/cn";
import { decideAction, signOutAction } from "../actions";
import { Notice } from "./authorize-shell";
import { SubmitButton } from "./submit-button";
import type { IdentityUser } from "./app-identity";

export interface ConsentScope {
  scope: string;
  description: string;
}

export interface BotInstall {
  /** Servers the user owns or holds Manage Server in. */
  guilds: Array<{ id: string; name: string }>;
  preselected: string | null;
  locked: boolean;
  /** Labels of the permissions the bot's role will get. */
  permissions: string[];
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
        <p className="text-sm">
          <input type="hidden" name="guild_id" value={lockedGuild.id} />
          The bot will be added to <strong>{lockedGuild.name}</strong>.
        </p>
      ) : bot.locked ? null : bot.guilds.length === 0 ? (
        <Notice tone="warning">
          You don&apos;t own or manage any server, so there is nowhere to add this bot. You need Manage Server in a
          server.
        </Notice>
      ) : (
        <label className="flex flex-col gap-1.5 text-sm font-medium">
          Add to server
          <Select
            name="guild_id"
            required
            defaultValue={bot.preselectedRefused ? "" : (bot.preselected ?? "")}
            aria-describedby="bot-guild-hint"
          >
            <option value="" disabled>
              Select a server
            </option>
            {bot.guilds.map((guild) => (
              <option key={guild.id} value={guild.id}>
                {guild.name}
              </option>
            ))}
          </Select>
          <span id="bot-guild-hint" className="text-xs font-normal text-ink-muted">
            Only servers where you have Manage Server are listed.
          </span>
        </label>
      )}
      {bot.permissions.length > 0 && (
        <details className="text-sm">
          <summary className="cursor-pointer select-none font-medium">
            The bot&apos;s role gets {bot.permissions.length} permission{bot.permissions.length === 1 ? "" : "s"}
          </summary>
          <ul
            className={cn(
              "mt-2 grid gap-x-4 gap-y-1 text-xs text-ink-muted",
              bot.permissions.length > 4 && "sm:grid-cols-2",
            )}
          >
            {bot.permissions.map((label) => (
              <li key={label}>· {label}</li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
