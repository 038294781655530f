// GET /guilds/{id}/invites/{code}/target-users: Get Target Users as a CSV download, proxied with the moderator's token.
import { NextResponse } from "next/server";
import { withGuildInvite } from "@/lib/dashboard/data/invite-route";

export const GET = withGuildInvite(async ({ api, code }) => {
  const csv = await api.invites.getTargetUsers(code);
  return new NextResponse(csv ?? "user_id\n", {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="invite-${code}-target-users.csv"`,
      "cache-control": "no-store",
    },
  });
});
