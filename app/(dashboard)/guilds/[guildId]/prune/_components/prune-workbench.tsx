"use client";

// The prune page's working state: the parameters form, the preview being acted on (the latest one, or an earlier
// fresh one picked from the list), the run form for it, and the list of earlier previews.
import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Button } from "@/components/ui/button";
import { Card, CardHeader, DisabledReason } from "@/components/ui/card";
import { Field, fieldProps } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { applyFieldErrors, useAction } from "@/components/dashboard/use-action";
import { useNow } from "@/components/dashboard/use-now";
import { previewPruneAction } from "@/lib/dashboard/actions/prune";
import {
  PruneParametersSchema,
  type PruneParameters,
  type PrunePreviewView,
} from "@/lib/dashboard/actions/schemas/prune";
import { PRUNE_DAYS } from "@/lib/discord/limits";
import { PreviewHistory, type PreviewHistoryPage } from "./preview-history";
import { PruneRunCard } from "./prune-run-card";

export interface PruneRole {
  id: string;
  name: string;
  color: number;
  managed: boolean;
  /** Why the moderator can't include it (at or above their highest role), or null. */
  lockedReason: string | null;
}

export function PruneWorkbench({
  guildId,
  roles,
  history,
  staleness,
  serverNow,
  memberCount,
  largeGuild,
}: {
  guildId: string;
  roles: PruneRole[];
  /** The page of earlier previews the URL asks for. */
  history: PreviewHistoryPage;
  /** Why each unused preview no longer describes the server (empty: it still does). */
  staleness: Record<string, string[]>;
  serverNow: number;
  memberCount: number | null;
  largeGuild: boolean;
}) {
  const now = useNow(serverNow);
  const form = useForm<PruneParameters>({
    resolver: zodResolver(PruneParametersSchema),
    defaultValues: { days: PRUNE_DAYS.default, includeRoles: [] },
    mode: "onChange",
  });
  const { register, handleSubmit, watch, setValue, setError, formState } = form;
  const errors = formState.errors;
  const [currentId, setCurrentId] = useState<string | null>(null);
  // The preview picked from the list, for when the list moves to a page without it.
  const [picked, setPicked] = useState<PrunePreviewView | null>(null);
  const [justMade, setJustMade] = useState<PrunePreviewView | null>(null);
  const { run, pending } = useAction(previewPruneAction, { failure: "Couldn't preview the prune" });

  // The list comes from the server (refreshed after every action); a preview made a moment ago may not be in it yet,
  // and the page shown (older previews, or oldest first) may not be where it goes.
  const previews = history.previews;
  const fresh = justMade && !previews.some((p) => p.id === justMade.id) ? justMade : null;
  const listed = fresh && history.showsNewest ? [fresh, ...previews] : previews;
  const current =
    [...(fresh ? [fresh] : []), ...previews].find((p) => p.id === currentId) ??
    (picked?.id === currentId ? picked : null);
  const values = watch();
  const includeRoles = values.includeRoles ?? [];
  const roleName = (id: string) => roles.find((r) => r.id === id)?.name ?? "deleted role";

  const preview = async (data: PruneParameters) => {
    const result = await run({ guildId, days: data.days, includeRoles: data.includeRoles });
    if (result.ok) {
      setJustMade(result.data);
      setCurrentId(result.data.id);
    } else {
      applyFieldErrors(setError, result.fieldErrors, ["days", "includeRoles"]);
    }
  };
  const onPreview = handleSubmit(preview);
  /** A stale preview's offer: the same days and roles, counted again now. */
  const rerun = (stalePreview: PrunePreviewView) => {
    setValue("days", stalePreview.days, { shouldValidate: true });
    setValue("includeRoles", stalePreview.roleIds, { shouldValidate: true });
    void preview({ days: stalePreview.days, includeRoles: stalePreview.roleIds });
  };
  const staleReasons = (p: PrunePreviewView) => (p.id === justMade?.id ? [] : (staleness[p.id] ?? []));

  const pickPreview = (preview: PrunePreviewView) => {
    setValue("days", preview.days, { shouldValidate: true });
    setValue("includeRoles", preview.roleIds, { shouldValidate: true });
    setCurrentId(preview.id);
    setPicked(preview);
  };

  return (
    <div className="flex flex-col gap-6">
      <Card>
        <CardHeader
          title="Who would be removed"
          description="Members inactive for at least this many days, with no roles or only the roles you include. The owner and you are never pruned."
        />
        <form onSubmit={onPreview} noValidate aria-label="Prune parameters" className="flex flex-col gap-5">
          {errors.root?.server && (
            <p role="alert" className="rounded-md border border-danger/40 bg-danger/10 p-3 text-sm">
              {errors.root.server.message}
            </p>
          )}
          <Field
            id="days"
            label="Inactive for at least"
            hint={`${PRUNE_DAYS.min} to ${PRUNE_DAYS.max} days.`}
            error={errors.days?.message}
          >
            <div className="flex items-center gap-3">
              <input
                type="range"
                min={PRUNE_DAYS.min}
                max={PRUNE_DAYS.max}
                aria-label="Days inactive (slider)"
                className="w-full max-w-xs accent-blurple"
                value={Number.isFinite(values.days) ? values.days : PRUNE_DAYS.default}
                onChange={(e) => setValue("days", Number(e.target.value), { shouldValidate: true })}
              />
              <div className="w-20 shrink-0">
                <Input
                  {...fieldProps("days", errors.days?.message)}
                  type="number"
                  inputMode="numeric"
                  min={PRUNE_DAYS.min}
                  max={PRUNE_DAYS.max}
                  {...register("days", { valueAsNumber: true })}
                />
              </div>
              <span className="text-sm text-ink-muted">days</span>
            </div>
          </Field>
          <fieldset className="min-w-0">
            <legend className="text-sm font-medium">Also remove members whose roles are all among</legend>
            <p className="mb-2 text-xs text-ink-muted">A member holding any role not ticked here is kept.</p>
            {roles.length === 0 ? (
              <p className="text-sm text-ink-muted">This server has no roles besides @everyone.</p>
            ) : (
              <ul className="grid grid-cols-1 gap-1 sm:grid-cols-2 lg:grid-cols-3">
                {roles.map((role) => (
                  <li key={role.id}>
                    <label className="flex items-start gap-2 rounded-md px-2 py-1.5 hover:bg-surface-sunken has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-70">
                      <input
                        type="checkbox"
                        className="mt-0.5 size-4 accent-blurple"
                        disabled={Boolean(role.lockedReason)}
                        checked={includeRoles.includes(role.id)}
                        onChange={(e) =>
                          setValue(
                            "includeRoles",
                            e.target.checked ? [...includeRoles, role.id] : includeRoles.filter((id) => id !== role.id),
                            { shouldValidate: true },
                          )
                        }
                      />
                      <span className="flex min-w-0 flex-col text-sm">
                        <span>
                          <span
                            className="mr-1.5 inline-block size-2.5 rounded-full align-middle"
                            style={{
                              backgroundColor: role.color
                                ? `#${role.color.toString(16).padStart(6, "0")}`
                                : "var(--color-line)",
                            }}
                            aria-hidden
                          />
                          {role.name}
                          {role.managed && <span className="ml-1 text-xs text-ink-muted">(bot role)</span>}
                        </span>
                        <DisabledReason reason={role.lockedReason} />
                      </span>
                    </label>
                  </li>
                ))}
              </ul>
            )}
            {errors.includeRoles?.message && (
              <p role="alert" className="mt-1 text-xs font-medium text-danger">
                {errors.includeRoles.message}
              </p>
            )}
          </fieldset>
          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" variant="secondary" pending={pending}>
              Estimate
            </Button>
            <p className="text-xs text-ink-muted">
              Estimating removes nobody. A prune can only run on a preview made in the last 10 minutes.
            </p>
          </div>
        </form>
      </Card>

      {current && (
        <PruneRunCard
          key={current.id}
          guildId={guildId}
          preview={current}
          parameters={{ days: values.days, includeRoles }}
          roleName={roleName}
          now={now}
          memberCount={memberCount}
          largeGuild={largeGuild}
          stale={staleReasons(current)}
          onRerun={() => rerun(current)}
          rerunPending={pending}
        />
      )}

      <PreviewHistory
        history={{ ...history, previews: listed }}
        now={now}
        roleName={roleName}
        currentId={currentId}
        onUse={pickPreview}
        staleReasons={staleReasons}
        onRerun={rerun}
      />
    </div>
  );
}
