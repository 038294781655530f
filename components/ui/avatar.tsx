import { cn } from "./cn";

/** An image, or the name's initials on a colour derived from the id (Discord's fallback look). */
export function Avatar({
  src,
  name,
  id,
  size = 40,
  className,
  rounded = "full",
}: {
  src?: string | null;
  name: string;
  id: string;
  size?: number;
  className?: string;
  rounded?: "full" | "xl";
}) {
  const radius = rounded === "full" ? "rounded-full" : "rounded-2xl";
  if (src) {
    return (
      // eslint-disable-next-line @next/next/no-img-element -- CDN images of any origin, sized by the caller
      <img
        src={src}
        alt=""
        width={size}
        height={size}
        className={cn(radius, "shrink-0 object-cover", className)}
        style={{ width: size, height: size }}
      />
    );
  }
  const initials =
    name
      .replace(/[^\p{L}\p{N} ]/gu, " ")
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((w) => w[0]!.toUpperCase())
      .join("") || "?";
  const hue = Number(BigInt(/^\d+$/.test(id) ? id : "0") % 360n);
  // Dark enough under white initials for WCAG AA (at least 4.5:1) whatever the hue, yellow and green included.
  return (
    <span
      aria-hidden
      className={cn(radius, "inline-flex shrink-0 items-center justify-center font-semibold text-white", className)}
      style={{ width: size, height: size, fontSize: size * 0.38, background: `hsl(${hue} 50% 30%)` }}
    >
      {initials}
    </span>
  );
}
