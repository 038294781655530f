"use client";

// Activities → URL Mappings (setup rule 4): an editable PREFIX → TARGET table. The first row is the root mapping
// ("/", the Activity's own frontend); more rows map other hosts. Checked as you type with the same rules the
// server applies, saved as a whole.
import { useActionState, useMemo, useState } from "react";
import { URL_MAPPINGS_MAX } from "@/lib/discord/limits";
import {
  checkMappingPrefix,
  checkMappingTarget,
  normalizeMappingPrefix,
  type UrlMapping,
} from "@/lib/discord/url-mappings";
import { idle, type PortalActionState } from "../_lib/action-result";
import { ArrowRightIcon, PlusIcon, TrashIcon } from "./icons";
import { submitThrough } from "./form-submit";
import { ActionStatus } from "./status";

type Action = (previous: PortalActionState, form: FormData) => Promise<PortalActionState>;
interface Row {
  key: number;
  prefix: string;
  target: string;
}

let nextKey = 0;
const toRows = (mappings: UrlMapping[]): Row[] => {
  const root = mappings.find((m) => m.prefix === "/");
  return [
    { key: nextKey++, prefix: "/", target: root?.target ?? "" },
    ...mappings.filter((m) => m !== root).map((m) => ({ key: nextKey++, ...m })),
  ];
};

