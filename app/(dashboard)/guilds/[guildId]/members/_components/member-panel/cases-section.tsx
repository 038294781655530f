"use client";

// The member's cases in the panel (issue #32): how many of each type ("3 warnings · 1 timeout"), the latest few with
// their numbers, a link to all of them on the Cases page, and Warn / Add note: one text (the warning's or the note's
// reason, within 512 characters, as the server checks it) and a button for each.
import Link from "next/link";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { fieldProps } from "@/components/ui/field";
import { Textarea } from "@/components/ui/input";
import { applyFieldErrors, useAction } from "@/components/dashboard/use-action";
import { useLocale } from "@/components/ui/locale";
import { formatExactTime } from "@/components/ui/relative-time";
import { useState } from "react";
import { addMemberNoteAction, warnMemberAction } from "@/lib/dashboard/actions/cases";
import { banMemberAction, kickMemberAction, setMemberTimeoutAction } from "@/lib/dashboard/actions/members";
import { describeRule, type EscalationRule } from "@/lib/dashboard/cases/escalation";
import { WarnInputSchema } from "@/lib/dashboard/actions/schemas/cases";
import { CASE_TYPE_LABELS, CASE_TYPES, type CaseType } from "@/lib/dashboard/cases/derive";
import type { CaseView } from "@/lib/dashboard/cases/store";
import { plural } from "@/lib/dashboard/plural";
import { AUDIT_LOG_REASON_MAX } from "@/lib/discord/limits";
import { ActionErrors, PanelSection, type PanelFormProps } from "./panel-section";
import { useReportDirty } from "./use-dirty-forms";

export interface MemberCases {
  counts: Partial<Record<CaseType, number>>;
  cases: CaseView[];
}

const COUNT_WORDS: Record<CaseType, [string, string]> = {
  ban: ["ban", "bans"],
  unban: ["unban", "unbans"],
  kick: ["kick", "kicks"],
  timeout: ["timeout", "timeouts"],
  timeout_removed: ["timeout removed", "timeouts removed"],
  role_change: ["role change", "role changes"],
  warning: ["warning", "warnings"],
  note: ["note", "notes"],
  appeal: ["appeal decided", "appeals decided"],
};

/** "3 warnings · 1 timeout", in the types' order; "No cases" when there are none. */
export function caseCountsText(counts: Partial<Record<CaseType, number>>): string {
  const parts = CASE_TYPES.filter((type) => counts[type]).map((type) =>
    plural(counts[type]!, COUNT_WORDS[type][0], { many: COUNT_WORDS[type][1] }),
  );
  return parts.length ? parts.join(" · ") : "No cases";
}

const WarnFormSchema = WarnInputSchema.pick({ reason: true });

