// Finding (bot mode, job controls): in bot mode the API sees only the bot, so every dashboard action must judge the
// moderator itself. Starting, pausing and cancelling a bulk member action judged nobody: their only check asked the
// API (with the bot's token) whether the guild's members could be searched, so any signed-in user who learned a job's
// id could stop or resume a moderator's job in a guild they are not in. Each job control now carries the same guard
// as the API's rule for the moderator's own token (Search Guild Members v2), and the action client runs the guard of
// every action in bot mode (tests/unit/door-policies.test.ts checks that each action has one).
import { beforeAll, describe, expect, it } from "vitest";
import type { GuildActionDefinition } from "@/lib/dashboard/actions/action-client";
import { testServerForFile } from "../integration/harness";
import { actionAs, apiClientAs, type DemoUser } from "../integration/dashboard/harness";

const server = testServerForFile();

let actions: typeof import("@/lib/dashboard/actions/member-jobs");
let jobs: typeof import("@/lib/dashboard/jobs/member-actions/jobs");

beforeAll(async () => {
  actions = await import("@/lib/dashboard/actions/member-jobs");
  jobs = await import("@/lib/dashboard/jobs/member-actions/jobs");
});

const botMode = <S extends Parameters<typeof actionAs>[3]["schema"], R>(
  who: DemoUser,
  definition: GuildActionDefinition<S, R>,
) => actionAs(server, who, "bot", definition).run;

/** A moderator's prepared bulk timeout of one plain member, in bot mode. */
async function preparedJob(): Promise<string> {
  const guildId = server.world.guildId;
  const plain = await (
    await apiClientAs(server, "owner")
  ).members.searchV2(guildId, { and_query: { has_no_roles: true, is_bot: false }, limit: 5 });
  const target = plain.members.map((m) => m.member.user.id).find((id) => id !== server.world.users.owner)!;
  const prepared = await botMode(
    "mod",
    actions.prepareMemberJobAction.definition,
  )({ guildId, action: "timeout", until: new Date(Date.now() + 3_600_000).toISOString(), userIds: [target] });
  if (!prepared.ok) throw new Error(prepared.error);
  return prepared.data.jobId;
}

describe("bot mode: a bulk member action's controls judge the moderator, not the bot", () => {
  it.each(["outsider", "member"] as const)(
    "%s can neither start, pause nor cancel a moderator's job; the moderator can",
    async (who) => {
      const guildId = server.world.guildId;
      const jobId = await preparedJob();
      const controls = {
        start: botMode(who, actions.startMemberJobAction.definition),
        pause: botMode(who, actions.pauseMemberJobAction.definition),
        cancel: botMode(who, actions.cancelMemberJobAction.definition),
      };
      for (const [control, run] of Object.entries(controls))
        expect(await run({ guildId, jobId }), control).toMatchObject({ ok: false });
      expect((await jobs.getMemberJob(guildId, jobId))!.status).toBe("ready");

      expect(await botMode("mod", actions.cancelMemberJobAction.definition)({ guildId, jobId })).toMatchObject({
        ok: true,
      });
      expect((await jobs.getMemberJob(guildId, jobId))!.status).toBe("cancelled");
    },
  );
});
