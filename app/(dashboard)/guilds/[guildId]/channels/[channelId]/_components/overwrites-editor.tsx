"use client";

// Permissions: the channel's overwrites as Discord's channel editor shows them. Pick a role or member (or add one),
// then set each permission that applies to this channel type to deny, inherit or allow; permissions the moderator
// cannot change are disabled with the reason (the API refuses them). Above it: the category sync state with Sync now,
// and "Private channel" as one switch.
import { useMemo, useState } from "react";
import { PermissionFlagsBits } from "discord-api-types/v10";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader, DisabledReason } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Select } from "@/components/ui/input";
import { Switch } from "@/components/ui/switch";
import { useAction } from "@/components/dashboard/use-action";
import { ReasonInput } from "@/components/dashboard/reason-input";
import {
  deleteChannelPermissionAction,
  editChannelPermissionAction,
  replaceChannelOverwritesAction,
} from "@/lib/dashboard/actions/channel-settings";
import {
  channelPermissionGroups,
  isPrivateChannel,
  isSyncedWithParent,
  privateChannelOverwrites,
  type WireOverwrite,
} from "@/lib/discord/channel-permissions";

export interface TargetOption {
  id: string;
  name: string;
  /** Role colour (0: none); members have none. */
  color?: number;
}

export interface OverwritesEditorProps {
  guildId: string;
  channel: { id: string; name: string; type: number; overwrites: WireOverwrite[] };
  parent: { id: string; name: string; overwrites: WireOverwrite[] } | null;
  /** Highest first; @everyone last. */
  roles: TargetOption[];
  /** Members named in overwrites, and members that may be added. */
  members: TargetOption[];
  /** Decimal bitfield of the permissions the moderator may allow or deny here. */
  grantable: string;
  /** Why the moderator may not edit overwrites at all; null when they may. */
  refusal: string | null;
  /** Why the moderator may not use Sync now and the private switch (Modify Channel); null when they may. */
  modifyRefusal: string | null;
}

type State = "deny" | "inherit" | "allow";

