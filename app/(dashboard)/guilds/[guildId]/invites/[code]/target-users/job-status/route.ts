// GET /guilds/{id}/invites/{code}/target-users/job-status: Get Target Users Job Status, polled by the invites page.
import { NextResponse } from "next/server";
import { toTargetUsersJob } from "@/lib/dashboard/actions/schemas/invites";
import { withGuildInvite } from "@/lib/dashboard/data/invite-route";

export const GET = withGuildInvite(async ({ api, code }) =>
  NextResponse.json(toTargetUsersJob(await api.invites.getTargetUsersJobStatus(code)), {
    headers: { "cache-control": "no-store" },
  }),
);