export function UrlMappingsEditor({
  mappings,
  activitiesEnabled,
  saveAction,
}: {
  applicationId: string;
  mappings: UrlMapping[];
  activitiesEnabled: boolean;
  saveAction: Action;
}) {
  const saved = useMemo(() => JSON.stringify(mappings), [mappings]);
  const [rows, setRows] = useState<Row[]>(() => toRows(mappings));
  const [baseline, setBaseline] = useState(saved);
  const [state, save, saving] = useActionState(saveAction, idle);
  const [showErrors, setShowErrors] = useState(false);

  // When the server's copy changes (a save here, or elsewhere), start again from it.
  if (baseline !== saved) {
    setBaseline(saved);
    setRows(toRows(mappings));
    setShowErrors(false);
  }

  // The root row is sent only when it has a target (an app without Activities may have no mappings at all).
  const sent = rows.filter((row, i) => i > 0 || row.target.trim() !== "");
  const sentJson = JSON.stringify(
    sent.map((r) => ({ prefix: normalizeMappingPrefix(r.prefix.trim()), target: r.target.trim() })),
  );
  const dirty = sentJson !== saved;

  const rowErrors = rows.map((row, i) => {
    const prefix = row.prefix.trim();
    const target = row.target.trim();
    const prefixError =
      i === 0
        ? null
        : (checkMappingPrefix(prefix) ??
          (rows.some(
            (other, j) => j < i && normalizeMappingPrefix(other.prefix.trim()) === normalizeMappingPrefix(prefix),
          )
            ? `"${normalizeMappingPrefix(prefix)}" is already mapped.`
            : null));
    const targetError =
      i === 0 && target === ""
        ? activitiesEnabled
          ? "Activities need a root mapping: enter your Activity's host."
          : null
        : checkMappingTarget(target);
    return { prefix: prefixError, target: targetError };
  });
  // Server field errors name rows by their index among the sent rows.
  const serverErrors = state.ok ? {} : state.fieldErrors;
  const serverError = (row: Row, field: "prefix" | "target") => {
    const index = sent.indexOf(row);
    return index === -1 ? undefined : serverErrors[`url_mappings.${index}.${field}`]?.[0];
  };
  const invalid = rowErrors.some((e) => e.prefix || e.target);

  const update = (key: number, patch: Partial<Row>) =>
    setRows((current) => current.map((row) => (row.key === key ? { ...row, ...patch } : row)));

  return (
    <form
      onSubmit={submitThrough(save, () => {
        setShowErrors(true);
        return !invalid;
      })}
      className="flex flex-col gap-4"
    >
      <div className="overflow-hidden rounded-lg border border-line">
        <div className="hidden grid-cols-[minmax(0,2fr)_auto_minmax(0,3fr)_2.5rem] items-center gap-3 bg-surface-raised px-4 py-2 text-xs font-bold uppercase tracking-wide text-ink-muted sm:grid">
          <span>Prefix</span>
          <span aria-hidden className="w-4" />
          <span>Target</span>
          <span className="sr-only">Remove</span>
        </div>
        <ul aria-label="URL mappings" className="divide-y divide-line">
          {rows.map((row, i) => {
            // Problems show once the field has something in it, or after a save attempt.
            const prefixError =
              ((showErrors || row.prefix !== "") && rowErrors[i].prefix) || serverError(row, "prefix");
            const targetError =
              ((showErrors || row.target !== "") && rowErrors[i].target) || serverError(row, "target");
            const included = sent.includes(row);
            return (
              <li
                key={row.key}
                className="grid grid-cols-1 gap-2 px-4 py-3 sm:grid-cols-[minmax(0,2fr)_auto_minmax(0,3fr)_2.5rem] sm:items-start sm:gap-3"
              >
                <div className="flex flex-col gap-1">
                  {i === 0 ? (
                    <div className="flex h-9 items-center gap-2">
                      <code className="rounded-md bg-surface-sunken px-3 py-1.5 font-mono text-sm">/</code>
                      <span className="rounded-full bg-blurple/10 px-2 py-0.5 text-xs font-semibold text-blurple dark:bg-blurple/20 dark:text-blurple-light">
                        Root mapping
                      </span>
                    </div>
                  ) : (
                    <input
                      aria-label={`Prefix ${i + 1}`}
                      value={row.prefix}
                      onChange={(event) => update(row.key, { prefix: event.target.value })}
                      placeholder="/api"
                      aria-invalid={Boolean(prefixError)}
                      className="h-9 rounded-md border border-line bg-surface-sunken px-3 font-mono text-sm outline-none focus:border-blurple aria-invalid:border-danger"
                    />
                  )}
                  {included && <input type="hidden" name="prefix" value={i === 0 ? "/" : row.prefix.trim()} />}
                  {prefixError && <p className="text-xs text-danger">{prefixError}</p>}
                </div>
                <ArrowRightIcon className="hidden size-4 self-center text-ink-muted sm:mt-0 sm:block sm:self-start sm:translate-y-2.5" />
                <div className="flex flex-col gap-1">
                  <div className="flex h-9 items-center rounded-md border border-line bg-surface-sunken focus-within:border-blurple has-[input[aria-invalid=true]]:border-danger">
                    <span className="select-none pl-3 font-mono text-sm text-ink-muted">https://</span>
                    <input
                      aria-label={i === 0 ? "Root mapping target" : `Target ${i + 1}`}
                      value={row.target}
                      onChange={(event) => update(row.key, { target: event.target.value })}
                      placeholder={i === 0 ? "my-activity.example.com" : "api.example.com"}
                      aria-invalid={Boolean(targetError)}
                      className="h-full min-w-0 flex-1 bg-transparent pr-3 font-mono text-sm outline-none"
                    />
                  </div>
                  {included && <input type="hidden" name="target" value={row.target.trim()} />}
                  {targetError ? (
                    <p className="text-xs text-danger">{targetError}</p>
                  ) : (
                    row.target.trim() &&
                    !checkMappingTarget(row.target.trim()) && (
                      <p className="truncate font-mono text-xs text-ink-muted">
                        /.proxy{i === 0 ? "" : normalizeMappingPrefix(row.prefix.trim())}/… → https://
                        {row.target.trim().replace(/\/+$/, "")}/…
                      </p>
                    )
                  )}
                </div>
                <div className="flex justify-end sm:block">
                  {i > 0 && (
                    <button
                      type="button"
                      onClick={() => setRows((current) => current.filter((r) => r.key !== row.key))}
                      aria-label={`Remove mapping ${row.prefix || i + 1}`}
                      className="flex size-9 items-center justify-center rounded-md text-ink-muted transition-colors hover:bg-danger/10 hover:text-danger"
                    >
                      <TrashIcon className="size-4" />
                    </button>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="button"
          disabled={rows.length > URL_MAPPINGS_MAX}
          onClick={() => setRows((current) => [...current, { key: nextKey++, prefix: "", target: "" }])}
          className="inline-flex items-center gap-1.5 rounded-md border border-line px-3 py-1.5 text-sm font-medium transition-colors hover:bg-surface-raised disabled:opacity-50"
        >
          <PlusIcon className="size-4" />
          Add Another URL Mapping
        </button>
        <div className="ml-auto flex items-center gap-3">
          {dirty && (
            <span className="text-sm text-[#A8650F] dark:text-warning">Careful — you have unsaved changes!</span>
          )}
          {dirty && (
            <button
              type="button"
              onClick={() => setRows(toRows(mappings))}
              className="text-sm font-medium hover:underline"
            >
              Reset
            </button>
          )}
          <button
            type="submit"
            disabled={!dirty || saving}
            className="rounded-md bg-success px-4 py-1.5 text-sm font-medium text-white transition-opacity hover:opacity-90 disabled:opacity-50"
          >
            Save Changes
          </button>
        </div>
      </div>
      <ActionStatus state={dirty && state.ok ? idle : state} pending={saving} />
    </form>
  );
}
