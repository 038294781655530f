// Every dashboard page needs a signed-in moderator (checked here and again by every read and action) and toasts.
// The check sits inside a Suspense boundary, as do the guild shell's reads: the document head and a skeleton go out
// at once, and the first byte never waits for the session store or the guild API.
import { Suspense } from "react";
import { Toaster } from "@/components/ui/toast";
import { requireDashboardSession } from "@/lib/dashboard/auth/session";
import { DashboardSkeleton } from "@/components/dashboard/dashboard-skeleton";

export const dynamic = "force-dynamic";

export default function DashboardLayout({ children }: { children: React.ReactNode }) {
  return (
    <Toaster>
      <Suspense fallback={<DashboardSkeleton />}>
        <SignedIn>{children}</SignedIn>
      </Suspense>
    </Toaster>
  );
}

async function SignedIn({ children }: { children: React.ReactNode }) {
  await requireDashboardSession();
  return children;
}
