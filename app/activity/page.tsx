import type { Metadata } from "next";
import { activityClientId } from "@/lib/activity/config";
import { ActivityApp } from "./_components/activity-app";

export const metadata: Metadata = { title: "Activity" };
// The client id comes from the environment (or the demo secrets) at request time.
export const dynamic = "force-dynamic";

export default async function ActivityPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { frame_id: frameId } = await searchParams;
  const clientId = activityClientId();
  if (!clientId) {
    return (
      <main className="mx-auto max-w-2xl p-6">
        <h1 className="text-2xl font-semibold">Guildhall Activity</h1>
        <p className="text-ink-muted">
          Set ACTIVITY_CLIENT_ID and ACTIVITY_CLIENT_SECRET (or run `npm run seed`) to configure the Activity.
        </p>
      </main>
    );
  }
  // Images: the built-in API serves /cdn on this origin; against Discord set ACTIVITY_CDN_URL=https://cdn.discordapp.com.
  return (
    <ActivityApp clientId={clientId} cdnBase={process.env.ACTIVITY_CDN_URL ?? "/cdn"} launched={Boolean(frameId)} />
  );
}
