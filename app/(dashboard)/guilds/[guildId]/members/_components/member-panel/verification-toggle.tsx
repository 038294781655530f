"use client";

// The one member flag a moderator may set, BYPASSES_VERIFICATION, named from lib/discord (never a bare bit). Each
// toggle is saved at once.
import { useState } from "react";
import { useAction } from "@/components/dashboard/use-action";
import { setMemberBypassesVerificationAction } from "@/lib/dashboard/actions/members";
import { GuildMemberFlags, hasMemberFlag } from "@/lib/discord/member-flags";
import { ActionErrors, PanelSection } from "./panel-section";

export function VerificationToggle({
  guildId,
  userId,
  flags,
  blocked,
}: {
  guildId: string;
  userId: string;
  flags: number;
  blocked: string | null;
}) {
  const action = useAction(setMemberBypassesVerificationAction, {
    failure: "Couldn't change the verification bypass",
  });
  const [error, setError] = useState<string | undefined>();
  const bypasses = hasMemberFlag(flags, GuildMemberFlags.BypassesVerification);
  return (
    <PanelSection title="Verification" reason={blocked}>
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          className="mt-0.5 size-4 accent-blurple"
          checked={bypasses}
          disabled={Boolean(blocked) || action.pending}
          onChange={async (e) => {
            const result = await action.run({ guildId, userId, bypassesVerification: e.target.checked });
            setError(result.ok ? undefined : result.error);
          }}
        />
        <span>
          Bypasses verification
          <span className="block text-xs text-ink-muted">
            Exempts this member from the server&apos;s verification level.
          </span>
        </span>
      </label>
      <ActionErrors message={error} />
    </PanelSection>
  );
}
