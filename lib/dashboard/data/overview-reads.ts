// Every read of the overview page, started at once (they do not depend on each other, except the member scan, which
// needs the member count first): the stats, the growth chart, the recent moderation and the attention list then wait
// for the slowest single read instead of the sum of their chains. Started once per request (React cache); each
// promise is the one its card awaits, so a failure still reaches that card's error boundary.
import "server-only";
import { cache } from "react";
import { getGuildChannels } from "./channels";
import { getAttentionReads, getAuditWindow, getMemberScan, getOverviewCounts } from "./overview";
import type { GuildViewer } from "./viewer";

export type OverviewReads = ReturnType<typeof startOverviewReads>;

export const startOverviewReads = cache((viewer: GuildViewer, now: number) => {
  const counts = getOverviewCounts(viewer);
  const reads = {
    counts,
    scan: counts.then((c) => getMemberScan(viewer, c.members)),
    audit: getAuditWindow(viewer, now),
    channels: getGuildChannels(viewer),
    attention: getAttentionReads(viewer, now),
  };
  // Awaited by the cards (which show the error); this only keeps a read that fails before its card awaits it from
  // being reported as an unhandled rejection.
  for (const read of Object.values(reads)) read.catch(() => undefined);
  return reads;
});
