import { describe, expect, test } from "vitest";
import { ChannelType, PermissionFlagsBits as P } from "discord-api-types/v10";
import { answers, capabilitiesOf, roleSubject, type ExplorerNames } from "@/lib/dashboard/permission-explorer";
import { GUILD, guildContext } from "./test-guild";

const MOD = "1100000000000000020";
const ADMIN = "1100000000000000010";
const ctx = guildContext(P.ViewChannel | P.SendMessages | P.Connect, [
  [MOD, P.ManageChannels],
  [ADMIN, P.Administrator],
]);
const names: ExplorerNames = {
  guildId: GUILD,
  role: (id) => ({ [MOD]: "Moderator", [ADMIN]: "Admin" })[id] ?? id,
  member: (id) => `user ${id}`,
};
const hidden = [{ id: GUILD, type: 0 as const, allow: "0", deny: String(P.ViewChannel) }];
const byCapability = (list: ReturnType<typeof answers>) => Object.fromEntries(list.map((a) => [a.capability, a]));

describe("the explorer's answers", () => {
  test("the questions by channel type", () => {
    expect(capabilitiesOf(ChannelType.GuildText)).toEqual(["view", "send", "manage"]);
    expect(capabilitiesOf(ChannelType.GuildVoice)).toEqual(["view", "connect", "send", "manage"]);
    expect(capabilitiesOf(ChannelType.GuildCategory)).toEqual(["view", "manage"]);
  });

  test("without View Channel nothing else holds, as every channel operation of the API checks it first", () => {
    const found = byCapability(answers(ctx, roleSubject(MOD, GUILD), { type: 0, overwrites: hidden }, names));
    expect(found.view).toMatchObject({
      granted: false,
      because: "View Channel denied by channel overwrite for @everyone",
    });
    expect(found.manage).toMatchObject({ granted: false, because: "can't view the channel" });
    expect(found.manage.clues).toEqual([{ text: "Moderator", effect: "allows" }]);
  });

  test("administrators pass every overwrite; members in screening hold nothing; unset permissions say so", () => {
    const admin = byCapability(answers(ctx, roleSubject(ADMIN, GUILD), { type: 0, overwrites: hidden }, names));
    expect(admin.view).toMatchObject({ granted: true, because: "Administrator through Admin: overwrites don't apply" });
    const pending = answers(ctx, { userId: "5", roleIds: [MOD], pending: true }, { type: 0, overwrites: [] }, names);
    expect(pending.every((a) => !a.granted)).toBe(true);
    const everyone = byCapability(answers(ctx, roleSubject(GUILD, GUILD), { type: 0, overwrites: [] }, names));
    expect(everyone.manage).toMatchObject({ granted: false, because: "no role grants Manage Channel" });
    expect(everyone.send).toMatchObject({ granted: true, because: "Send Messages allowed by @everyone" });
  });
});
