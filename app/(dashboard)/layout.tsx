// Every dashboard page needs a signed-in moderator (checked here and again by every read and action) and toasts.
// The check runs before the first byte: a missing or expired session is a real redirect to sign in, and the guild
// shell below can answer a real 404. Each page's own reads stream behind its loading.tsx (the picker's in (picker)/).
import { Toaster } from "@/components/ui/toast";
import { requireDashboardSession } from "@/lib/dashboard/auth/session";

export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  await requireDashboardSession();
  return <Toaster>{children}</Toaster>;
}
