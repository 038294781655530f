// The public ban appeal pages (issue #32): no dashboard session here. A banned user signs in with identify only
// (lib/dashboard/appeals/sign-in.ts) and sees nothing but their own ban and appeals.
import { Toaster } from "@/components/ui/toast";

export const dynamic = "force-dynamic";

export default function AppealLayout({ children }: { children: React.ReactNode }) {
  return (
    <Toaster>
      <main className="mx-auto flex min-h-dvh max-w-xl flex-col justify-center gap-6 px-4 py-10">{children}</main>
    </Toaster>
  );
}
