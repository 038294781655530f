"use client";

// Verification level and explicit content filter, saved through Modify Guild with only the field that changed.
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { LevelSelect, type LevelOption } from "@/components/dashboard/level-select";
import { useAction } from "@/components/dashboard/use-action";
import { modifyGuildAction } from "@/lib/dashboard/actions/guilds";
import { EXPLICIT_CONTENT_FILTERS, VERIFICATION_LEVELS } from "@/lib/dashboard/actions/schemas/guilds";
import { ReasonInput } from "@/components/dashboard/reason-input";
import { useUnsavedChanges } from "@/components/dashboard/unsaved-changes";

export function ModerationLevels({
  guildId,
  verificationLevel,
  explicitContentFilter,
}: {
  guildId: string;
  verificationLevel: number;
  explicitContentFilter: number;
}) {
  const [loaded, setLoaded] = useState({
    verification_level: verificationLevel,
    explicit_content_filter: explicitContentFilter,
  });
  const [values, setValues] = useState(loaded);
  const [reason, setReason] = useState("");
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const { run, pending } = useAction(modifyGuildAction, { failure: "Couldn't save the safety levels" });
  const changed = (Object.keys(values) as Array<keyof typeof values>).filter((key) => values[key] !== loaded[key]);
  useUnsavedChanges(changed.length > 0);

  const save = async () => {
    setErrors({});
    const result = await run({
      guildId,
      reason: reason || undefined,
      ...Object.fromEntries(changed.map((key) => [key, values[key]])),
    });
    if (result.ok) {
      setLoaded(values);
      setReason("");
    } else {
      setErrors(result.fieldErrors);
    }
  };

  const select = (name: keyof typeof values, label: string, options: readonly LevelOption[]) => (
    <LevelSelect
      id={name}
      label={label}
      options={options}
      current={values[name]}
      error={errors[name]}
      value={values[name]}
      onChange={(e) => setValues((v) => ({ ...v, [name]: Number(e.target.value) }))}
    />
  );

  return (
    <Card>
      <CardHeader
        title="Who can talk, and what gets scanned"
        description="Raise the verification level during a raid: new accounts then wait before they can talk."
      />
      <div className="grid grid-cols-1 gap-5 md:grid-cols-2">
        {select("verification_level", "Verification level", VERIFICATION_LEVELS)}
        {select("explicit_content_filter", "Explicit image filter", EXPLICIT_CONTENT_FILTERS)}
      </div>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <ReasonInput
          label="Reason for the change (audit log)"
          placeholder="Reason (optional, goes to the audit log)"
          value={reason}
          onChange={setReason}
          className="max-w-md flex-1"
        />
        <Button onClick={save} pending={pending} disabled={changed.length === 0}>
          Save levels
        </Button>
      </div>
    </Card>
  );
}
