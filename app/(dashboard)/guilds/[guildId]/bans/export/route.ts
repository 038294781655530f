// GET /guilds/{id}/bans/export: every ban as CSV, streamed. Each pull reads the next page of Get Guild Bans (1000,
// the API's maximum) after the last id written, so 100,000 bans are 100 requests and never all in memory.
import { NextResponse } from "next/server";
import { findSection, sectionDisabledReason } from "@/lib/dashboard/sections";
import { managementApi } from "@/lib/dashboard/data/api";
import { getGuildViewer } from "@/lib/dashboard/data/viewer";
import { BANS_LIMIT } from "@/lib/discord/limits";
import { csvLine } from "@/lib/dashboard/csv";

const BAN_CSV_COLUMNS = ["user_id", "username", "global_name", "bot", "reason"] as const;

export async function GET(_request: Request, { params }: { params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  const viewer = await getGuildViewer(guildId);
  const blocked = sectionDisabledReason(findSection("bans")!, viewer.permissions);
  if (blocked) return NextResponse.json({ message: `Bans ${blocked}.` }, { status: 403 });
  const api = await managementApi(viewer.session);
  const encoder = new TextEncoder();
  let after: string | null = "0";

  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvLine(BAN_CSV_COLUMNS)));
    },
    async pull(controller) {
      if (after === null) return controller.close();
      try {
        const page = await api.bans.list(guildId, { limit: BANS_LIMIT.max, after });
        controller.enqueue(
          encoder.encode(
            page
              .map((ban) =>
                csvLine([ban.user.id, ban.user.username, ban.user.global_name, Boolean(ban.user.bot), ban.reason]),
              )
              .join(""),
          ),
        );
        after = page.length === BANS_LIMIT.max ? page[page.length - 1].user.id : null;
        if (after === null) controller.close();
      } catch (error) {
        // Headers are gone by now: a cut-off download is the only way left to say the export is incomplete.
        console.error(`[bans export] ${guildId} stopped after ${after}:`, error);
        controller.error(error);
      }
    },
  });

  const stamp = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="guildhall-bans-${guildId}-${stamp}.csv"`,
      "cache-control": "no-store",
    },
  });
}
