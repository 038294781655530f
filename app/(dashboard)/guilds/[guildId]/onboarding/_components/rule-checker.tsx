// The live verdict on the draft: each enabling rule met or not, what counts, and which channels to add.
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import type { OnboardingRuleReport } from "@/lib/discord/onboarding-rules";

export function RuleChecker({
  report,
  enabled,
  onAdd,
}: {
  report: OnboardingRuleReport;
  enabled: boolean;
  onAdd: (ids: string[]) => void;
}) {
  const status = report.met ? "Ready to enable" : enabled ? "Can't be enabled yet" : "Not ready to enable";
  return (
    <Card>
      <CardHeader
        id="rule-checker-title"
        title="Enabling rules"
        description="Checked as you edit, with @everyone's permissions in each channel."
        actions={<Badge tone={report.met ? "success" : enabled ? "danger" : "warning"}>{status}</Badge>}
      />
      <ul aria-labelledby="rule-checker-title" className="flex flex-col gap-2" data-testid="onboarding-rules">
        {report.rules.map((rule) => (
          <li
            key={rule.id}
            data-rule={rule.id}
            data-met={rule.met}
            className={cn("flex items-start gap-2 rounded-md p-2 text-sm", rule.met ? "bg-success/10" : "bg-danger/10")}
          >
            <span aria-hidden className={cn("font-bold", rule.met ? "text-success" : "text-danger")}>
              {rule.met ? "✓" : "✗"}
            </span>
            <span className="min-w-0 flex-1">
              {rule.label}
              <span className="block text-xs text-ink-muted">
                {rule.have} of {rule.need}
                {rule.met ? "" : `: add ${rule.need - rule.have} more`}
              </span>
            </span>
            <span className="sr-only">{rule.met ? "met" : "not met"}</span>
          </li>
        ))}
      </ul>
      {report.suggestions.length > 0 && (
        <div className="mt-4">
          <p className="text-sm font-medium">Add these default channels</p>
          <ul className="mt-2 flex flex-wrap gap-1.5" aria-label="Suggested default channels">
            {report.suggestions.map((s) => (
              <li key={s.id}>
                <Button
                  size="sm"
                  variant="secondary"
                  onClick={() => onAdd([s.id])}
                  aria-label={`Add #${s.name} to the default channels`}
                >
                  #{s.name}
                  {!s.writable && <span className="text-[10px] text-ink-muted">read-only</span>}
                </Button>
              </li>
            ))}
          </ul>
          <Button size="sm" className="mt-3" onClick={() => onAdd(report.suggestions.map((s) => s.id))}>
            Add all {report.suggestions.length} suggested
          </Button>
        </div>
      )}
      {report.unreachable && (
        <p role="note" className="mt-3 rounded-md border border-warning/50 bg-warning/10 p-2 text-xs">
          The server does not have enough channels where @everyone can send messages. Create some, or open existing ones
          to @everyone, in Channels.
        </p>
      )}
      {report.unknown.length > 0 && (
        <p role="note" className="mt-3 text-xs text-danger">
          {report.unknown.length} channel{report.unknown.length === 1 ? " no longer exists or" : "s no longer exist or"}{" "}
          cannot be used: remove {report.unknown.length === 1 ? "it" : "them"} before saving.
        </p>
      )}
      <details className="mt-4 text-sm">
        <summary className="cursor-pointer text-ink-muted">What counts ({report.counted.length})</summary>
        <ul className="mt-2 flex flex-col gap-1">
          {report.counted.map((c) => (
            <li key={c.id} className="flex items-center justify-between gap-2">
              <span className="truncate">#{c.name}</span>
              <span className="flex shrink-0 gap-1">
                {c.from !== "default" && (
                  <Badge tone="blurple">{c.from === "both" ? "default + question" : "question"}</Badge>
                )}
                <Badge tone={c.writable ? "success" : "neutral"}>
                  {c.writable ? "@everyone can chat" : "read-only"}
                </Badge>
              </span>
            </li>
          ))}
        </ul>
      </details>
    </Card>
  );
}
