import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, test } from "vitest";
import {
  checkOnboardingRules,
  countedChannelIds,
  everyoneAccess,
  everyoneCanChat,
  type OnboardingRuleChannel,
  type OnboardingRuleDraft,
} from "@/lib/discord/onboarding-rules";
import { GUILD, guildContext } from "./test-guild";

const MOD_ROLE = "1100000000000000005";
const context = guildContext(P.ViewChannel | P.SendMessages | P.Connect, [[MOD_ROLE, P.ManageGuild]]);
const readOnly = [{ id: GUILD, type: 0 as const, allow: 0n, deny: P.SendMessages }];
const hidden = [
  { id: GUILD, type: 0 as const, allow: 0n, deny: P.ViewChannel },
  { id: MOD_ROLE, type: 0 as const, allow: P.ViewChannel, deny: 0n },
];

const channel = (
  n: number,
  name: string,
  type = 0,
  overwrites: OnboardingRuleChannel["overwrites"] = [],
): OnboardingRuleChannel => ({ id: `12000000000000000${String(n).padStart(2, "0")}`, name, type, overwrites });
const rules = channel(1, "rules", 0, readOnly);
const news = channel(2, "news", 5, readOnly);
const general = channel(3, "general");
const offTopic = channel(4, "off-topic");
const help = channel(5, "help");
const memes = channel(6, "memes");
const ideas = channel(7, "ideas", 15);
const staff = channel(8, "staff", 0, hidden);
const category = channel(9, "Community", 4);
const lounge = channel(10, "Lounge", 2);
const channels = [rules, news, general, offTopic, help, memes, ideas, staff, category, lounge];
const guild = { context, channels };

const draft = (partial: Partial<OnboardingRuleDraft>): OnboardingRuleDraft => ({
  enabled: true,
  mode: 0,
  default_channel_ids: [],
  prompts: [],
  ...partial,
});
const ids = (...list: OnboardingRuleChannel[]) => list.map((c) => c.id);

describe("everyoneCanChat", () => {
  test("needs both View Channel and Send Messages for @everyone after overwrites", () => {
    expect(everyoneCanChat(context, [])).toBe(true);
    expect(everyoneCanChat(context, readOnly)).toBe(false);
    // A role's allow does not make a channel @everyone's.
    expect(everyoneCanChat(context, hidden)).toBe(false);
    expect(
      everyoneCanChat({ ...context, roles: [{ id: GUILD, position: 0, permissions: P.ViewChannel }] }, [
        { id: GUILD, type: 0, allow: P.SendMessages, deny: 0n },
      ]),
    ).toBe(true);
  });
});

describe("checkOnboardingRules", () => {
  test("the seed-like onboarding (4 defaults, 2 writable) fails both rules and suggests the fewest channels to add", () => {
    const report = checkOnboardingRules(draft({ default_channel_ids: ids(rules, news, general, help) }), guild);
    expect(report.rules.map((r) => [r.id, r.have, r.need, r.met])).toEqual([
      ["channels", 4, 7, false],
      ["writable", 2, 5, false],
    ]);
    expect(report.met).toBe(false);
    expect(report.canSave).toBe(false);
    // 3 writable channels fix both rules; the hidden staff channel and the category are never suggested.
    expect(report.suggestions.map((s) => s.name)).toEqual(["off-topic", "memes", "ideas"]);
    expect(report.suggestions.every((s) => s.writable)).toBe(true);
    expect(report.unreachable).toBe(false);
  });

  test("adding the suggestions meets the rules", () => {
    const first = checkOnboardingRules(draft({ default_channel_ids: ids(rules, news, general, help) }), guild);
    const report = checkOnboardingRules(
      draft({ default_channel_ids: [...ids(rules, news, general, help), ...first.suggestions.map((s) => s.id)] }),
      guild,
    );
    expect(report.met).toBe(true);
    expect(report.canSave).toBe(true);
    expect(report.suggestions).toEqual([]);
  });

  test("seven channels with only four writable fail the second rule alone", () => {
    const report = checkOnboardingRules(
      draft({ default_channel_ids: ids(rules, news, staff, general, offTopic, help, memes) }),
      guild,
    );
    expect(report.rules[0].met).toBe(true);
    expect(report.rules[1]).toMatchObject({ have: 4, met: false });
    expect(report.suggestions.map((s) => s.name)).toEqual(["ideas"]);
  });

  test("a disabled onboarding may be saved whatever it counts", () => {
    const report = checkOnboardingRules(draft({ enabled: false, default_channel_ids: ids(general) }), guild);
    expect(report.met).toBe(false);
    expect(report.canSave).toBe(true);
  });

  test("default mode ignores the questions' channels; advanced mode counts those of questions shown during onboarding", () => {
    const prompts = [
      { in_onboarding: true, options: [{ channel_ids: ids(offTopic, memes) }, { channel_ids: ids(ideas, general) }] },
      { in_onboarding: false, options: [{ channel_ids: ids(lounge) }] },
    ];
    const defaults = ids(rules, news, general, help);
    expect(checkOnboardingRules(draft({ mode: 0, default_channel_ids: defaults, prompts }), guild).rules[0].have).toBe(
      4,
    );
    const advanced = checkOnboardingRules(draft({ mode: 1, default_channel_ids: defaults, prompts }), guild);
    expect(advanced.rules.map((r) => r.have)).toEqual([7, 5]);
    expect(advanced.met).toBe(true);
    expect(advanced.counted.find((c) => c.id === general.id)?.from).toBe("both");
    expect(advanced.counted.find((c) => c.id === memes.id)?.from).toBe("question");
    expect(advanced.counted.some((c) => c.id === lounge.id)).toBe(false);
    expect(countedChannelIds(draft({ mode: 1, prompts })).size).toBe(4);
  });

  test("ids that are not onboarding channels are reported and do not count", () => {
    const report = checkOnboardingRules(
      draft({ default_channel_ids: [category.id, "1300000000000000000", general.id] }),
      guild,
    );
    expect(report.unknown).toEqual([category.id, "1300000000000000000"]);
    expect(report.rules[0].have).toBe(1);
  });

  test("a guild without enough open channels is unreachable", () => {
    const report = checkOnboardingRules(draft({ default_channel_ids: ids(general) }), {
      context,
      channels: [rules, news, general, offTopic, staff],
    });
    expect(report.unreachable).toBe(true);
    expect(report.suggestions.map((s) => s.name)).toEqual(["off-topic", "rules", "news", "staff"]);
  });

  test("an @everyone role holding Administrator counts every channel as writable", () => {
    const admin = { ...context, roles: [{ id: GUILD, position: 0, permissions: P.Administrator }] };
    const report = checkOnboardingRules(
      draft({ default_channel_ids: ids(rules, news, staff, general, offTopic, help, memes) }),
      { context: admin, channels },
    );
    expect(report.rules[1].have).toBe(7);
  });
});

describe("everyoneAccess", () => {
  test("tells a read-only channel from a hidden one", () => {
    expect(everyoneAccess(context, [])).toBe("chat");
    expect(everyoneAccess(context, readOnly)).toBe("read-only");
    expect(everyoneAccess(context, hidden)).toBe("hidden");
  });
});
