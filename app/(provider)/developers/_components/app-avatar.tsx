// An application's avatar: its initial on a colour derived from its name (Guildhall stores no app icons yet).
const COLORS = [
  "bg-blurple",
  "bg-[#3BA55C]",
  "bg-[#EB459E]",
  "bg-[#FAA61A]",
  "bg-[#ED4245]",
  "bg-[#5865F2]",
  "bg-[#1ABC9C]",
];

export function AppAvatar({ name, className = "" }: { name: string; className?: string }) {
  const color = COLORS[[...name].reduce((sum, ch) => sum + ch.codePointAt(0)!, 0) % COLORS.length];
  return (
    <span
      aria-hidden
      className={`flex shrink-0 items-center justify-center rounded-2xl font-bold text-white ${color} ${className}`}
    >
      {name.slice(0, 1).toUpperCase()}
    </span>
  );
}
