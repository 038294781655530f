"use client";

// One member, in a dialog opened from the table (?member=<id>): nickname, roles, timeout (presets up to 28 days or a
// custom time), voice controls when they are connected, the verification bypass flag, kick and ban with a reason.
// Every control the moderator cannot use is disabled with the reason.
import { useState, type ReactNode } from "react";
import { useRouter } from "next/navigation";
import { Avatar } from "@/components/ui/avatar";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { DisabledReason } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { Input, Select } from "@/components/ui/input";
import { useAction } from "@/components/dashboard/use-action";
import { useUrlState } from "@/components/data-table/url-state";
import {
  banMemberAction,
  kickMemberAction,
  setMemberBypassesVerificationAction,
  setMemberNicknameAction,
  setMemberRolesAction,
  setMemberTimeoutAction,
  setMemberVoiceAction,
} from "@/lib/dashboard/actions/members";
import { DELETE_MESSAGE_OPTIONS, TIMEOUT_PRESETS } from "@/lib/dashboard/actions/schemas/members";
import { colorToHex } from "@/lib/dashboard/actions/schemas/roles";
import type { FieldErrors } from "@/lib/dashboard/actions/action-client";
import { NICK_MAX, TIMEOUT_MAX_MS } from "@/lib/discord/limits";
import type { MemberDetail } from "@/lib/dashboard/data/members";
import type { RoleChip } from "./members-table";
import { ReasonInput } from "@/components/dashboard/reason-input";

export interface PanelPermissions {
  nick: string | null;
  roles: string | null;
  timeout: string | null;
  mute: string | null;
  deafen: string | null;
  move: string | null;
  flags: string | null;
  kick: string | null;
  ban: string | null;
}

const dateTime = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

function Section({ title, reason, children }: { title: string; reason?: string | null; children: ReactNode }) {
  return (
    <section aria-label={title} className="border-b border-line py-4 first:pt-0 last:border-0">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-sm font-semibold">{title}</h3>
        <DisabledReason reason={reason} />
      </div>
      {children}
    </section>
  );
}

function Errors({ errors }: { errors: FieldErrors | null }) {
  if (!errors) return null;
  const messages = Object.entries(errors).map(([path, list]) => `${path ? `${path}: ` : ""}${list.join(" ")}`);
  if (messages.length === 0) return null;
  return (
    <p role="alert" className="mt-1 text-xs font-medium text-danger">
      {messages.join(" ")}
    </p>
  );
}

export function MemberPanel({
  guildId,
  detail,
  roles,
  voiceChannels,
  perms,
}: {
  guildId: string;
  detail: MemberDetail | null;
  roles: RoleChip[];
  voiceChannels: Array<{ id: string; name: string }>;
  perms: PanelPermissions;
}) {
  const router = useRouter();
  const { hrefWith } = useUrlState();
  const close = () => router.push(hrefWith({ member: null }), { scroll: false });

  if (!detail) {
    return (
      <Dialog open onClose={close} title="Member not found" size="sm">
        <p className="text-sm text-ink-muted">This person is no longer a member of the server.</p>
      </Dialog>
    );
  }
  const m = detail.row;
  return (
    <Dialog
      open
      onClose={close}
      size="lg"
      title={
        <span className="flex items-center gap-3">
          <Avatar src={m.avatarUrl} name={m.displayName} id={m.id} size={40} />
          <span className="min-w-0">
            <span className="block truncate">{m.displayName}</span>
            <span className="block truncate text-sm font-normal text-ink-muted">
              @{m.username} · {m.id}
            </span>
          </span>
        </span>
      }
      description={
        <span className="flex flex-wrap gap-2">
          {m.joinedAt && <span>Joined {dateTime.format(new Date(m.joinedAt))} UTC</span>}
          {m.timeoutUntil && (
            <Badge tone="danger">Timed out until {dateTime.format(new Date(m.timeoutUntil))} UTC</Badge>
          )}
          {m.bot && <Badge tone="blurple">Bot</Badge>}
        </span>
      }
    >
      <PanelBody
        key={`${m.id}:${m.nick}:${m.roles.join()}:${m.timeoutUntil}:${m.mute}:${m.deaf}:${m.flags}`}
        guildId={guildId}
        detail={detail}
        roles={roles}
        voiceChannels={voiceChannels}
        perms={perms}
        onRemoved={close}
      />
    </Dialog>
  );
}

