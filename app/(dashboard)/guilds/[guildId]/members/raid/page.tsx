// Raid cleanup (issue #32): find the members a raid brought in (who joined within a window, to the minute; accounts
// younger than a number of days; no avatar; a name pattern on a linear-time engine), see them, and hand them to a bulk
// ban, kick or timeout, which previews every member against the moderator's rank before anything is sent. The filter
// lives in the URL; the search reads at most 25,000 members of the window (data/raid.ts).
import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/card";
import { BackLink } from "@/components/dashboard/back-link";
import { NoAccessPage } from "@/components/dashboard/no-access";
import { getSectionViewer, type GuildPageProps } from "@/lib/dashboard/data/section-viewer";
import { findRaidMembers, RAID_SCAN_MAX } from "@/lib/dashboard/data/raid";
import { firstParam } from "@/lib/dashboard/list-params";
import { RaidFilterSchema } from "@/lib/moderation/raid-filter";
import { RaidForm } from "./_components/raid-form";
import { RaidResults } from "./_components/raid-results";

export const metadata: Metadata = { title: "Raid cleanup" };

export default async function RaidCleanupPage({ params, searchParams }: GuildPageProps) {
  const { guildId } = await params;
  const query = await searchParams;
  const { viewer, section, blocked } = await getSectionViewer(guildId, "members");
  if (blocked) return <NoAccessPage section={section} reason={blocked} />;
  const raw = {
    joinedFrom: firstParam(query.from),
    joinedTo: firstParam(query.to),
    accountYoungerThanDays: firstParam(query.younger) || null,
    noAvatar: firstParam(query.noavatar) === "1",
    namePattern: firstParam(query.pattern) ?? "",
  };
  const asked = Boolean(raw.joinedFrom || raw.joinedTo);
  const parsed = asked ? RaidFilterSchema.safeParse(raw) : null;
  const search = parsed?.success ? await findRaidMembers(viewer, parsed.data) : null;
  return (
    <>
      <BackLink href={`/guilds/${guildId}/members`}>Members</BackLink>
      <PageHeader
        title="Raid cleanup"
        description="Find the members a raid brought in, then ban, kick or time them out together."
      />
      <RaidForm
        errors={
          parsed && !parsed.success
            ? Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message]))
            : {}
        }
      />
      {search && (
        <RaidResults
          guildId={guildId}
          matches={search.matches}
          scanned={search.scanned}
          truncated={search.truncated ? RAID_SCAN_MAX : null}
        />
      )}
    </>
  );
}
