"use client";

// The audit history as a list of sentences, newest first: who (avatar, name, id to copy) did what to whom, the changed
// fields in words, why, when, where it was done and whether it worked; one entry's details in a dialog. One column
// that wraps, so it reads the same on a 390 px phone and a wide screen.
import Link from "next/link";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button, buttonClasses } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Dialog } from "@/components/ui/dialog";
import { UserChip } from "@/components/dashboard/user-chip";
import { changePhrase, type ChangeLine } from "@/lib/dashboard/audit/fields";
import type { AuditRow } from "@/lib/dashboard/data/audit-history";
import { useLocale } from "@/components/ui/locale";
import { formatExactTime } from "@/components/ui/relative-time";

export interface AuditPager {
  page: number;
  previousHref: string | null;
  nextHref: string | null;
}

function ChangeList({ changes }: { changes: ChangeLine[] }) {
  return (
    <ul className="mt-1 flex flex-col gap-0.5 text-xs text-ink-muted">
      {changes.map((line, i) => (
        <li key={`${line.field}-${i}`} className="break-words">
          <span className="font-medium text-ink">{line.field}</span>{" "}
          {line.summary !== undefined ? (
            line.summary
          ) : (
            <>
              {line.before !== undefined && <del className="decoration-danger/60">{line.before}</del>}
              {line.before !== undefined && line.after !== undefined && " → "}
              {line.after !== undefined && <ins className="no-underline">{line.after}</ins>}
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

function Entry({ row, onOpen }: { row: AuditRow; onOpen: () => void }) {
  const { entry, sentence, actor, target } = row;
  const locale = useLocale();
  return (
    <li
      className="flex flex-col gap-2 border-b border-line px-3 py-3 last:border-0 sm:flex-row sm:items-start sm:gap-4"
      data-entry-id={entry.id}
      aria-label={sentence.text}
    >
      <div className="min-w-0 flex-1">
        <p className="flex min-w-0 flex-wrap items-center gap-x-1.5 gap-y-1 text-sm">
          <UserChip user={actor} size={22} showUsername={false} />
          <span className="min-w-0 break-words">
            {sentence.predicate}
            {entry.reason && (
              <span className="text-ink-muted">
                {" "}
                — reason: <q>{entry.reason}</q>
              </span>
            )}
          </span>
        </p>
        {sentence.changes.length > 3 && <ChangeList changes={sentence.changes} />}
        <p className="mt-1.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-ink-muted">
          <time dateTime={entry.createdAt}>
            {formatExactTime(Date.parse(entry.createdAt), locale, { seconds: true })}
          </time>
          <span aria-hidden>·</span>
          <span>{entry.source === "guild-log" ? `via ${sentence.source}` : "in this dashboard"}</span>
          {entry.status === "success" ? (
            <Badge tone="success">Succeeded</Badge>
          ) : (
            <Badge tone="danger" title={entry.error ?? undefined}>
              Failed{entry.httpStatus ? ` (${entry.httpStatus})` : ""}
            </Badge>
          )}
          {target && (
            <span className="inline-flex min-w-0 items-center gap-1">
              about <UserChip user={target} size={16} showUsername={false} />
            </span>
          )}
        </p>
      </div>
      <Button
        size="sm"
        variant="ghost"
        className="self-start"
        onClick={onOpen}
        aria-label={`Details: ${sentence.text}`}
      >
        Details
      </Button>
    </li>
  );
}

export function AuditList({ rows, pager, filtered }: { rows: AuditRow[]; pager: AuditPager; filtered: boolean }) {
  const [open, setOpen] = useState<AuditRow | null>(null);
  const locale = useLocale();
  return (
    <>
      <section aria-label="Audit history, newest first" className="rounded-lg bg-surface-raised ring-1 ring-line">
        {rows.length === 0 ? (
          <div className="p-4">
            <EmptyState title={filtered ? "Nothing matches these filters" : "No changes yet"}>
              {filtered ? "Widen the dates or clear a filter." : "Changes to the server appear here."}
            </EmptyState>
          </div>
        ) : (
          <ol>
            {rows.map((row) => (
              <Entry key={row.entry.id} row={row} onOpen={() => setOpen(row)} />
            ))}
          </ol>
        )}
      </section>
      <nav aria-label="Pages" className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm">
        <span className="text-ink-muted">Page {pager.page}</span>
        <span className="flex gap-2">
          {[
            { href: pager.previousHref, text: "← Newer", rel: "prev" },
            { href: pager.nextHref, text: "Older →", rel: "next" },
          ].map((link) =>
            link.href ? (
              <Link
                key={link.rel}
                href={link.href}
                scroll={false}
                rel={link.rel}
                className={buttonClasses("secondary", "sm")}
              >
                {link.text}
              </Link>
            ) : (
              <span
                key={link.rel}
                aria-disabled="true"
                className={cn(buttonClasses("secondary", "sm"), "pointer-events-none opacity-50")}
              >
                {link.text}
              </span>
            ),
          )}
        </span>
      </nav>
      <Dialog
        open={open !== null}
        onClose={() => setOpen(null)}
        title={open ? open.sentence.text : ""}
        description={
          open
            ? `${formatExactTime(Date.parse(open.entry.createdAt), locale, { seconds: true })} · ${open.sentence.source}`
            : undefined
        }
        size="lg"
      >
        {open && <EntryDetails row={open} />}
      </Dialog>
    </>
  );
}

function EntryDetails({ row }: { row: AuditRow }) {
  const { entry, sentence } = row;
  return (
    <div className="flex flex-col gap-4 text-sm">
      <dl className="grid grid-cols-1 gap-x-3 gap-y-1 sm:grid-cols-[9rem_1fr]">
        <dt className="text-ink-muted">Who</dt>
        <dd>
          <UserChip user={row.actor} />
        </dd>
        {row.target && (
          <>
            <dt className="text-ink-muted">About</dt>
            <dd>
              <UserChip user={row.target} />
            </dd>
          </>
        )}
        {!row.target && entry.targetId && (
          <>
            <dt className="text-ink-muted">Target</dt>
            <dd className="break-words">
              {entry.targetName ?? "—"} <span className="font-mono text-xs text-ink-muted">{entry.targetId}</span>
            </dd>
          </>
        )}
        <dt className="text-ink-muted">Reason</dt>
        <dd className="break-words">{entry.reason ?? "—"}</dd>
        <dt className="text-ink-muted">Done in</dt>
        <dd>{sentence.source}</dd>
        <dt className="text-ink-muted">Result</dt>
        <dd className="break-words">
          {entry.status === "success"
            ? "Succeeded"
            : `Failed${entry.httpStatus ? ` (HTTP ${entry.httpStatus})` : ""}: ${entry.error ?? ""}`}
        </dd>
        {entry.auditLogId && (
          <>
            <dt className="text-ink-muted">Audit log entry</dt>
            <dd className="font-mono text-xs">{entry.auditLogId}</dd>
          </>
        )}
      </dl>
      <section aria-label="What changed">
        <h3 className="mb-2 font-semibold">What changed</h3>
        {sentence.changes.length === 0 ? (
          <p className="text-ink-muted">{entry.status === "success" ? "No fields changed." : "Nothing changed."}</p>
        ) : (
          <ul className="flex flex-col gap-1">
            {sentence.changes.map((line, i) => (
              <li key={`${line.field}-${i}`} className="break-words">
                {changePhrase(line)}
              </li>
            ))}
          </ul>
        )}
      </section>
      {entry.request !== null && entry.request !== undefined && (
        <details>
          <summary className="cursor-pointer text-ink-muted">The request as sent</summary>
          <pre className="mt-2 max-h-56 overflow-auto rounded-md bg-surface-sunken p-3 text-xs">
            {JSON.stringify(entry.request, null, 2)}
          </pre>
        </details>
      )}
    </div>
  );
}
