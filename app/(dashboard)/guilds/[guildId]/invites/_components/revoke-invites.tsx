"use client";

// "Revoke selected": the bar over the invites table while invites are selected (how many, the offer to select every
// invite the list holds across its pages, clear), and the dialog that asks first (the count, a reason for the audit
// log) and then says what happened: how many were revoked, and each invite that was not, with why.
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogCancel } from "@/components/ui/dialog";
import { formatNumber, useLocale } from "@/components/ui/locale";
import { useToast } from "@/components/ui/toast";
import { ReasonField } from "@/components/dashboard/reason-input";
import { useAction } from "@/components/dashboard/use-action";
import { bulkDeleteInvitesAction, type BulkDeleteInvitesResult } from "@/lib/dashboard/actions/invites";
import { plural } from "@/lib/dashboard/plural";

export function RevokeBar({
  count,
  total,
  allSelected,
  pageFullySelected,
  onSelectAll,
  onClear,
  onRevoke,
}: {
  count: number;
  /** Every invite the list holds, on every page. */
  total: number;
  /** "Select all" was taken: every invite, not only those ticked. */
  allSelected: boolean;
  pageFullySelected: boolean;
  onSelectAll: () => void;
  onClear: () => void;
  onRevoke: () => void;
}) {
  const locale = useLocale();
  const invites = (n: number) => plural(n, "invite", { format: (value) => formatNumber(value, locale) });
  return (
    <section
      aria-label="Selected invites"
      className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-lg bg-blurple/5 p-3 text-sm ring-1 ring-blurple/30"
      data-testid="revoke-bar"
    >
      <strong role="status">
        {allSelected ? `All ${invites(count)} selected` : `${formatNumber(count, locale)} selected`}
      </strong>
      {!allSelected && pageFullySelected && total > count && (
        <button type="button" className="font-medium text-blurple-ink hover:underline" onClick={onSelectAll}>
          Select all {invites(total)}
        </button>
      )}
      <button type="button" className="text-ink-muted hover:underline" onClick={onClear}>
        Clear selection
      </button>
      <Button variant="danger" size="sm" className="ml-auto" onClick={onRevoke}>
        Revoke selected
      </Button>
    </section>
  );
}

export function RevokeInvitesDialog({
  guildId,
  codes,
  onRevoked,
  onClose,
}: {
  guildId: string;
  codes: string[];
  /** After the request, whatever it revoked: the selection is spent. */
  onRevoked: () => void;
  onClose: () => void;
}) {
  const locale = useLocale();
  const toast = useToast();
  // The toast is this dialog's own: a partial failure is not a success.
  const { run, pending } = useAction(bulkDeleteInvitesAction, { failure: "Couldn't revoke the invites", quiet: true });
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [result, setResult] = useState<BulkDeleteInvitesResult | null>(null);
  const invites = (n: number) => plural(n, "invite", { format: (value) => formatNumber(value, locale) });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await run({ guildId, codes, reason: reason || undefined });
    if (!answer.ok) {
      setError(answer.fieldErrors.reason?.join(" ") ?? answer.fieldErrors.codes?.join(" "));
      return;
    }
    setResult(answer.data);
    onRevoked();
    if (answer.data.failed.length === 0) toast.success(answer.message ?? `Revoked ${invites(codes.length)}.`);
    else toast.error("Some invites weren't revoked", answer.message);
  };

  // One dialog throughout, so the focus stays in it and goes back to the bar's button when it closes.
  const title = !result
    ? `Revoke ${invites(codes.length)}?`
    : result.failed.length
      ? `Revoked ${formatNumber(result.revoked.length, locale)} of ${invites(codes.length)}`
      : `Revoked ${invites(result.revoked.length)}`;
  return (
    <Dialog open onClose={onClose} dirty={!result && reason !== ""} title={title} size={result ? "md" : "sm"}>
      {result ? (
        <RevokeOutcome result={result} invites={invites} onClose={onClose} />
      ) : (
        <form onSubmit={submit} noValidate aria-label="Revoke invites" className="flex flex-col gap-4">
          <p className="text-sm">
            {codes.length === 1 ? "Its link stops" : "Their links stop"} working at once, and target-users lists go with
            them. People who joined through them stay.
          </p>
          <ReasonField
            id="revoke-invites-reason"
            label="Reason"
            hint="Recorded in the audit log for each invite."
            error={error}
            value={reason}
            onChange={setReason}
            autoFocus
          />
          <div className="flex justify-end gap-2">
            <DialogCancel />
            <Button type="submit" variant="danger" pending={pending}>
              Revoke {invites(codes.length)}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

function RevokeOutcome({
  result: { revoked, failed },
  invites,
  onClose,
}: {
  result: BulkDeleteInvitesResult;
  invites: (n: number) => string;
  onClose: () => void;
}) {
  return (
    <div className="flex flex-col gap-4 text-sm" data-testid="revoke-result">
      <p>
        {revoked.length === 0
          ? "No invite was revoked."
          : `${invites(revoked.length)} revoked: ${revoked.length === 1 ? "its link no longer works" : "their links no longer work"}.`}
      </p>
      {failed.length > 0 && (
        <div className="flex flex-col gap-2">
          <h3 className="font-semibold">Not revoked</h3>
          <ul aria-label="Not revoked" className="flex max-h-64 flex-col gap-1 overflow-y-auto">
            {failed.map((failure) => (
              <li key={failure.code} className="rounded-md bg-surface-sunken px-3 py-2">
                <span className="font-mono font-semibold">{failure.code}</span>
                <span className="text-ink-muted">: {failure.reason}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="flex justify-end">
        <Button onClick={onClose} autoFocus>
          Done
        </Button>
      </div>
    </div>
  );
}