export function OverwritesEditor(props: OverwritesEditorProps) {
  const { guildId, channel, parent, roles, members, grantable, refusal, modifyRefusal } = props;
  const everyoneId = guildId;
  const groups = useMemo(() => channelPermissionGroups(channel.type), [channel.type]);
  const allowed = BigInt(grantable);
  const names = useMemo(() => new Map([...roles, ...members].map((t) => [t.id, t.name])), [roles, members]);
  const nameOf = (id: string) => (id === everyoneId ? "@everyone" : (names.get(id) ?? id));

  const saved = channel.overwrites;
  const [added, setAdded] = useState<WireOverwrite[]>([]);
  const listed = [...saved, ...added.filter((a) => !saved.some((o) => o.id === a.id))];
  const ordered = [
    ...roles.filter((r) => listed.some((o) => o.type === 0 && o.id === r.id)).map((r) => r.id),
    ...listed.filter((o) => o.type === 0 && !roles.some((r) => r.id === o.id)).map((o) => o.id),
    ...listed.filter((o) => o.type === 1).map((o) => o.id),
  ];
  const [selected, setSelected] = useState<string | null>(ordered[0] ?? null);
  const [drafts, setDrafts] = useState<Record<string, { allow: bigint; deny: bigint }>>({});
  const [reason, setReason] = useState("");

  const edit = useAction(editChannelPermissionAction, { failure: "Couldn't save the permissions" });
  const remove = useAction(deleteChannelPermissionAction, { failure: "Couldn't remove the overwrite" });
  const replace = useAction(replaceChannelOverwritesAction, { failure: "Couldn't change the channel's permissions" });

  const base = (id: string) => {
    const o = listed.find((x) => x.id === id);
    return { allow: BigInt(o?.allow ?? "0"), deny: BigInt(o?.deny ?? "0") };
  };
  const draft = (id: string) => drafts[id] ?? base(id);
  const dirty = (id: string) => {
    const d = draft(id);
    const b = saved.find((o) => o.id === id);
    return !b || d.allow !== BigInt(b.allow) || d.deny !== BigInt(b.deny);
  };
  const selectedOverwrite = listed.find((o) => o.id === selected) ?? null;

  const setState = (id: string, flag: bigint, state: State) => {
    const d = draft(id);
    setDrafts({
      ...drafts,
      [id]: {
        allow: state === "allow" ? d.allow | flag : d.allow & ~flag,
        deny: state === "deny" ? d.deny | flag : d.deny & ~flag,
      },
    });
  };

  const addTarget = (id: string, type: 0 | 1) => {
    if (!id) return;
    if (!listed.some((o) => o.id === id)) setAdded([...added, { id, type, allow: "0", deny: "0" }]);
    setSelected(id);
  };

  const save = async (id: string) => {
    const o = listed.find((x) => x.id === id)!;
    const d = draft(id);
    const result = await edit.run({
      guildId,
      channelId: channel.id,
      overwrite: { id, type: o.type, allow: d.allow.toString(), deny: d.deny.toString() },
      reason: reason || undefined,
    });
    if (result.ok) {
      setAdded(added.filter((a) => a.id !== id));
      setDrafts(Object.fromEntries(Object.entries(drafts).filter(([key]) => key !== id)));
    }
  };

  const removeOverwrite = async (id: string) => {
    if (!saved.some((o) => o.id === id)) {
      setAdded(added.filter((a) => a.id !== id));
      setSelected(null);
      return;
    }
    const result = await remove.run({
      guildId,
      channelId: channel.id,
      overwriteId: id,
      reason: reason || undefined,
    });
    if (result.ok) setSelected(null);
  };

  const isPrivate = isPrivateChannel(saved, everyoneId);
  const synced = parent ? isSyncedWithParent(saved, parent.overwrites) : null;
  const [privateRoles, setPrivateRoles] = useState<string[]>([]);
  const [privateOpen, setPrivateOpen] = useState(false);
  /** Make the channel private (the chosen roles keep their view) or public again, in one replace of the overwrites. */
  const setPrivacy = async (purpose: "private" | "public") => {
    const result = await replace.run({
      guildId,
      channelId: channel.id,
      purpose,
      overwrites: privateChannelOverwrites(saved, everyoneId, purpose === "private", privateRoles),
      reason: reason || undefined,
    });
    if (!result.ok) return;
    setPrivateOpen(false);
    setPrivateRoles([]);
  };
  const canView = (id: string) =>
    (BigInt(saved.find((o) => o.id === id)?.allow ?? "0") & PermissionFlagsBits.ViewChannel) !== 0n;

  const roleOptions = roles.filter((r) => !listed.some((o) => o.id === r.id));
  const memberOptions = members.filter((m) => !listed.some((o) => o.id === m.id));

  return (
    <div className="flex flex-col gap-6">
      {parent && (
        <Card>
          <div className="flex flex-wrap items-center gap-3">
            {synced ? (
              <Badge tone="success">Synced with {parent.name}</Badge>
            ) : (
              <Badge tone="warning">Not synced with {parent.name}</Badge>
            )}
            <p className="min-w-0 flex-1 text-sm text-ink-muted">
              {synced
                ? "This channel's permissions follow its category."
                : "This channel's permissions differ from its category's."}
            </p>
            {!synced && (
              <Button
                variant="secondary"
                disabled={modifyRefusal !== null}
                title={modifyRefusal ?? undefined}
                pending={replace.pending}
                onClick={() =>
                  void replace.run({
                    guildId,
                    channelId: channel.id,
                    purpose: "sync",
                    overwrites: parent.overwrites,
                    reason: reason || undefined,
                  })
                }
              >
                Sync now
              </Button>
            )}
          </div>
          {!synced && <DisabledReason reason={modifyRefusal} className="mt-2" />}
        </Card>
      )}

      <Card>
        <CardHeader
          title="Private channel"
          description="Only the roles you choose (and administrators) can view a private channel."
        />
        <Switch
          id="channel-private"
          label="Private channel"
          description={isPrivate ? "@everyone can't view this channel." : "Everyone can view this channel."}
          checked={isPrivate ? !privateOpen : privateOpen}
          disabled={modifyRefusal !== null}
          reason={modifyRefusal}
          onChange={() => setPrivateOpen(!privateOpen)}
        />
        {privateOpen && !isPrivate && (
          <fieldset className="mt-3 flex flex-col gap-2">
            <legend className="text-sm font-medium">Who can view it</legend>
            <div className="flex flex-wrap gap-2">
              {roles
                .filter((r) => r.id !== everyoneId)
                .map((r) => (
                  <label key={r.id} className="flex items-center gap-2 rounded-md px-2 py-1 text-sm ring-1 ring-line">
                    <input
                      type="checkbox"
                      className="size-4 accent-blurple"
                      checked={privateRoles.includes(r.id) || canView(r.id)}
                      disabled={canView(r.id)}
                      onChange={(e) =>
                        setPrivateRoles(
                          e.target.checked ? [...privateRoles, r.id] : privateRoles.filter((x) => x !== r.id),
                        )
                      }
                    />
                    {r.name}
                  </label>
                ))}
            </div>
            <div className="flex gap-2">
              <Button pending={replace.pending} onClick={() => void setPrivacy("private")}>
                Make private
              </Button>
              <Button variant="ghost" onClick={() => setPrivateOpen(false)}>
                Cancel
              </Button>
            </div>
          </fieldset>
        )}
        {privateOpen && isPrivate && (
          <div className="mt-3 flex flex-wrap items-center gap-2">
            <p className="text-sm">@everyone will be able to view this channel again.</p>
            <Button pending={replace.pending} onClick={() => void setPrivacy("public")}>
              Make public
            </Button>
            <Button variant="ghost" onClick={() => setPrivateOpen(false)}>
              Cancel
            </Button>
          </div>
        )}
      </Card>

      <Card className="p-0 sm:p-0">
        <div className="flex flex-wrap items-center gap-3 border-b border-line p-4">
          <h2 className="text-base font-semibold">Advanced permissions</h2>
          <ReasonInput
            label="Reason (audit log)"
            value={reason}
            onChange={setReason}
            className="ml-auto h-9 max-w-64"
          />
        </div>
        {refusal && <DisabledReason reason={`Read-only: ${refusal}`} className="px-4 pt-3" />}
        <div className="grid md:grid-cols-[14rem_minmax(0,1fr)]">
          <div className="flex flex-col gap-3 border-b border-line p-3 md:border-b-0 md:border-r">
            <ul aria-label="Roles and members with overwrites" className="flex flex-col gap-0.5">
              {ordered.map((id) => {
                const o = listed.find((x) => x.id === id)!;
                return (
                  <li key={id}>
                    <button
                      type="button"
                      aria-current={selected === id ? "true" : undefined}
                      onClick={() => setSelected(id)}
                      className={cn(
                        "flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm hover:bg-surface-sunken",
                        selected === id && "bg-blurple/10 font-semibold",
                      )}
                    >
                      <span className="min-w-0 flex-1 truncate">
                        {o.type === 1 ? "@" : ""}
                        {nameOf(id)}
                      </span>
                      {dirty(id) && <Badge tone="blurple">unsaved</Badge>}
                    </button>
                  </li>
                );
              })}
              {ordered.length === 0 && <li className="px-2 py-1 text-sm text-ink-muted">No overwrites yet.</li>}
            </ul>
            {(
              [
                {
                  type: 0,
                  noun: "role",
                  options: roleOptions.map((r) => ({ id: r.id, name: r.id === everyoneId ? "@everyone" : r.name })),
                },
                { type: 1, noun: "member", options: memberOptions },
              ] as const
            ).map(({ type, noun, options }) => (
              <Select
                key={noun}
                aria-label={`Add a ${noun}`}
                value=""
                disabled={refusal !== null}
                onChange={(e) => addTarget(e.target.value, type)}
              >
                <option value="">{`Add a ${noun}…`}</option>
                {options.map((option) => (
                  <option key={option.id} value={option.id}>
                    {option.name}
                  </option>
                ))}
              </Select>
            ))}
          </div>

          <div className="min-w-0 p-3 sm:p-4">
            {selectedOverwrite ? (
              <fieldset
                disabled={refusal !== null}
                aria-label={`Permissions for ${nameOf(selectedOverwrite.id)}`}
                className="flex flex-col gap-4"
              >
                <div className="flex flex-wrap items-center gap-2">
                  <h3 className="min-w-0 flex-1 text-sm font-semibold">
                    Permissions for {nameOf(selectedOverwrite.id)}
                  </h3>
                  <Button
                    size="sm"
                    variant="ghost"
                    className="text-danger"
                    pending={remove.pending}
                    onClick={() => void removeOverwrite(selectedOverwrite.id)}
                  >
                    Remove overwrite
                  </Button>
                  <Button
                    size="sm"
                    disabled={!dirty(selectedOverwrite.id)}
                    pending={edit.pending}
                    onClick={() => void save(selectedOverwrite.id)}
                  >
                    Save permissions
                  </Button>
                </div>
                {groups.map((group) => (
                  <section key={group.id} aria-label={group.label}>
                    <h4 className="mb-1 text-xs font-bold uppercase tracking-wide text-ink-muted">{group.label}</h4>
                    <ul className="divide-y divide-line">
                      {group.permissions.map((p) => {
                        const d = draft(selectedOverwrite.id);
                        const state: State =
                          (d.allow & p.flag) !== 0n ? "allow" : (d.deny & p.flag) !== 0n ? "deny" : "inherit";
                        const locked = (allowed & p.flag) !== p.flag;
                        return (
                          <li key={p.key} className="flex flex-wrap items-start justify-between gap-3 py-2">
                            <span className="min-w-0 flex-1">
                              <span className="flex flex-wrap items-center gap-2 text-sm font-medium">
                                {p.label}
                                {p.dangerous && <Badge tone="warning">Elevated</Badge>}
                              </span>
                              <span className="block text-xs text-ink-muted">{p.description}</span>
                              {locked && (
                                <DisabledReason
                                  reason={`you don't have ${p.label} in this channel`}
                                  className="mt-0.5 flex"
                                />
                              )}
                            </span>
                            <TriState
                              label={p.label}
                              value={state}
                              disabled={locked}
                              onChange={(next) => setState(selectedOverwrite.id, p.flag, next)}
                            />
                          </li>
                        );
                      })}
                    </ul>
                  </section>
                ))}
              </fieldset>
            ) : (
              <p className="text-sm text-ink-muted">Pick a role or member, or add one, to set its permissions here.</p>
            )}
          </div>
        </div>
      </Card>
    </div>
  );
}

