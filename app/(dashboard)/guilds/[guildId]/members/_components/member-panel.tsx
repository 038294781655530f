"use client";

// One member, in a dialog opened from the table (?member=<id>): a react-hook-form form per concern (nickname, roles,
// timeout, kick or ban; member-panel/), voice controls and the verification bypass. Every control the moderator
// cannot use is disabled with the reason. Unsaved edits are reported to the dashboard's one unsaved-changes guard
// (through the Dialog's `dirty`): closing the panel, the browser's Back button, an in-app link and reloading all ask
// "Discard changes?" first; once closed, by any of these, focus returns to the member's row.
import { useCallback, useEffect, useMemo, useState } from "react";
import { Avatar } from "@/components/ui/avatar";
import { Badge } from "@/components/ui/badge";
import { Dialog } from "@/components/ui/dialog";
import { useUrlState } from "@/components/data-table/url-state";
import type { MemberDetail } from "@/lib/dashboard/data/members";
import type { RoleChip } from "./members-table";
import { CasesSection, type MemberCases } from "./member-panel/cases-section";
import { NicknameForm } from "./member-panel/nickname-form";
import { RemovalForm } from "./member-panel/removal-form";
import { RolesForm } from "./member-panel/roles-form";
import { TimeoutForm } from "./member-panel/timeout-form";
import { useDirtyForms } from "./member-panel/use-dirty-forms";
import { VerificationToggle } from "./member-panel/verification-toggle";
import { VoiceControls } from "./member-panel/voice-controls";
import { formatExactTime } from "@/components/ui/relative-time";
import { useLocale } from "@/components/ui/locale";
import { useNavigateAway } from "@/components/dashboard/unsaved-changes";
import { GuildMemberFlags, hasMemberFlag } from "@/lib/discord/member-flags";

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
  /** Warn and Add note: what a timeout takes (Moderate Members, a place above them). */
  warn: string | null;
}

/** Focus the row that opened the panel (its member link). */
const focusRow = (userId: string) =>
  requestAnimationFrame(() =>
    document.querySelector<HTMLElement>(`[data-member-link="${CSS.escape(userId)}"]`)?.focus(),
  );

export function MemberPanel({
  guildId,
  detail,
  roles,
  voiceChannels,
  perms,
  memberCases,
}: {
  guildId: string;
  detail: MemberDetail | null;
  roles: RoleChip[];
  voiceChannels: Array<{ id: string; name: string }>;
  perms: PanelPermissions;
  /** The member's cases, when the moderator may see the Cases section. */
  memberCases: MemberCases | null;
}) {
  const navigateAway = useNavigateAway();
  const locale = useLocale();
  const { hrefWith } = useUrlState();
  const { anyDirty, reporter } = useDirtyForms();
  // Closed at once (the table's page is still there underneath), while the URL without ?member loads.
  const [closed, setClosed] = useState(false);
  const closeHref = hrefWith({ member: null });
  const userId = detail?.row.id ?? "";
  const go = useCallback(
    (href: string) => {
      if (href === closeHref) {
        setClosed(true);
        focusRow(userId);
      }
      navigateAway(href, { scroll: false });
    },
    [navigateAway, closeHref, userId],
  );
  // One stable callback per form: a new one each render would re-run the forms' report effects in a loop.
  const report = useMemo(
    () => ({
      nick: reporter("nick"),
      roles: reporter("roles"),
      timeout: reporter("timeout"),
      removal: reporter("removal"),
      cases: reporter("cases"),
    }),
    [reporter],
  );
  // Also when the panel goes away otherwise (Back, once the guard let it): focus returns to the row.
  useEffect(() => () => void focusRow(userId), [userId]);

  if (!detail) {
    return (
      <Dialog open={!closed} onClose={() => !closed && go(closeHref)} title="Member not found" size="sm">
        <p className="text-sm text-ink-muted">This person is no longer a member of the server.</p>
      </Dialog>
    );
  }
  const m = detail.row;
  const quarantined = hasMemberFlag(m.flags, GuildMemberFlags.AutomodQuarantinedUsernameOrGuildNickname);
  const base = { guildId, userId: m.id, userName: m.displayName };
  return (
    <>
      <Dialog
        open={!closed}
        // The Dialog asks "Discard changes?" before calling onClose while `dirty`. Closing it ourselves fires the
        // dialog's close event too: that one asks nothing.
        dirty={anyDirty}
        onClose={() => !closed && go(closeHref)}
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
            {m.joinedAt && <span>Joined {formatExactTime(Date.parse(m.joinedAt), locale)}</span>}
            {m.timeoutUntil && (
              <Badge tone="danger">Timed out until {formatExactTime(Date.parse(m.timeoutUntil), locale)}</Badge>
            )}
            {m.bot && <Badge tone="blurple">Bot</Badge>}
            {quarantined && <Badge tone="warning">Blocked by AutoMod</Badge>}
          </span>
        }
      >
        {quarantined && (
          <p
            role="note"
            data-testid="automod-quarantine-notice"
            className="mb-4 rounded-md bg-warning/15 px-3 py-2 text-sm ring-1 ring-inset ring-warning/40"
          >
            <span className="font-semibold">Blocked by AutoMod: name matched a member-profile rule.</span> They
            can&apos;t send messages, react or join voice until their name no longer matches: a nickname that passes the
            rule lifts the block.
          </p>
        )}
        {/* Each form is remounted when what it edits changes (after its save), so it starts from what was saved; only
            that form: another form's unsaved edits (roles ticked, a nickname typed) survive a save beside them and
            stay under the unsaved-changes guard. */}
        <div className="flex flex-col" key={m.id}>
          <NicknameForm
            key={`nick:${m.nick}`}
            {...base}
            nick={m.nick}
            username={m.username}
            blocked={perms.nick}
            onDirtyChange={report.nick}
          />
          <RolesForm
            key={`roles:${m.roles.join()}`}
            {...base}
            current={m.roles}
            roles={roles}
            blocked={perms.roles}
            onDirtyChange={report.roles}
          />
          <TimeoutForm
            key={`timeout:${m.timeoutUntil}`}
            {...base}
            timeoutUntil={m.timeoutUntil}
            blocked={perms.timeout}
            onDirtyChange={report.timeout}
          />
          <VoiceControls
            key={`voice:${m.mute}:${m.deaf}`}
            {...base}
            channelId={detail.voice.channelId}
            mute={m.mute}
            deaf={m.deaf}
            voiceChannels={voiceChannels}
            perms={{ mute: perms.mute, deafen: perms.deafen, move: perms.move }}
          />
          <VerificationToggle key={`flags:${m.flags}`} {...base} flags={m.flags} blocked={perms.flags} />
          <CasesSection
            key={`cases:${memberCases?.cases[0]?.number ?? 0}`}
            {...base}
            memberCases={memberCases}
            warnBlocked={perms.warn}
            blocked={memberCases ? null : "needs Ban, Kick or Moderate Members, or View Audit Log to see cases"}
            onDirtyChange={report.cases}
          />
          <RemovalForm
            {...base}
            kickBlocked={perms.kick}
            banBlocked={perms.ban}
            onRemoved={() => go(closeHref)}
            onDirtyChange={report.removal}
          />
        </div>
      </Dialog>
    </>
  );
}
