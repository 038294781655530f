"use client";

// "Try it": a sample message, or a member's name, run through the guild's enabled rules in the browser with the
// shared matcher (lib/dashboard/auto-moderation-trial.ts). Each rule that would act is named with the keyword or
// pattern that matched and the matched text highlighted in the sample.
import { useDeferredValue, useId, useMemo, useState } from "react";
import type { APIAutoModerationRule } from "discord-api-types/v10";
import { Textarea } from "@/components/ui/input";
import {
  compileRules,
  splitAtMatch,
  tryRules,
  type TrialHit,
  type TrialSubject,
} from "@/lib/dashboard/auto-moderation-trial";

const SUBJECTS: ReadonlyArray<{ value: TrialSubject; label: string; placeholder: string }> = [
  { value: "message", label: "Message", placeholder: "Type a message as a member would send it" },
  { value: "name", label: "Member name", placeholder: "Type a username, display name or nickname" },
];

/** What matched, in words: the keyword, the regex pattern, the word list or the mention limit. */
function whatMatched(hit: TrialHit) {
  const { kind, pattern } = hit.match;
  if (kind === "keyword")
    return (
      <>
        the keyword <code className="rounded bg-surface-sunken px-1">{pattern}</code>
      </>
    );
  if (kind === "regex")
    return (
      <>
        the regex pattern <code className="rounded bg-surface-sunken px-1">{pattern}</code>
      </>
    );
  if (kind === "preset") return <>a word from its lists</>;
  return <>too many mentions ({pattern})</>;
}

export function TryIt({ rules }: { rules: readonly APIAutoModerationRule[] }) {
  const id = useId();
  const [subject, setSubject] = useState<TrialSubject>("message");
  const [text, setText] = useState("");
  const sample = useDeferredValue(text);
  const compiled = useMemo(() => compileRules(rules), [rules]);
  const hits = useMemo(() => tryRules(compiled, subject, sample), [compiled, subject, sample]);
  const tried = compiled.filter((rule) => rule.subject === subject).length;
  const current = SUBJECTS.find((s) => s.value === subject)!;

  return (
    <section
      aria-labelledby={`${id}-title`}
      className="flex flex-col gap-3 self-start rounded-lg bg-surface-raised p-4 ring-1 ring-line sm:p-5 lg:sticky lg:top-4"
    >
      <div>
        <h2 id={`${id}-title`} className="text-base font-semibold">
          Try it
        </h2>
        <p className="mt-0.5 text-sm text-ink-muted">
          See which rules would act, before a member finds out. Only rules that are on are tried; exempt roles and
          channels don&apos;t apply here, and spam can&apos;t be judged from one message.
        </p>
      </div>
      <fieldset className="flex gap-1 rounded-md bg-surface-sunken p-1 text-sm">
        <legend className="sr-only">What to try</legend>
        {SUBJECTS.map((s) => (
          <label
            key={s.value}
            className="flex-1 cursor-pointer rounded px-2 py-1 text-center has-[:checked]:bg-surface-raised has-[:checked]:font-medium has-[:checked]:shadow has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-blurple"
          >
            <input
              type="radio"
              name={`${id}-subject`}
              className="sr-only"
              value={s.value}
              checked={subject === s.value}
              onChange={() => setSubject(s.value)}
            />
            {s.label}
          </label>
        ))}
      </fieldset>
      <label htmlFor={`${id}-sample`} className="sr-only">
        {subject === "message" ? "Sample message" : "Sample name"}
      </label>
      <Textarea
        id={`${id}-sample`}
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder={current.placeholder}
        rows={subject === "message" ? 4 : 1}
        maxLength={subject === "message" ? 4000 : 100}
        spellCheck={false}
      />
      <div role="status" aria-live="polite" data-testid="automod-try-result" className="text-sm">
        {tried === 0 ? (
          <p className="text-ink-muted">
            {subject === "message" ? "No message rule is on to try." : "No member-profile rule is on to try."}
          </p>
        ) : sample.trim() === "" ? (
          <p className="text-ink-muted">
            Type something to try {tried} rule{tried === 1 ? "" : "s"}.
          </p>
        ) : hits.length === 0 ? (
          <p className="font-medium text-success-ink">No rule matches.</p>
        ) : (
          <ul className="flex flex-col gap-2">
            {hits.map((hit) => {
              const [before, matched, after] = splitAtMatch(sample, hit.match);
              return (
                <li
                  key={hit.ruleId}
                  data-testid="automod-hit"
                  className="rounded-md bg-danger/10 p-2 ring-1 ring-inset ring-danger/30"
                >
                  <p>
                    <span className="font-semibold">{hit.ruleName}</span> matches {whatMatched(hit)}:
                  </p>
                  <p className="mt-1 whitespace-pre-wrap break-words rounded bg-surface px-2 py-1 text-ink-muted">
                    {before}
                    <mark className="rounded bg-warning/60 px-0.5 text-ink">{matched}</mark>
                    {after}
                  </p>
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </section>
  );
}
