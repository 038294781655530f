"use client";

// An invite's link with a button that copies it (the link stays selectable where the clipboard is unavailable).
import { useCopy } from "@/components/dashboard/use-copy";
import { Button } from "@/components/ui/button";
import { Icons } from "@/components/ui/icons";
import { cn } from "@/components/ui/cn";

export function CopyInviteLink({ url, compact, className }: { url: string; compact?: boolean; className?: string }) {
  const { copied, copy: copyText } = useCopy(2000);
  const copy = () => copyText(url);
  if (compact)
    return (
      <Button
        size="sm"
        variant="ghost"
        onClick={copy}
        aria-label={copied ? `Copied ${url}` : `Copy link ${url}`}
        className={className}
      >
        <Icons.link className="size-4" /> {copied ? "Copied" : "Copy link"}
      </Button>
    );
  return (
    <div className={cn("flex min-w-0 flex-wrap items-center gap-2", className)}>
      <input
        readOnly
        value={url}
        aria-label="Invite link"
        onFocus={(e) => e.currentTarget.select()}
        className="min-w-0 flex-1 rounded-md bg-surface-sunken px-3 py-2 font-mono text-sm ring-1 ring-inset ring-line"
      />
      <Button onClick={copy} variant="secondary">
        <Icons.link className="size-4" /> {copied ? "Copied" : "Copy link"}
      </Button>
      <span role="status" className="sr-only">
        {copied ? "Link copied" : ""}
      </span>
    </div>
  );
}
