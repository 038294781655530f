import { Skeleton } from "@/components/ui/card";

export default function Loading() {
  return (
    <div aria-busy="true" aria-label="Loading bans" className="flex flex-col gap-2">
      <Skeleton className="h-8 w-40" />
      <Skeleton className="h-10" />
      {Array.from({ length: 8 }, (_, i) => (
        <Skeleton key={i} className="h-12" />
      ))}
    </div>
  );
}
