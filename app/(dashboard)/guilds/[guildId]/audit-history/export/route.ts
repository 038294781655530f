// GET /guilds/{id}/audit-history/export: the filtered audit history as CSV (the guild's own log imported first), each
// entry with its sentence; the entries the viewer may see, as on the page (data/audit-history.ts).
import { NextResponse, type NextRequest } from "next/server";
import { auditEntriesToCsv } from "@/lib/dashboard/audit/history";
import { describeEntry } from "@/lib/dashboard/audit/sentences";
import { exportAuditHistory } from "@/lib/dashboard/data/audit-history";
import { findSection, sectionDisabledReason } from "@/lib/dashboard/sections";
import { getGuildViewer } from "@/lib/dashboard/data/viewer";
import { auditFilterFrom } from "../filters";

const EXPORT_WAIT_MS = 10_000;

export async function GET(request: NextRequest, { params }: { params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  const viewer = await getGuildViewer(guildId);
  const blocked = sectionDisabledReason(findSection("audit-history")!, viewer.permissions);
  if (blocked) return NextResponse.json({ message: `Audit history ${blocked}.` }, { status: 403 });
  // A file is kept: it waits for the import to finish (newest first, so a slow one still has the latest entries).
  const entries = await exportAuditHistory(viewer, auditFilterFrom(request.nextUrl.searchParams), EXPORT_WAIT_MS);
  const stamp = new Date().toISOString().slice(0, 10);
  return new NextResponse(
    auditEntriesToCsv(entries, (entry) => describeEntry(entry).text),
    {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="guildhall-audit-${guildId}-${stamp}.csv"`,
        "cache-control": "no-store",
      },
    },
  );
}