const STATES: ReadonlyArray<{ value: State; label: string; mark: string; on: string }> = [
  { value: "deny", label: "Deny", mark: "✕", on: "bg-danger text-white" },
  { value: "inherit", label: "Inherit", mark: "/", on: "bg-ink-muted/30" },
  { value: "allow", label: "Allow", mark: "✓", on: "bg-success text-white" },
];

/** Discord's three-way switch: deny, inherit (the role's own permissions decide), allow. */
function TriState({
  label,
  value,
  disabled,
  onChange,
}: {
  label: string;
  value: State;
  disabled: boolean;
  onChange: (value: State) => void;
}) {
  return (
    <div role="radiogroup" aria-label={label} className="flex shrink-0 overflow-hidden rounded-md ring-1 ring-line">
      {STATES.map((s) => (
        <label
          key={s.value}
          title={s.label}
          className={cn(
            "flex size-8 items-center justify-center text-sm has-[:focus-visible]:outline has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-blurple",
            value === s.value ? s.on : "text-ink-muted",
            disabled ? "cursor-not-allowed opacity-50" : "cursor-pointer hover:bg-surface-sunken",
          )}
        >
          <input
            type="radio"
            className="sr-only"
            name={`tri-${label}`}
            aria-label={s.label}
            checked={value === s.value}
            disabled={disabled}
            onChange={() => onChange(s.value)}
          />
          <span aria-hidden>{s.mark}</span>
        </label>
      ))}
    </div>
  );
}
