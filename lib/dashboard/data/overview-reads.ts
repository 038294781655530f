// Every read of the overview page, started at once (they do not depend on each other, except the member scan, which
// needs the member count first): the stats, the growth chart, the recent moderation and the attention list then wait
// for the slowest single read instead of the sum of their chains. Started once per request (React cache); each card
// reads its promises with `use`, so a failure still reaches the page's error boundary.
import "server-only";
import { cache } from "react";
import { settledForUse } from "@/lib/dashboard/streaming";
import { getGuildChannels } from "./channels";
import { getAttentionReads, getAuditWindow, getMemberScan, getOverviewCounts } from "./overview";
import type { GuildViewer } from "./viewer";

export type OverviewReads = ReturnType<typeof startOverviewReads>;

export const startOverviewReads = cache((viewer: GuildViewer, now: number) => {
  const counts = getOverviewCounts(viewer);
  return {
    counts: settledForUse(counts),
    scan: settledForUse(counts.then((c) => getMemberScan(viewer, c.members))),
    audit: settledForUse(getAuditWindow(viewer, now)),
    channels: settledForUse(getGuildChannels(viewer)),
    attention: settledForUse(getAttentionReads(viewer, now)),
  };
});
