// Says so when nobody can join through an invite: invites paused in the server's settings (INVITES_DISABLED) or by a
// safety action until a time, with the way to Safety, where the pause is lifted.
import Link from "next/link";
import { Icons } from "@/components/ui/icons";
import { RelativeTime } from "@/components/ui/relative-time";

export function InvitesPausedBanner({
  guildId,
  paused,
  pausedUntil,
  now,
}: {
  guildId: string;
  /** INVITES_DISABLED: paused until someone resumes them. */
  paused: boolean;
  /** A safety action's pause, ISO; only while it lasts. */
  pausedUntil: string | null;
  now: number;
}) {
  const until = pausedUntil && Date.parse(pausedUntil) > now ? pausedUntil : null;
  if (!paused && !until) return null;
  return (
    <div
      role="status"
      className="mb-4 flex flex-wrap items-center justify-between gap-3 rounded-md border border-warning/50 bg-warning/10 p-3 text-sm"
    >
      <p className="flex items-center gap-2">
        <Icons.warning className="size-4 shrink-0" />
        <span>
          <strong>Invites are paused.</strong> Nobody can join through an invite link
          {until && !paused ? (
            <>
              {" "}
              until they resume <RelativeTime iso={until} now={now} />
            </>
          ) : (
            " until they are resumed"
          )}
          ; existing links show that the server is not accepting members.
        </span>
      </p>
      <Link prefetch={false} href={`/guilds/${guildId}/safety`} className="font-medium underline underline-offset-2">
        Manage in Safety
      </Link>
    </div>
  );
}
