import { Skeleton } from "@/components/ui/card";

export default function Loading() {
  return (
    <div aria-busy="true" aria-label="Loading channels" className="flex flex-col gap-3">
      <Skeleton className="h-8 w-48" />
      {Array.from({ length: 10 }, (_, i) => (
        <Skeleton key={i} className={i % 4 === 0 ? "h-6 w-40" : "ml-6 h-9"} />
      ))}
    </div>
  );
}
