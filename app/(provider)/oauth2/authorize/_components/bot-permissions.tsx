"use client";

// What a bot install grants, per server: the requested permissions the user holds there go to the bot's role; the
// others are dropped (nobody grants through a bot what they could not grant through a role). Both depend on the
// server, so the list follows the server picker.
import { useState } from "react";
import { cn } from "@/components/ui/cn";
import { Select } from "@/components/ui/input";

export interface InstallGuild {
  id: string;
  name: string;
  /** Labels of the requested permissions the bot's role gets in this server. */
  granted: string[];
  /** Labels of the requested permissions dropped in this server, because the user lacks them there. */
  dropped: string[];
}

/** The server select of an install, with the permissions for the server chosen. */
export function BotServerPicker(props: { guilds: InstallGuild[]; defaultGuildId: string; requested: string[] }) {
  const [guildId, setGuildId] = useState(props.defaultGuildId);
  return (
    <>
      <label className="flex flex-col gap-1.5 text-sm font-medium">
        Add to server
        <Select
          name="guild_id"
          required
          value={guildId}
          onChange={(event) => setGuildId(event.target.value)}
          aria-describedby="bot-guild-hint"
        >
          <option value="" disabled>
            Select a server
          </option>
          {props.guilds.map((guild) => (
            <option key={guild.id} value={guild.id}>
              {guild.name}
            </option>
          ))}
        </Select>
        <span id="bot-guild-hint" className="text-xs font-normal text-ink-muted">
          Only servers where you have Manage Server are listed.
        </span>
      </label>
      <BotPermissions guild={props.guilds.find((g) => g.id === guildId) ?? null} requested={props.requested} />
    </>
  );
}

/** The permissions the bot's role gets in `guild` and those dropped; before a server is chosen, what was asked for. */
export function BotPermissions({ guild, requested }: { guild: InstallGuild | null; requested: string[] }) {
  if (requested.length === 0) return null;
  if (!guild) {
    return (
      <PermissionList
        summary={`The bot asks for ${count(requested.length)}`}
        labels={requested}
        note="What its role gets depends on your own permissions in the server you choose."
      />
    );
  }
  return (
    <>
      {guild.granted.length > 0 ? (
        <PermissionList summary={`The bot's role gets ${count(guild.granted.length)}`} labels={guild.granted} />
      ) : (
        <p className="text-sm font-medium">The bot&apos;s role gets no permissions.</p>
      )}
      {guild.dropped.length > 0 && (
        <div
          role="group"
          aria-label="Permissions not granted"
          className="flex flex-col gap-1.5 rounded-lg border border-warning/50 bg-warning/10 px-3 py-2.5 text-sm"
        >
          <p>
            {count(guild.dropped.length)} won&apos;t be granted: you don&apos;t have{" "}
            {guild.dropped.length === 1 ? "it" : "them"} in {guild.name}, and you can only give what you have.
          </p>
          <Labels labels={guild.dropped} />
        </div>
      )}
    </>
  );
}

const count = (n: number) => `${n} permission${n === 1 ? "" : "s"}`;

function PermissionList({ summary, labels, note }: { summary: string; labels: string[]; note?: string }) {
  return (
    <details className="text-sm">
      <summary className="cursor-pointer select-none font-medium">{summary}</summary>
      {note && <p className="mt-2 text-xs text-ink-muted">{note}</p>}
      <Labels labels={labels} />
    </details>
  );
}

function Labels({ labels }: { labels: string[] }) {
  return (
    <ul className={cn("mt-2 grid gap-x-4 gap-y-1 text-xs text-ink-muted", labels.length > 4 && "sm:grid-cols-2")}>
      {labels.map((label) => (
        <li key={label}>· {label}</li>
      ))}
    </ul>
  );
}
