// GET /guilds/{id}/bans/export: every ban as CSV, streamed. Each pull reads the next page of Get Guild Bans (1000,
// the API's maximum) after the last id written, so 100,000 bans are 100 requests and never all in memory. Who banned
// each user and when (the audit history, as the Bans page shows it) only for a viewer who may be told, as on the
// page (View Audit Log: lib/dashboard/data/ban-actors.ts); for anyone else those columns are left out, not empty.
import { NextResponse } from "next/server";
import { findSection, sectionDisabledReason } from "@/lib/dashboard/sections";
import { managementApi } from "@/lib/dashboard/data/api";
import { getGuildViewer } from "@/lib/dashboard/data/viewer";
import { BANS_LIMIT } from "@/lib/discord/limits";
import { csvLine } from "@/lib/dashboard/csv";
import { banActorsHidden, getBanActors } from "@/lib/dashboard/data/ban-actors";
import { syncAuditLog } from "@/lib/dashboard/data/audit-log";
import { componentLogger } from "@/lib/server/logger";

const log = componentLogger("bans-export");

const BAN_CSV_COLUMNS = ["user_id", "username", "global_name", "bot", "reason"] as const;
/** Who banned and when (the audit history; empty where it does not know), for viewers who may be told. */
const BAN_ACTOR_CSV_COLUMNS = ["banned_by_id", "banned_by_name", "banned_at"] as const;

export async function GET(_request: Request, { params }: { params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  const viewer = await getGuildViewer(guildId);
  const blocked = sectionDisabledReason(findSection("bans")!, viewer.permissions);
  if (blocked) return NextResponse.json({ message: `Bans ${blocked}.` }, { status: 403 });
  const api = await managementApi(viewer.session);
  const encoder = new TextEncoder();
  let after: string | null = "0";
  const withActors = banActorsHidden(viewer) === null;
  // The guild's audit log is imported once, before the first page is read.
  if (withActors) await syncAuditLog(viewer);

  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(
        encoder.encode(csvLine(withActors ? [...BAN_CSV_COLUMNS, ...BAN_ACTOR_CSV_COLUMNS] : BAN_CSV_COLUMNS)),
      );
    },
    async pull(controller) {
      if (after === null) return controller.close();
      try {
        const page = await api.bans.list(guildId, { limit: BANS_LIMIT.max, after });
        const actors = withActors
          ? await getBanActors(
              viewer,
              page.map((ban) => ban.user.id),
              { sync: false },
            )
          : {};
        controller.enqueue(
          encoder.encode(
            page
              .map((ban) => {
                const user = [ban.user.id, ban.user.username, ban.user.global_name, Boolean(ban.user.bot), ban.reason];
                if (!withActors) return csvLine(user);
                const actor = actors[ban.user.id];
                return csvLine([...user, actor?.by.id ?? null, actor?.by.displayName ?? null, actor?.at ?? null]);
              })
              .join(""),
          ),
        );
        after = page.length === BANS_LIMIT.max ? page[page.length - 1].user.id : null;
        if (after === null) controller.close();
      } catch (error) {
        // Headers are gone by now: a cut-off download is the only way left to say the export is incomplete.
        log.error({ err: error, guild_id: guildId, after }, "a ban export stopped");
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
