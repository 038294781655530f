"use client";

// Running a prune on one preview: what it will do, how long the preview stays valid, the compute_prune_count choice,
// the count typed back and a reason. The server checks the same rule (pruneRunProblem) again before calling the API.
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { Field, fieldProps } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Switch } from "@/components/ui/switch";
import { formatNumber, useLocale } from "@/components/ui/locale";
import { useAction } from "@/components/dashboard/use-action";
import { formatCountdown } from "@/components/dashboard/durations";
import { beginPruneAction } from "@/lib/dashboard/actions/prune";
import {
  previewState,
  pruneRunProblem,
  roleKey,
  type PruneParameters,
  type PrunePreviewView,
} from "@/lib/dashboard/actions/schemas/prune";
import { ReasonField } from "@/components/dashboard/reason-input";

const plural = (n: number, locale: string) => `${formatNumber(n, locale)} member${n === 1 ? "" : "s"}`;

export function describeRule(days: number, roleIds: readonly string[], roleName: (id: string) => string): string {
  const roles = roleIds.length === 0 ? "with no roles" : `with no roles, or only ${roleIds.map(roleName).join(", ")}`;
  return `inactive for ${days} day${days === 1 ? "" : "s"} or more, ${roles}`;
}

export function PruneRunCard({
  guildId,
  preview,
  parameters,
  roleName,
  now,
  memberCount,
  largeGuild,
  stale,
  onRerun,
  rerunPending,
}: {
  guildId: string;
  preview: PrunePreviewView;
  parameters: PruneParameters;
  roleName: (id: string) => string;
  now: number;
  memberCount: number | null;
  largeGuild: boolean;
  /** Why the preview no longer describes the server; empty while it does. */
  stale: string[];
  onRerun: () => void;
  rerunPending: boolean;
}) {
  const locale = useLocale();
  const [confirmation, setConfirmation] = useState("");
  const [reason, setReason] = useState("");
  const [computeCount, setComputeCount] = useState(!largeGuild);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const { run, pending } = useAction(beginPruneAction, { failure: "The prune did not run" });

  const state = previewState(preview, now);
  const parametersChanged =
    preview.days !== parameters.days || roleKey(preview.roleIds) !== roleKey(parameters.includeRoles);
  const problem = pruneRunProblem(preview, { ...parameters, confirmation }, now);
  const blocking =
    problem && problem.field !== "confirmation"
      ? problem.message
      : stale.length
        ? `This preview is out of date: ${stale.join("; ")}.`
        : null;
  const confirmationOk = confirmation.trim() === String(preview.count);
  const title = `${plural(preview.count, locale)} would be removed`;

  const onRun = async () => {
    setFieldErrors({});
    const result = await run({
      guildId,
      previewId: preview.id,
      days: parameters.days,
      includeRoles: parameters.includeRoles,
      computePruneCount: computeCount,
      confirmation,
      reason,
    });
    if (!result.ok) setFieldErrors(result.fieldErrors);
  };

  if (preview.runStatus !== null) {
    return (
      <Card>
        <CardHeader
          title={preview.runStatus === "error" ? "The prune failed" : "Prune finished"}
          description={describeRule(preview.days, preview.roleIds, roleName)}
        />
        <p role="status" className={preview.runStatus === "error" ? "text-sm text-danger" : "text-sm"}>
          {preview.runStatus === "running"
            ? "The prune is running."
            : preview.runStatus === "error"
              ? `The prune request failed: ${preview.runError ?? "unknown error"}. If it reached the server some members may be gone; preview again to see where things stand.`
              : preview.pruned === null
                ? `The prune ran without counting; the preview had found ${plural(preview.count, locale)}.`
                : `Pruned ${plural(preview.pruned, locale)}${preview.pruned === preview.count ? ", as the preview said." : `; the preview had found ${formatNumber(preview.count, locale)}.`}`}
        </p>
      </Card>
    );
  }

  return (
    <Card className="ring-danger/40">
      <CardHeader
        title={title}
        description={`Members ${describeRule(preview.days, preview.roleIds, roleName)}.`}
        actions={
          <span className="rounded-md bg-surface-sunken px-2 py-1 font-mono text-xs" aria-live="off">
            {state.kind === "fresh" ? `valid for ${formatCountdown(state.expiresAt - now)}` : "expired"}
          </span>
        }
      />
      <div className="flex flex-col gap-4">
        {blocking && (
          <div
            role="alert"
            className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-warning/50 bg-warning/10 p-3 text-sm"
          >
            <p>
              {parametersChanged
                ? "The parameters above changed since this preview. Preview again to run with them."
                : blocking}
            </p>
            {stale.length > 0 && !parametersChanged && (
              <Button size="sm" variant="secondary" pending={rerunPending} onClick={onRerun}>
                Preview again
              </Button>
            )}
          </div>
        )}
        <Switch
          id="compute_prune_count"
          label="Count the removed members"
          description={
            largeGuild
              ? `Recommended off for a server this large${memberCount ? ` (${formatNumber(memberCount, locale)} members)` : ""}: counting slows the prune down, and the result then shows no number.`
              : "Recommended off for large servers (thousands of members): counting slows the prune down. When off, the result shows no number."
          }
          checked={computeCount}
          onChange={(e) => setComputeCount(e.target.checked)}
          disabled={Boolean(blocking)}
        />
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
          <Field
            id="prune-confirmation"
            label={`Type ${preview.count} to confirm`}
            hint="The number of members the preview found."
            error={fieldErrors.confirmation}
          >
            <Input
              {...fieldProps("prune-confirmation", fieldErrors.confirmation)}
              inputMode="numeric"
              autoComplete="off"
              value={confirmation}
              onChange={(e) => setConfirmation(e.target.value)}
              disabled={Boolean(blocking)}
            />
          </Field>
          <ReasonField
            id="prune-reason"
            label="Reason"
            hint="Required. Goes to the server's audit log."
            error={fieldErrors.reason}
            value={reason}
            onChange={setReason}
            disabled={Boolean(blocking)}
          />
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <Button
            variant="danger"
            pending={pending}
            disabled={Boolean(blocking) || !confirmationOk || reason.trim() === ""}
            onClick={onRun}
          >
            Run prune
          </Button>
          <p className="text-xs text-ink-muted">
            Removed members can rejoin with an invite. The request is sent once and never repeated on its own.
          </p>
        </div>
      </div>
    </Card>
  );
}
