"use client";

// Pausing invites or DMs for a preset time (at most 24 hours), with a live countdown until the pause lifts and a
// button to lift it early. When a pause runs out the page is refreshed so it shows the server's state.
import { useEffect, useState } from "react";
import { useRouter } from "next/navigation";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { Icons } from "@/components/ui/icons";
import { useAction } from "@/components/dashboard/use-action";
import { useNow } from "@/components/dashboard/use-now";
import { formatCountdown } from "@/components/dashboard/durations";
import { modifyGuildIncidentActionsAction } from "@/lib/dashboard/actions/safety";
import {
  INCIDENT_ACTIONS,
  INCIDENT_PRESET_HOURS,
  type IncidentActionKey,
} from "@/lib/dashboard/actions/schemas/safety";
import { ReasonInput } from "@/components/dashboard/reason-input";
import { useLocale } from "@/components/ui/locale";
import { formatExactTime } from "@/components/ui/relative-time";

export function IncidentActions({
  guildId,
  serverNow,
  invitesDisabledUntil,
  dmsDisabledUntil,
  raidDetectedAt,
  dmSpamDetectedAt,
}: {
  guildId: string;
  serverNow: number;
  invitesDisabledUntil: string | null;
  dmsDisabledUntil: string | null;
  raidDetectedAt: string | null;
  dmSpamDetectedAt: string | null;
}) {
  const now = useNow(serverNow);
  const router = useRouter();
  const locale = useLocale();
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState<string | null>(null);
  const { run, pending } = useAction(modifyGuildIncidentActionsAction, { failure: "Couldn't change the pause" });
  const ends: Record<IncidentActionKey, number | null> = {
    invites: invitesDisabledUntil ? Date.parse(invitesDisabledUntil) : null,
    dms: dmsDisabledUntil ? Date.parse(dmsDisabledUntil) : null,
  };
  const nextEnd = Math.min(...Object.values(ends).filter((t): t is number => t !== null && t > serverNow));

  // When a pause lifts on its own, read the server's state again.
  useEffect(() => {
    if (!Number.isFinite(nextEnd)) return;
    const timer = setTimeout(() => router.refresh(), Math.max(0, nextEnd - Date.now()) + 1000);
    return () => clearTimeout(timer);
  }, [nextEnd, router]);

  const change = async (action: IncidentActionKey, hours: number) => {
    setBusy(`${action}:${hours}`);
    const result = await run({ guildId, action, hours, reason: reason || undefined });
    setBusy(null);
    if (result.ok) setReason("");
  };

  return (
    <Card>
      <CardHeader
        title="Incident actions"
        description="During a raid or a spam wave, pause invites or DMs for a while. Each pause lifts on its own after at most 24 hours."
      />
      {(raidDetectedAt || dmSpamDetectedAt) && (
        <p
          role="alert"
          className="mb-4 flex items-center gap-2 rounded-md border border-danger/40 bg-danger/10 p-3 text-sm"
        >
          <Icons.alert className="size-4 shrink-0" />
          {raidDetectedAt && `Raid detected ${formatExactTime(Date.parse(raidDetectedAt), locale)}. `}
          {dmSpamDetectedAt && `DM spam detected ${formatExactTime(Date.parse(dmSpamDetectedAt), locale)}.`}
        </p>
      )}
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        {INCIDENT_ACTIONS.map((action) => {
          const end = ends[action.key];
          const active = end !== null && end > now;
          return (
            <section
              key={action.key}
              aria-label={action.label}
              className="flex flex-col gap-3 rounded-lg bg-surface-sunken/60 p-4 ring-1 ring-line"
            >
              <div className="flex flex-wrap items-center justify-between gap-2">
                <h3 className="font-medium">{action.label}</h3>
                {active ? <Badge tone="warning">Paused</Badge> : <Badge tone="success">Not paused</Badge>}
              </div>
              <p className="text-xs text-ink-muted">{action.description}</p>
              {active ? (
                <p className="text-sm" role="timer" aria-live="off" data-testid={`${action.key}-countdown`}>
                  {action.paused} for{" "}
                  <span className="font-mono font-semibold tabular-nums">{formatCountdown(end - now)}</span> more, until{" "}
                  {formatExactTime(end, locale)}.
                </p>
              ) : (
                <p className="text-sm text-ink-muted">Pause for:</p>
              )}
              <div className="flex flex-wrap gap-2">
                {INCIDENT_PRESET_HOURS.map((hours) => (
                  <Button
                    key={hours}
                    size="sm"
                    variant="secondary"
                    pending={busy === `${action.key}:${hours}`}
                    disabled={pending}
                    onClick={() => change(action.key, hours)}
                  >
                    {/* The visible words are part of the name (WCAG 2.5.3): "Pause invites for 6 hours". */}
                    <span className="sr-only">{action.label} for </span>
                    {`${hours} hour${hours === 1 ? "" : "s"}`}
                    {active ? " from now" : ""}
                  </Button>
                ))}
                {active && (
                  <Button
                    size="sm"
                    variant="danger"
                    pending={busy === `${action.key}:0`}
                    disabled={pending}
                    onClick={() => change(action.key, 0)}
                  >
                    Lift now
                  </Button>
                )}
              </div>
            </section>
          );
        })}
      </div>
      <ReasonInput
        label="Reason for the pause (audit history)"
        placeholder="Reason (optional, kept in the audit history)"
        value={reason}
        onChange={setReason}
        className="mt-4 max-w-md"
      />
    </Card>
  );
}
