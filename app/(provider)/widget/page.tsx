// The embeddable server widget (the iframe snippet of the dashboard's Widget page points here, as Discord's points to
// discord.com/widget): public, from Get Guild Widget with no token.
import type { Metadata } from "next";
import { WidgetCard } from "@/components/widget/widget-card";
import { isSnowflake } from "@/lib/discord/snowflake";
import type { APIGuildWidget } from "discord-api-types/v10";
import { ApiError } from "@/lib/guild-api/errors";
import { getGuildWidget } from "@/lib/guild-api/services/widget";
import { publicOrigin } from "../_lib/public-origin";

export const metadata: Metadata = { title: "Server widget" };
export const dynamic = "force-dynamic";

type WidgetRead = { ok: true; widget: APIGuildWidget } | { ok: false; status: number; error: string };

/** Get Guild Widget as any embed sees it: a disabled widget (403) or an unknown guild is an answer, not a failure. */
async function readWidget(id: string): Promise<WidgetRead> {
  try {
    return { ok: true, widget: (await getGuildWidget(BigInt(id), await publicOrigin())) as APIGuildWidget };
  } catch (error) {
    if (error instanceof ApiError && error.status < 500)
      return { ok: false, status: error.status, error: error.message };
    throw error;
  }
}

export default async function WidgetPage({ searchParams }: { searchParams: Promise<{ id?: string; theme?: string }> }) {
  const { id, theme } = await searchParams;
  const look = theme === "light" ? "light" : "dark";
  const read =
    id && isSnowflake(id)
      ? await readWidget(id)
      : { ok: false as const, status: 400, error: "This widget link has no valid server id." };
  return (
    <main className="flex h-screen justify-center bg-transparent">
      {read.ok ? (
        <WidgetCard widget={read.widget} theme={look} className="h-full max-w-none" />
      ) : (
        <p role="alert" className="m-auto max-w-xs p-4 text-center text-sm">
          {read.status === 403 ? "This server's widget is turned off." : read.error}
        </p>
      )}
    </main>
  );
}
