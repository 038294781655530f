import { Skeleton } from "@/components/ui/card";

export default function Loading() {
  return (
    <div aria-busy="true" aria-label="Loading the widget" className="flex flex-col gap-4">
      <Skeleton className="h-8 w-64" />
      <div className="grid gap-4 lg:grid-cols-[1fr_350px]">
        <Skeleton className="h-56" />
        <Skeleton className="h-[420px]" />
      </div>
      <Skeleton className="h-64" />
    </div>
  );
}
