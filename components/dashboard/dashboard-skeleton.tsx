// What a dashboard page shows while its session and first reads stream in: the shell's outline, no content.
import { Skeleton } from "@/components/ui/card";

export function DashboardSkeleton() {
  return (
    <div className="flex min-h-screen" aria-busy="true" aria-label="Loading">
      <aside className="hidden w-64 shrink-0 flex-col gap-4 border-r border-line bg-surface-raised p-3 md:flex">
        <div className="flex items-center gap-3 px-1">
          <Skeleton className="size-10 rounded-xl" />
          <Skeleton className="h-4 w-32" />
        </div>
        {Array.from({ length: 9 }, (_, i) => (
          <Skeleton key={i} className="h-7 w-full" />
        ))}
      </aside>
      <main className="mx-auto w-full max-w-6xl flex-1 px-4 py-6 md:px-8 md:py-8">
        <Skeleton className="h-8 w-48" />
        <Skeleton className="mt-3 h-4 w-96 max-w-full" />
        <div className="mt-8 flex flex-col gap-3">
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} className="h-12 w-full" />
          ))}
        </div>
      </main>
    </div>
  );
}
