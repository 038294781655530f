"use client";

// The raid's filter, kept in the URL: the join window in the moderator's local time (sent as UTC, to the minute), the
// account age, no avatar, and a name pattern checked as it is typed by the same linear-time engine the server uses.
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Field, fieldProps } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { useUrlState } from "@/components/data-table/url-state";
import { compileNamePattern, RAID_PATTERN_MAX } from "@/lib/moderation/raid-filter";

/** "2026-11-29T11:30Z" (UTC) ↔ the datetime-local input's local "2026-11-29T12:30". */
const toLocalInput = (utc: string | null) => {
  if (!utc) return "";
  const at = new Date(Date.parse(utc));
  return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
const toUtcMinute = (local: string) => (local ? `${new Date(local).toISOString().slice(0, 16)}Z` : null);

export function RaidForm({ errors }: { errors: Record<string, string> }) {
  const { params, set, pending } = useUrlState();
  const [from, setFrom] = useState(toLocalInput(params.get("from")));
  const [to, setTo] = useState(toLocalInput(params.get("to")));
  const [younger, setYounger] = useState(params.get("younger") ?? "");
  const [noAvatar, setNoAvatar] = useState(params.get("noavatar") === "1");
  const [pattern, setPattern] = useState(params.get("pattern") ?? "");
  const compiled = pattern ? compileNamePattern(pattern) : null;
  const patternError = compiled && !compiled.ok ? compiled.error : errors.namePattern;
  return (
    <form
      role="search"
      aria-label="Find raid members"
      className="mb-6 grid gap-4 sm:grid-cols-2"
      onSubmit={(e) => {
        e.preventDefault();
        set({
          from: toUtcMinute(from),
          to: toUtcMinute(to),
          younger: younger.trim() || null,
          noavatar: noAvatar ? "1" : null,
          pattern: pattern || null,
        });
      }}
    >
      <Field id="raid-from" label="Joined from (your local time)" error={errors.joinedFrom}>
        <Input
          type="datetime-local"
          {...fieldProps("raid-from", errors.joinedFrom)}
          value={from}
          onChange={(e) => setFrom(e.target.value)}
          required
        />
      </Field>
      <Field id="raid-to" label="Joined until (that minute included)" error={errors.joinedTo}>
        <Input
          type="datetime-local"
          {...fieldProps("raid-to", errors.joinedTo)}
          value={to}
          onChange={(e) => setTo(e.target.value)}
          required
        />
      </Field>
      <Field
        id="raid-younger"
        label="Account younger than (days) when they joined"
        hint="Empty: any age."
        error={errors.accountYoungerThanDays}
      >
        <Input
          {...fieldProps("raid-younger", errors.accountYoungerThanDays)}
          inputMode="numeric"
          value={younger}
          onChange={(e) => setYounger(e.target.value)}
          placeholder="e.g. 7"
        />
      </Field>
      <Field
        id="raid-pattern"
        label="Name matches (a regular expression, any case)"
        hint="Username, display name or nickname; e.g. ^free.?nitro. No backreferences or lookaround."
        error={patternError}
      >
        <Input
          {...fieldProps("raid-pattern", patternError)}
          value={pattern}
          maxLength={RAID_PATTERN_MAX}
          onChange={(e) => setPattern(e.target.value)}
          spellCheck={false}
          className="font-mono"
        />
      </Field>
      <label className="flex items-center gap-2 text-sm font-medium">
        <input
          type="checkbox"
          className="size-4 accent-blurple"
          checked={noAvatar}
          onChange={(e) => setNoAvatar(e.target.checked)}
        />
        Only members without an avatar
      </label>
      <div className="flex items-center gap-2 sm:col-span-2">
        <Button type="submit" pending={pending} disabled={Boolean(compiled && !compiled.ok)}>
          Find members
        </Button>
      </div>
    </form>
  );
}