export function CasesSection({
  memberCases,
  warnBlocked,
  ...props
}: PanelFormProps & { memberCases: MemberCases | null; warnBlocked: string | null }) {
  const locale = useLocale();
  const { register, handleSubmit, setError, watch, reset, formState } = useForm<{ reason: string }>({
    resolver: zodResolver(WarnFormSchema),
    defaultValues: { reason: "" },
  });
  useReportDirty(formState.isDirty, props.onDirtyChange);
  const warn = useAction(warnMemberAction, { failure: "Couldn't warn them" });
  const [proposal, setProposal] = useState<(EscalationRule & { count: number }) | null>(null);
  const note = useAction(addMemberNoteAction, { failure: "Couldn't add the note" });
  const error = formState.errors.reason?.message;
  const value = watch("reason") ?? "";
  const send = (action: typeof warn) =>
    handleSubmit(async (values) => {
      const result = await action.run({ guildId: props.guildId, userId: props.userId, reason: values.reason });
      if (result.ok) {
        reset({ reason: "" });
        setProposal(result.data.proposal);
      } else applyFieldErrors(setError, result.fieldErrors, ["reason"]);
    });
  const blocked = warnBlocked ?? props.blocked;

  return (
    <PanelSection title="Cases" reason={memberCases ? blocked : props.blocked}>
      {memberCases && (
        <>
          <p className="text-sm" data-testid="member-case-counts">
            {caseCountsText(memberCases.counts)}
          </p>
          {memberCases.cases.length > 0 && (
            <ol className="mt-2 flex flex-col gap-1 text-sm" aria-label="Latest cases">
              {memberCases.cases.map((c) => (
                <li key={c.id} className="flex flex-wrap items-baseline gap-x-2">
                  <span className="font-semibold tabular-nums">#{c.number}</span>
                  <Badge tone={c.type === "warning" || c.type === "ban" ? "danger" : "neutral"}>
                    {CASE_TYPE_LABELS[c.type]}
                  </Badge>
                  <span className="min-w-0 flex-1 break-words">{c.reason ?? "No reason given"}</span>
                  <span className="text-xs text-ink-muted">
                    {c.moderatorName} · {formatExactTime(Date.parse(c.createdAt), locale)}
                  </span>
                </li>
              ))}
            </ol>
          )}
          <Link
            prefetch={false}
            href={`/guilds/${props.guildId}/cases?member=${props.userId}`}
            className="mt-2 inline-block text-sm font-medium text-blurple-ink hover:underline"
          >
            All of {props.userName}&apos;s cases
          </Link>
        </>
      )}
      {proposal && (
        <EscalationProposal
          guildId={props.guildId}
          userId={props.userId}
          proposal={proposal}
          onDone={() => setProposal(null)}
        />
      )}
      <form className="mt-3 flex flex-col gap-2" onSubmit={send(warn)}>
        <label htmlFor="member-case-text" className="text-sm font-medium">
          Warning or note
        </label>
        <Textarea
          {...fieldProps("member-case-text", error)}
          {...register("reason")}
          rows={2}
          maxLength={AUDIT_LOG_REASON_MAX}
          disabled={Boolean(blocked)}
          placeholder="What it is for: the member's case history keeps it"
        />
        <span className="text-xs text-ink-muted" id="member-case-text-hint">
          {[...value].length}/{AUDIT_LOG_REASON_MAX}. A note is for moderators only.
        </span>
        {error && (
          <p id="member-case-text-error" role="alert" className="text-xs font-medium text-danger">
            {error}
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" variant="secondary" pending={warn.pending} disabled={Boolean(blocked)}>
            Warn
          </Button>
          <Button type="button" variant="ghost" pending={note.pending} disabled={Boolean(blocked)} onClick={send(note)}>
            Add note
          </Button>
        </div>
        <ActionErrors message={formState.errors.root?.server?.message} />
      </form>
    </PanelSection>
  );
}

/**
 * The escalation rule the warning just crossed: what it says, Apply (the timeout, kick or ban it names, as the
 * moderator, with the rule as the reason) and Not now. Nothing happens unless the moderator applies it.
 */
function EscalationProposal({
  guildId,
  userId,
  proposal,
  onDone,
}: {
  guildId: string;
  userId: string;
  proposal: EscalationRule & { count: number };
  onDone: () => void;
}) {
  const timeout = useAction(setMemberTimeoutAction, { failure: "Couldn't time them out" });
  const kick = useAction(kickMemberAction, { failure: "Couldn't kick them" });
  const ban = useAction(banMemberAction, { failure: "Couldn't ban them" });
  const rule = describeRule(proposal);
  const reason = `Escalation: ${rule}`;
  const apply = async () => {
    const base = { guildId, userId, reason };
    const result =
      proposal.action === "timeout"
        ? await timeout.run({
            ...base,
            until: new Date(Date.now() + (proposal.durationSeconds ?? 0) * 1000).toISOString(),
          })
        : proposal.action === "kick"
          ? await kick.run(base)
          : await ban.run({ ...base, delete_message_seconds: 0, duration: "permanent" });
    if (result.ok) onDone();
  };
  return (
    <div
      role="alert"
      className="mt-3 flex flex-col gap-2 rounded-lg border border-warning/60 bg-warning/10 p-3 text-sm"
    >
      <p>
        <strong>{proposal.count} warnings</strong> meet the server&apos;s rule: {rule}.
      </p>
      <div className="flex gap-2">
        <Button variant="danger" size="sm" pending={timeout.pending || kick.pending || ban.pending} onClick={apply}>
          Apply
        </Button>
        <Button variant="ghost" size="sm" onClick={onDone}>
          Not now
        </Button>
      </div>
    </div>
  );
}
