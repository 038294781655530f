// Every dashboard page needs a signed-in moderator (checked here and again by every read and action) and toasts.
import { Toaster } from "@/components/ui/toast";
import { HydrationMarker } from "@/components/dashboard/hydration-marker";
import { requireDashboardSession } from "@/lib/auth/session";

export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  await requireDashboardSession();
  return (
    <Toaster>
      <HydrationMarker />
      {children}
    </Toaster>
  );
}
