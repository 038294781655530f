"use client";

// Voice, while the member is connected: server mute and deafen, move to another voice channel, disconnect. Each
// button is one change (nothing to save, so nothing unsaved).
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { DisabledReason } from "@/components/ui/card";
import { Select } from "@/components/ui/input";
import { useAction } from "@/components/dashboard/use-action";
import { setMemberVoiceAction } from "@/lib/dashboard/actions/members";
import type { FieldErrors } from "@/lib/dashboard/actions/action-client";
import { ActionErrors, PanelSection } from "./panel-section";

export interface VoicePermissions {
  mute: string | null;
  deafen: string | null;
  move: string | null;
}

export function VoiceControls({
  guildId,
  userId,
  channelId,
  mute,
  deaf,
  voiceChannels,
  perms,
}: {
  guildId: string;
  userId: string;
  /** The member's voice channel; null when not connected, undefined when the API cannot tell. */
  channelId: string | null | undefined;
  mute: boolean;
  deaf: boolean;
  voiceChannels: Array<{ id: string; name: string }>;
  perms: VoicePermissions;
}) {
  const action = useAction(setMemberVoiceAction, { failure: "Couldn't change the voice state" });
  const [moveTo, setMoveTo] = useState("");
  const [errors, setErrors] = useState<FieldErrors | null>(null);
  const base = { guildId, userId };
  const run = async (change: { mute?: boolean; deaf?: boolean; channel_id?: string | null }) => {
    const result = await action.run({ ...base, ...change });
    setErrors(result.ok ? null : result.fieldErrors);
  };
  const channelName = channelId ? (voiceChannels.find((c) => c.id === channelId)?.name ?? channelId) : null;

  return (
    <PanelSection title="Voice">
      {channelId === null ? (
        <p className="text-sm text-ink-muted">Not in a voice channel.</p>
      ) : (
        <div className="flex flex-col gap-3">
          <p className="text-sm">
            {channelName ? (
              <>
                Connected to <strong>{channelName}</strong>.
              </>
            ) : (
              <span className="text-ink-muted">Voice state unknown: changes apply only while they are connected.</span>
            )}
          </p>
          <div className="flex flex-wrap items-center gap-2">
            <Button
              size="sm"
              variant="secondary"
              pending={action.pending}
              disabled={Boolean(perms.mute)}
              title={perms.mute ?? undefined}
              onClick={() => void run({ mute: !mute })}
            >
              {mute ? "Unmute" : "Server mute"}
            </Button>
            <Button
              size="sm"
              variant="secondary"
              pending={action.pending}
              disabled={Boolean(perms.deafen)}
              title={perms.deafen ?? undefined}
              onClick={() => void run({ deaf: !deaf })}
            >
              {deaf ? "Undeafen" : "Server deafen"}
            </Button>
            <Select
              aria-label="Move to channel"
              value={moveTo}
              onChange={(e) => setMoveTo(e.target.value)}
              disabled={Boolean(perms.move)}
              className="h-8 w-44 py-0 text-xs"
            >
              <option value="">Move to…</option>
              {voiceChannels
                .filter((c) => c.id !== channelId)
                .map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
            </Select>
            <Button
              size="sm"
              variant="secondary"
              disabled={Boolean(perms.move) || !moveTo}
              onClick={() => void run({ channel_id: moveTo })}
            >
              Move
            </Button>
            <Button
              size="sm"
              variant="ghost"
              className="text-danger"
              disabled={Boolean(perms.move)}
              onClick={() => void run({ channel_id: null })}
            >
              Disconnect
            </Button>
          </div>
          <span className="flex flex-wrap gap-3">
            <DisabledReason reason={perms.mute && `Mute: ${perms.mute}`} />
            <DisabledReason reason={perms.deafen && `Deafen: ${perms.deafen}`} />
            <DisabledReason reason={perms.move && `Move: ${perms.move}`} />
          </span>
        </div>
      )}
      <ActionErrors message={errors ? Object.values(errors).flat().join(" ") : undefined} />
    </PanelSection>
  );
}
