"use client";

// What the raid filter found: how many of the window's members match, the list (joined, account created), and the
// bulk action for all of them (ban, kick, or a day's timeout) with a reason. Review prepares the job, whose page
// checks every member against the moderator's rank before anything is sent.
import { useState } from "react";
import { Avatar } from "@/components/ui/avatar";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/input";
import { useNavigateAway } from "@/components/dashboard/unsaved-changes";
import { Badge } from "@/components/ui/badge";
import { useAction } from "@/components/dashboard/use-action";
import { useLocale } from "@/components/ui/locale";
import { formatExactTime } from "@/components/ui/relative-time";
import { prepareMemberJobAction } from "@/lib/dashboard/actions/member-jobs";
import type { RaidMatch } from "@/lib/dashboard/data/raid";
import { plural } from "@/lib/dashboard/plural";
import { AUDIT_LOG_REASON_MAX } from "@/lib/discord/limits";

const ACTIONS = [
  { value: "ban", label: "Ban" },
  { value: "kick", label: "Kick" },
  { value: "timeout", label: "Time out for a day" },
] as const;

export function RaidResults({
  guildId,
  matches,
  scanned,
  truncated,
}: {
  guildId: string;
  matches: RaidMatch[];
  scanned: number;
  truncated: number | null;
}) {
  const locale = useLocale();
  const navigateAway = useNavigateAway();
  const [action, setAction] = useState<(typeof ACTIONS)[number]["value"]>("ban");
  const [reason, setReason] = useState("Raid cleanup");
  const prepare = useAction(prepareMemberJobAction, { failure: "Couldn't prepare the bulk action" });
  return (
    <section aria-label="Raid members" className="flex flex-col gap-4">
      <p role="status" className="text-sm">
        <strong>{plural(matches.length, "member")}</strong> match, of {plural(scanned, "member")} who joined in the
        window.
        {truncated !== null &&
          ` The window holds more than ${truncated.toLocaleString(locale)}: narrow it to see the rest.`}
      </p>
      {matches.length > 0 && (
        <div className="flex flex-wrap items-end gap-2 rounded-lg bg-blurple/5 p-3 ring-1 ring-blurple/30">
          <label className="flex flex-col gap-1 text-sm font-medium">
            Action
            <Select value={action} onChange={(e) => setAction(e.target.value as typeof action)}>
              {ACTIONS.map((a) => (
                <option key={a.value} value={a.value}>
                  {a.label}
                </option>
              ))}
            </Select>
          </label>
          <label className="flex flex-1 flex-col gap-1 text-sm font-medium">
            Reason
            <Input value={reason} maxLength={AUDIT_LOG_REASON_MAX} onChange={(e) => setReason(e.target.value)} />
          </label>
          <Button
            pending={prepare.pending}
            onClick={async () => {
              const result = await prepare.run({
                guildId,
                action,
                reason: reason.trim() || undefined,
                userIds: matches.map((m) => m.id),
                protectBots: true,
                ...(action === "timeout" ? { until: new Date(Date.now() + 86_400_000).toISOString() } : {}),
              });
              if (result.ok) navigateAway(result.data.href);
            }}
          >
            Review {plural(matches.length, "member")}
          </Button>
        </div>
      )}
      <ol className="flex flex-col divide-y divide-line rounded-lg ring-1 ring-line" aria-label="Matching members">
        {matches.slice(0, 500).map((m) => (
          <li key={m.id} className="flex items-center gap-3 p-2 text-sm" data-member-id={m.id}>
            <Avatar src={m.avatarUrl} name={m.displayName} id={m.id} size={28} />
            <span className="min-w-0 flex-1">
              <span className="block truncate font-medium">
                {m.displayName}
                {m.bot && (
                  <Badge tone="neutral" className="ml-1" title="Bots are left out of the action">
                    Bot
                  </Badge>
                )}
              </span>
              <span className="block truncate text-xs text-ink-muted">@{m.username}</span>
            </span>
            <span className="text-xs text-ink-muted">
              joined {formatExactTime(Date.parse(m.joinedAt), locale)} · account{" "}
              {formatExactTime(Date.parse(m.createdAt), locale)}
            </span>
          </li>
        ))}
      </ol>
      {matches.length > 500 && (
        <p className="text-sm text-ink-muted">The first 500 are listed; the action takes all.</p>
      )}
    </section>
  );
}
