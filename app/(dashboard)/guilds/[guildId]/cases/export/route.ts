// GET /guilds/{id}/cases/export: the filtered cases as CSV, the cases the viewer may see (data/cases.ts), newest
// first: number, time, type, member, moderator, reason, length and end, where it was done, the audit-log entry.
import { NextResponse, type NextRequest } from "next/server";
import { casesToCsv } from "@/lib/dashboard/cases/csv";
import { exportGuildCases } from "@/lib/dashboard/data/cases";
import { findSection, sectionDisabledReason } from "@/lib/dashboard/sections";
import { getGuildViewer } from "@/lib/dashboard/data/viewer";
import { caseFilterFrom } from "../filters";

const EXPORT_WAIT_MS = 10_000;

export async function GET(request: NextRequest, { params }: { params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  const viewer = await getGuildViewer(guildId);
  const blocked = sectionDisabledReason(findSection("cases")!, viewer.permissions);
  if (blocked) return NextResponse.json({ message: `Cases ${blocked}.` }, { status: 403 });
  const cases = await exportGuildCases(viewer, caseFilterFrom(request.nextUrl.searchParams), EXPORT_WAIT_MS);
  const stamp = new Date().toISOString().slice(0, 10);
  return new NextResponse(casesToCsv(cases), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="guildhall-cases-${guildId}-${stamp}.csv"`,
      "cache-control": "no-store",
    },
  });
}