function PanelBody({
  guildId,
  detail,
  roles,
  voiceChannels,
  perms,
  onRemoved,
}: {
  guildId: string;
  detail: MemberDetail;
  roles: RoleChip[];
  voiceChannels: Array<{ id: string; name: string }>;
  perms: PanelPermissions;
  onRemoved: () => void;
}) {
  const m = detail.row;
  const base = { guildId, userId: m.id, userName: m.displayName };
  const [errors, setErrors] = useState<Record<string, FieldErrors | null>>({});
  const track = (key: string) => (result: { ok: boolean; fieldErrors?: FieldErrors }) => {
    setErrors((all) => ({ ...all, [key]: result.ok ? null : (result.fieldErrors ?? null) }));
    return result;
  };

  // Nickname
  const [nick, setNick] = useState(m.nick ?? "");
  const nickAction = useAction(setMemberNicknameAction, { failure: "Couldn't change the nickname" });
  // Roles
  const [memberRoles, setMemberRolesState] = useState<string[]>(m.roles);
  const rolesAction = useAction(setMemberRolesAction, { failure: "Couldn't change the roles" });
  const rolesChanged = memberRoles.slice().sort().join() !== m.roles.slice().sort().join();
  // Timeout
  const [preset, setPreset] = useState<number | "custom">(TIMEOUT_PRESETS[1].ms);
  const [custom, setCustom] = useState("");
  const [timeoutReason, setTimeoutReason] = useState("");
  const timeoutAction = useAction(setMemberTimeoutAction, { failure: "Couldn't change the timeout" });
  // Voice
  const voiceAction = useAction(setMemberVoiceAction, { failure: "Couldn't change the voice state" });
  const [moveTo, setMoveTo] = useState("");
  // Flags
  const flagsAction = useAction(setMemberBypassesVerificationAction, {
    failure: "Couldn't change the verification bypass",
  });
  const bypasses = (m.flags & 4) !== 0;
  // Kick and ban
  const [confirm, setConfirm] = useState<"kick" | "ban" | null>(null);
  const [removalReason, setRemovalReason] = useState("");
  const [deleteSeconds, setDeleteSeconds] = useState(0);
  const kickAction = useAction(kickMemberAction, { failure: "Couldn't kick the member" });
  const banAction = useAction(banMemberAction, { failure: "Couldn't ban the member" });

  const until = () => {
    if (preset !== "custom") return new Date(Date.now() + preset).toISOString();
    const at = custom ? new Date(custom) : null;
    return at && !Number.isNaN(at.getTime()) ? at.toISOString() : "";
  };
  // Only bounds the date picker: reading the clock while rendering is harmless here.
  // eslint-disable-next-line react-hooks/purity
  const maxCustom = new Date(Date.now() + TIMEOUT_MAX_MS - 60_000);
  const localMax = new Date(maxCustom.getTime() - maxCustom.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
  const inVoice = detail.voice.channelId;
  const voiceChannelName = inVoice ? (voiceChannels.find((c) => c.id === inVoice)?.name ?? inVoice) : null;

  return (
    <div className="flex flex-col">
      <Section title="Nickname" reason={perms.nick}>
        <form
          className="flex flex-wrap gap-2"
          onSubmit={async (e) => {
            e.preventDefault();
            track("nick")(await nickAction.run({ ...base, nick }));
          }}
        >
          <Input
            aria-label="Nickname"
            value={nick}
            onChange={(e) => setNick(e.target.value)}
            placeholder={m.username}
            maxLength={NICK_MAX + 10}
            disabled={Boolean(perms.nick)}
            className="max-w-xs flex-1"
            aria-invalid={Boolean(errors.nick) || undefined}
          />
          <Button
            type="submit"
            variant="secondary"
            pending={nickAction.pending}
            disabled={Boolean(perms.nick) || nick === (m.nick ?? "")}
          >
            {nick ? "Save nickname" : "Clear nickname"}
          </Button>
        </form>
        <Errors errors={errors.nick ?? null} />
      </Section>

      <Section title="Roles" reason={perms.roles}>
        <ul className="grid gap-1 sm:grid-cols-2" aria-label="Roles">
          {roles.map((role) => {
            const locked = perms.roles ?? role.lockedReason;
            return (
              <li key={role.id}>
                <label
                  className={`flex items-start gap-2 rounded-md px-2 py-1.5 text-sm ${locked ? "cursor-not-allowed opacity-70" : "cursor-pointer hover:bg-surface-sunken"}`}
                >
                  <input
                    type="checkbox"
                    className="mt-0.5 size-4 accent-blurple"
                    checked={memberRoles.includes(role.id)}
                    disabled={Boolean(locked)}
                    onChange={(e) =>
                      setMemberRolesState((all) =>
                        e.target.checked ? [...all, role.id] : all.filter((id) => id !== role.id),
                      )
                    }
                  />
                  <span className="min-w-0">
                    <span className="flex items-center gap-1.5">
                      <span
                        aria-hidden
                        className="size-2.5 rounded-full"
                        style={{ background: role.color ? colorToHex(role.color) : "#99aab5" }}
                      />
                      {role.name}
                    </span>
                    {role.lockedReason && !perms.roles && (
                      <DisabledReason reason={role.lockedReason} className="flex" />
                    )}
                  </span>
                </label>
              </li>
            );
          })}
        </ul>
        {rolesChanged && (
          <div className="mt-2 flex gap-2">
            <Button
              size="sm"
              pending={rolesAction.pending}
              onClick={async () => track("roles")(await rolesAction.run({ ...base, roles: memberRoles }))}
            >
              Save roles
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setMemberRolesState(m.roles)}>
              Reset
            </Button>
          </div>
        )}
        <Errors errors={errors.roles ?? null} />
      </Section>

      <Section title="Timeout" reason={perms.timeout}>
        {m.timeoutUntil ? (
          <div className="flex flex-wrap items-center gap-3">
            <p className="text-sm">
              Timed out until <strong>{dateTime.format(new Date(m.timeoutUntil))} UTC</strong>.
            </p>
            <ReasonInput
              label="Reason for removing the timeout"
              value={timeoutReason}
              onChange={setTimeoutReason}
              className="h-9 max-w-56"
              disabled={Boolean(perms.timeout)}
            />
            <Button
              variant="secondary"
              pending={timeoutAction.pending}
              disabled={Boolean(perms.timeout)}
              onClick={async () =>
                track("timeout")(await timeoutAction.run({ ...base, until: null, reason: timeoutReason || undefined }))
              }
            >
              Remove timeout
            </Button>
          </div>
        ) : (
          <form
            className="flex flex-col gap-3"
            onSubmit={async (e) => {
              e.preventDefault();
              track("timeout")(
                await timeoutAction.run({ ...base, until: until(), reason: timeoutReason || undefined }),
              );
            }}
          >
            <fieldset disabled={Boolean(perms.timeout)} className="flex flex-wrap gap-1.5">
              <legend className="sr-only">Duration</legend>
              {TIMEOUT_PRESETS.map((p) => (
                <label
                  key={p.ms}
                  className="cursor-pointer rounded-full px-3 py-1 text-xs ring-1 ring-line has-[:checked]:bg-blurple has-[:checked]:text-white has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-blurple"
                >
                  <input
                    type="radio"
                    name="timeout-preset"
                    className="sr-only"
                    checked={preset === p.ms}
                    onChange={() => setPreset(p.ms)}
                  />
                  {p.label}
                </label>
              ))}
              <label className="cursor-pointer rounded-full px-3 py-1 text-xs ring-1 ring-line has-[:checked]:bg-blurple has-[:checked]:text-white has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-blurple">
                <input
                  type="radio"
                  name="timeout-preset"
                  className="sr-only"
                  checked={preset === "custom"}
                  onChange={() => setPreset("custom")}
                />
                Custom
              </label>
            </fieldset>
            {preset === "custom" && (
              <label className="flex flex-col gap-1 text-sm">
                Until (your local time, at most 28 days from now)
                <Input
                  type="datetime-local"
                  value={custom}
                  max={localMax}
                  onChange={(e) => setCustom(e.target.value)}
                  className="max-w-xs"
                  disabled={Boolean(perms.timeout)}
                />
              </label>
            )}
            <div className="flex flex-wrap gap-2">
              <ReasonInput
                label="Reason for the timeout"
                value={timeoutReason}
                onChange={setTimeoutReason}
                className="h-10 max-w-xs flex-1"
                disabled={Boolean(perms.timeout)}
              />
              <Button
                type="submit"
                variant="secondary"
                pending={timeoutAction.pending}
                disabled={Boolean(perms.timeout)}
              >
                Time out
              </Button>
            </div>
          </form>
        )}
        <Errors errors={errors.timeout ?? null} />
      </Section>

      <Section title="Voice">
        {inVoice === null ? (
          <p className="text-sm text-ink-muted">Not in a voice channel.</p>
        ) : (
          <div className="flex flex-col gap-3">
            <p className="text-sm">
              {voiceChannelName ? (
                <>
                  Connected to <strong>{voiceChannelName}</strong>.
                </>
              ) : (
                <span className="text-ink-muted">
                  Voice state unknown: changes apply only while they are connected.
                </span>
              )}
            </p>
            <div className="flex flex-wrap items-center gap-2">
              <Button
                size="sm"
                variant="secondary"
                pending={voiceAction.pending}
                disabled={Boolean(perms.mute)}
                title={perms.mute ?? undefined}
                onClick={async () => track("voice")(await voiceAction.run({ ...base, mute: !m.mute }))}
              >
                {m.mute ? "Unmute" : "Server mute"}
              </Button>
              <Button
                size="sm"
                variant="secondary"
                pending={voiceAction.pending}
                disabled={Boolean(perms.deafen)}
                title={perms.deafen ?? undefined}
                onClick={async () => track("voice")(await voiceAction.run({ ...base, deaf: !m.deaf }))}
              >
                {m.deaf ? "Undeafen" : "Server deafen"}
              </Button>
              <Select
                aria-label="Move to channel"
                value={moveTo}
                onChange={(e) => setMoveTo(e.target.value)}
                disabled={Boolean(perms.move)}
                className="h-8 w-44 py-0 text-xs"
              >
                <option value="">Move to…</option>
                {voiceChannels
                  .filter((c) => c.id !== inVoice)
                  .map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.name}
                    </option>
                  ))}
              </Select>
              <Button
                size="sm"
                variant="secondary"
                disabled={Boolean(perms.move) || !moveTo}
                onClick={async () => track("voice")(await voiceAction.run({ ...base, channel_id: moveTo }))}
              >
                Move
              </Button>
              <Button
                size="sm"
                variant="ghost"
                className="text-danger"
                disabled={Boolean(perms.move)}
                onClick={async () => track("voice")(await voiceAction.run({ ...base, channel_id: null }))}
              >
                Disconnect
              </Button>
            </div>
            <span className="flex flex-wrap gap-3">
              <DisabledReason reason={perms.mute && `Mute: ${perms.mute}`} />
              <DisabledReason reason={perms.deafen && `Deafen: ${perms.deafen}`} />
              <DisabledReason reason={perms.move && `Move: ${perms.move}`} />
            </span>
          </div>
        )}
        <Errors errors={errors.voice ?? null} />
      </Section>

      <Section title="Verification" reason={perms.flags}>
        <label className="flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            className="mt-0.5 size-4 accent-blurple"
            checked={bypasses}
            disabled={Boolean(perms.flags) || flagsAction.pending}
            onChange={async (e) =>
              track("flags")(await flagsAction.run({ ...base, bypassesVerification: e.target.checked }))
            }
          />
          <span>
            Bypasses verification <span className="font-mono text-[11px] text-ink-muted">BYPASSES_VERIFICATION</span>
            <span className="block text-xs text-ink-muted">
              Exempts this member from the server&apos;s verification level.
            </span>
          </span>
        </label>
        <Errors errors={errors.flags ?? null} />
      </Section>

      <Section title="Remove from server">
        <div className="flex flex-wrap gap-2">
          <span className="flex flex-col gap-1">
            <Button
              variant="danger"
              size="sm"
              disabled={Boolean(perms.kick)}
              onClick={() => setConfirm("kick")}
              aria-expanded={confirm === "kick"}
            >
              Kick
            </Button>
            <DisabledReason reason={perms.kick} />
          </span>
          <span className="flex flex-col gap-1">
            <Button
              variant="danger"
              size="sm"
              disabled={Boolean(perms.ban)}
              onClick={() => setConfirm("ban")}
              aria-expanded={confirm === "ban"}
            >
              Ban
            </Button>
            <DisabledReason reason={perms.ban} />
          </span>
        </div>
        {confirm && (
          <form
            className="mt-3 flex flex-col gap-3 rounded-lg border border-danger/40 bg-danger/5 p-3"
            aria-label={confirm === "kick" ? "Confirm kick" : "Confirm ban"}
            onSubmit={async (e) => {
              e.preventDefault();
              const result =
                confirm === "kick"
                  ? await kickAction.run({ ...base, reason: removalReason || undefined })
                  : await banAction.run({
                      ...base,
                      reason: removalReason || undefined,
                      delete_message_seconds: deleteSeconds,
                    });
              track("remove")(result);
              if (result.ok) onRemoved();
            }}
          >
            <p className="text-sm">
              {confirm === "kick"
                ? `Kick ${m.displayName}? They can rejoin with an invite.`
                : `Ban ${m.displayName}? They can't rejoin until unbanned.`}
            </p>
            <label className="flex flex-col gap-1 text-sm font-medium">
              Reason
              <Input
                value={removalReason}
                onChange={(e) => setRemovalReason(e.target.value)}
                maxLength={512}
                placeholder="Recorded in the audit log"
                autoFocus
              />
            </label>
            {confirm === "ban" && (
              <label className="flex flex-col gap-1 text-sm font-medium">
                Delete message history
                <Select
                  value={deleteSeconds}
                  onChange={(e) => setDeleteSeconds(Number(e.target.value))}
                  className="max-w-xs"
                >
                  {DELETE_MESSAGE_OPTIONS.map((o) => (
                    <option key={o.seconds} value={o.seconds}>
                      {o.label}
                    </option>
                  ))}
                </Select>
              </label>
            )}
            <div className="flex gap-2">
              <Button type="submit" variant="danger" pending={kickAction.pending || banAction.pending}>
                {confirm === "kick" ? "Kick member" : "Ban member"}
              </Button>
              <Button variant="ghost" onClick={() => setConfirm(null)}>
                Cancel
              </Button>
            </div>
            <Errors errors={errors.remove ?? null} />
          </form>
        )}
      </Section>
    </div>
  );
}
