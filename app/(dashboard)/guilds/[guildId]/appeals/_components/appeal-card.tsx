"use client";

// One appeal: who, when, the ban's reason then, the answers; while open, Accept (with an optional note for them) and
// Reject (with the message they read on the appeal page, required), each checked by the schema the server uses.
import { useState } from "react";
import { useRouter } from "next/navigation";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { fieldProps } from "@/components/ui/field";
import { Textarea } from "@/components/ui/input";
import { useAction } from "@/components/dashboard/use-action";
import { useLocale } from "@/components/ui/locale";
import { formatExactTime } from "@/components/ui/relative-time";
import { acceptAppealAction, rejectAppealAction } from "@/lib/dashboard/actions/appeals";
import { APPEAL_MESSAGE_MAX } from "@/lib/dashboard/appeals/schemas";
import type { AppealView } from "@/lib/dashboard/appeals/store";

export function AppealCard({ guildId, appeal }: { guildId: string; appeal: AppealView }) {
  const locale = useLocale();
  const router = useRouter();
  const [message, setMessage] = useState("");
  const [error, setError] = useState<string | null>(null);
  const accept = useAction(acceptAppealAction, { failure: "Couldn't accept the appeal" });
  const reject = useAction(rejectAppealAction, { failure: "Couldn't reject the appeal" });
  const id = `appeal-${appeal.id}-message`;
  return (
    <Card className="flex flex-col gap-3 p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="font-semibold">
          {appeal.userName} <span className="font-mono text-xs font-normal text-ink-muted">{appeal.userId}</span>
        </h2>
        <span className="text-sm text-ink-muted">sent {formatExactTime(Date.parse(appeal.createdAt), locale)}</span>
      </div>
      <p className="text-sm">
        <span className="font-medium">Banned for:</span> {appeal.banReason ?? "no reason given"}
      </p>
      <dl className="flex flex-col gap-2 text-sm">
        {appeal.answers.map((qa, i) => (
          <div key={i}>
            <dt className="font-medium">{qa.question}</dt>
            <dd className="whitespace-pre-wrap break-words text-ink-muted">{qa.answer}</dd>
          </div>
        ))}
      </dl>
      {appeal.status === "open" ? (
        <form
          className="flex flex-col gap-2"
          onSubmit={(e) => e.preventDefault()}
          aria-label={`Decide ${appeal.userName}'s appeal`}
        >
          <label htmlFor={id} className="text-sm font-medium">
            Message for them (required to reject)
          </label>
          <Textarea
            {...fieldProps(id, error ?? undefined)}
            value={message}
            onChange={(e) => {
              setMessage(e.target.value);
              setError(null);
            }}
            rows={2}
            maxLength={APPEAL_MESSAGE_MAX}
          />
          {error && (
            <p id={`${id}-error`} role="alert" className="text-xs font-medium text-danger">
              {error}
            </p>
          )}
          <div className="flex flex-wrap gap-2">
            <Button
              variant="primary"
              pending={accept.pending}
              onClick={async () => {
                const result = await accept.run({ guildId, appealId: appeal.id, message: message.trim() || undefined });
                if (result.ok) router.refresh();
              }}
            >
              Accept and unban
            </Button>
            <Button
              variant="danger"
              pending={reject.pending}
              onClick={async () => {
                if (!message.trim()) return setError("Tell them why.");
                const result = await reject.run({ guildId, appealId: appeal.id, message: message.trim() });
                if (result.ok) router.refresh();
                else setError(result.fieldErrors.message?.[0] ?? null);
              }}
            >
              Reject
            </Button>
          </div>
        </form>
      ) : (
        <p className="flex flex-wrap items-center gap-2 text-sm">
          <Badge tone={appeal.status === "accepted" ? "success" : "danger"}>
            {appeal.status === "accepted" ? "Accepted" : "Rejected"}
          </Badge>
          by {appeal.moderatorName}
          {appeal.decidedAt && <> · {formatExactTime(Date.parse(appeal.decidedAt), locale)}</>}
          {appeal.message && <span className="basis-full text-ink-muted">“{appeal.message}”</span>}
        </p>
      )}
    </Card>
  );
}
