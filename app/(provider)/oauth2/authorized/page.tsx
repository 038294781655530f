// Where an install link without a redirect URI ends: the app is installed.
import type { Metadata } from "next";
import { isSnowflake } from "@/lib/discord/snowflake";
import { findGuild } from "@/lib/guild-api/store/guilds";

export const metadata: Metadata = { title: "Authorized" };
export const dynamic = "force-dynamic";

export default async function AuthorizedPage({ searchParams }: { searchParams: Promise<{ guild_id?: string }> }) {
  const { guild_id: guildId } = await searchParams;
  const guild = isSnowflake(guildId) ? await findGuild(BigInt(guildId)) : undefined;
  return (
    <main className="flex min-h-screen items-center justify-center bg-surface-sunken p-4">
      <div className="flex w-full max-w-md flex-col items-center gap-3 rounded-xl bg-surface p-6 text-center shadow-xl ring-1 ring-line">
        <div
          aria-hidden
          className="flex size-14 items-center justify-center rounded-full bg-success text-2xl text-white"
        >
          ✓
        </div>
        <h1 className="text-xl font-semibold">Authorized</h1>
        <p className="text-sm text-ink-muted">
          {guild ? `The app was added to ${guild.name}.` : "The app was added to your account."} You can close this
          window.
        </p>
      </div>
    </main>
  );
}
