"use client";

// Raid alerts (RAID_ALERTS_DISABLED) and the indefinite invite pause (INVITES_DISABLED): the Manage Server features
// of Modify Guild, each switched on its own.
import { useState } from "react";
import { Card, CardHeader } from "@/components/ui/card";
import { Switch } from "@/components/ui/switch";
import { useAction } from "@/components/dashboard/use-action";
import { setGuildFeatureAction } from "@/lib/dashboard/actions/safety";
import type { SAFETY_FEATURES } from "@/lib/dashboard/actions/schemas/safety";

type Feature = (typeof SAFETY_FEATURES)[number];

const TOGGLES: ReadonlyArray<{
  feature: Feature;
  label: string;
  description: string;
  on: (present: boolean) => boolean;
}> = [
  {
    feature: "RAID_ALERTS_DISABLED",
    label: "Raid alerts",
    description: "Alerts about suspicious join activity go to the safety notifications channel.",
    on: (present) => !present,
  },
  {
    feature: "INVITES_DISABLED",
    label: "Pause invites until resumed",
    description:
      "Unlike the incident pause above, this has no end time: nobody joins through an invite until you turn it off .",
    on: (present) => present,
  },
];

export function SafetyFeatures({ guildId, features }: { guildId: string; features: readonly string[] }) {
  const [present, setPresent] = useState(() => new Set(features));
  const { run, pending } = useAction(setGuildFeatureAction, { failure: "Couldn't change the feature" });

  // The switch moves at once; the server's answer then sets every feature as it really is (or undoes the move).
  const toggle = async (feature: Feature, enabled: boolean) => {
    const previous = present;
    setPresent(new Set(enabled ? [...present, feature] : [...present].filter((f) => f !== feature)));
    const result = await run({ guildId, feature, enabled });
    setPresent(result.ok ? new Set(result.data.features) : previous);
  };

  return (
    <Card>
      <CardHeader title="Alerts and invites" />
      <div className="divide-y divide-line">
        {TOGGLES.map((t) => (
          <Switch
            key={t.feature}
            id={`feature-${t.feature}`}
            label={t.label}
            description={t.description}
            checked={t.on(present.has(t.feature))}
            disabled={pending}
            // The switch shows "alerts on" for RAID_ALERTS_DISABLED absent: turning it on removes the feature.
            onChange={(e) => toggle(t.feature, t.on(true) === e.target.checked)}
          />
        ))}
      </div>
    </Card>
  );
}
