// Cases as CSV (the cases page's export): one line per case, newest first, cells quoted and formulas neutralized by
// the shared writer.
import { csvLine } from "@/lib/dashboard/csv";
import { formatDuration } from "@/lib/moderation/durations";
import { CASE_TYPE_LABELS } from "./derive";
import type { CaseView } from "./store";

const HEADER = [
  "case",
  "time (UTC)",
  "type",
  "member id",
  "member",
  "moderator id",
  "moderator",
  "reason",
  "length",
  "ends (UTC)",
  "done in",
  "audit log entry",
];

export function casesToCsv(cases: readonly CaseView[]): string {
  return (
    csvLine(HEADER) +
    cases
      .map((c) =>
        csvLine([
          c.number,
          c.createdAt,
          CASE_TYPE_LABELS[c.type],
          c.targetId,
          c.targetName,
          c.moderatorId,
          c.moderatorName,
          c.reason ?? "",
          c.durationSeconds === null ? "" : formatDuration(c.durationSeconds * 1000),
          c.endsAt ?? "",
          c.source === "guild-log" ? "audit log" : "this dashboard",
          c.auditLogId ?? "",
        ]),
      )
      .join("")
  );
}
