"use client";

// A person wherever an id appears: avatar, name and @username, with the id one click away to copy.
import { Avatar } from "@/components/ui/avatar";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import type { UserRef } from "@/lib/dashboard/users/user-ref";
import { useCopy } from "./use-copy";

export function CopyIdButton({ id, label, className }: { id: string; label: string; className?: string }) {
  const { copied, copy } = useCopy();
  return (
    <button
      type="button"
      className={cn(
        "shrink-0 rounded px-1 font-mono text-[11px] text-ink-muted ring-1 ring-inset ring-line hover:bg-surface-sunken hover:text-ink focus-visible:outline-2",
        className,
      )}
      aria-label={copied ? `Copied the id of ${label}` : `Copy the id of ${label} (${id})`}
      title={`${id}: click to copy`}
      onClick={() => copy(id)}
    >
      <span aria-hidden>{copied ? "copied" : "id"}</span>
      <span role="status" className="sr-only">
        {copied ? "Copied" : ""}
      </span>
    </button>
  );
}

export function UserChip({
  user,
  size = 24,
  showUsername = true,
  className,
}: {
  user: UserRef;
  size?: number;
  showUsername?: boolean;
  className?: string;
}) {
  const unknown = user.status !== "found";
  return (
    <span
      className={cn("inline-flex min-w-0 max-w-full items-center gap-2 align-middle", className)}
      data-user-id={user.id}
    >
      <Avatar src={user.avatarUrl} name={unknown ? "?" : user.displayName} id={user.id} size={size} />
      <span className="flex min-w-0 flex-col leading-tight">
        <span className="flex min-w-0 items-center gap-1.5">
          <span className={cn("truncate font-medium", unknown && "font-mono text-xs")}>{user.displayName}</span>
          {user.bot && <Badge tone="blurple">Bot</Badge>}
          <CopyIdButton id={user.id} label={user.displayName} />
        </span>
        {showUsername && (
          <span className="truncate text-xs text-ink-muted">
            {user.status === "found"
              ? `@${user.username}`
              : user.status === "unknown"
                ? "no such user"
                : "name unavailable right now"}
          </span>
        )}
      </span>
    </span>
  );
}
