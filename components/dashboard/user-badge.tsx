import { Avatar } from "@/components/ui/avatar";
import type { Actor } from "@/lib/dashboard/auth/session";

export function UserBadge({ actor }: { actor: Actor }) {
  return (
    <span className="flex min-w-0 items-center gap-2">
      <Avatar src={actor.image} name={actor.name} id={actor.id} size={28} />
      <span className="truncate text-sm font-medium">{actor.name}</span>
    </span>
  );
}
