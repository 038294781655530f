"use client";

// A widget member's avatar: the avatar_url the API gives (Discord's default avatars), or the initials when it cannot
// load (offline, blocked), with the presence dot either way.
import { useEffect, useRef, useState } from "react";
import { Avatar } from "@/components/ui/avatar";
import { cn } from "@/components/ui/cn";

const STATUS = {
  online: { color: "bg-[#23a55a]", label: "Online" },
  idle: { color: "bg-[#f0b232]", label: "Idle" },
  dnd: { color: "bg-[#f23f43]", label: "Do Not Disturb" },
} as const;

export function WidgetAvatar({
  src,
  name,
  index,
  status,
  size = 28,
}: {
  src: string | null;
  name: string;
  index: number;
  status: string;
  size?: number;
}) {
  const [failed, setFailed] = useState(false);
  const image = useRef<HTMLImageElement>(null);
  // A server-rendered image may fail before hydration attaches onError: check once mounted.
  useEffect(() => {
    if (image.current?.complete && image.current.naturalWidth === 0) setFailed(true);
  }, []);
  const presence = STATUS[status as keyof typeof STATUS] ?? { color: "bg-[#80848e]", label: "Offline" };
  return (
    <span className="relative inline-flex shrink-0" role="img" aria-label={`${name}, ${presence.label}`}>
      {src && !failed ? (
        // eslint-disable-next-line @next/next/no-img-element -- avatars of any CDN, sized here
        <img
          ref={image}
          src={src}
          alt=""
          width={size}
          height={size}
          onError={() => setFailed(true)}
          className="rounded-full object-cover"
          style={{ width: size, height: size }}
        />
      ) : (
        <Avatar name={name} id={String(index * 37 + 11)} size={size} />
      )}
      <span
        aria-hidden
        className={cn(
          "absolute -bottom-0.5 -right-0.5 size-3 rounded-full ring-[3px] ring-[var(--widget-bg)]",
          presence.color,
        )}
      />
    </span>
  );
}
