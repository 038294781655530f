// AutoMod rules over HTTP: Discord's shapes (checked against the OpenAPI description), Manage Server for every route,
// each trigger type's metadata and actions, the limits, the per-type caps, refused regular expressions, the audit-log
// entries and gateway events, and member-profile rules blocking a member who joins or renames (the member flag, the
// action's dispatch and audit entry, the members-search filter), and unblocking them.
import { describe, expect, test } from "vitest";
import { AuditLogEvent, Routes, type APIAutoModerationRule } from "discord-api-types/v10";
import { auditEntries, eventsSince, fail, fieldCodes, lastEventId } from "./read-back";
import { testServerForFile } from "../harness";
import { sql } from "@/lib/guild-api/store/db";
import { expectOperationResponse } from "../openapi";

const server = testServerForFile({ rateLimits: { enabled: false } });

const QUARANTINED = 1 << 7;
const guild = () => server.world.guildId;
const rules = (as = "mod") =>
  server.rest(as).get(Routes.guildAutoModerationRules(guild())) as Promise<APIAutoModerationRule[]>;
const create = (body: Record<string, unknown>, as = "mod", reason?: string) =>
  server.rest(as).post(Routes.guildAutoModerationRules(guild()), { body, reason }) as Promise<APIAutoModerationRule>;
const modify = (id: string, body: Record<string, unknown>, as = "mod") =>
  server.rest(as).patch(Routes.guildAutoModerationRule(guild(), id), { body }) as Promise<APIAutoModerationRule>;
const remove = (id: string, as = "mod") => server.rest(as).delete(Routes.guildAutoModerationRule(guild(), id));
const block = { type: 1, metadata: { custom_message: "Please keep it civil." } };
const keywordRule = (extra: Record<string, unknown> = {}) => ({
  name: "Block words",
  event_type: 1,
  trigger_type: 1,
  trigger_metadata: { keyword_filter: ["cat*", "*dog"], regex_patterns: ["b[a4]d\\s*word"], allow_list: ["catalog"] },
  actions: [block],
  enabled: true,
  ...extra,
});

async function clearRules() {
  await sql.run("DELETE FROM auto_moderation_rules WHERE guild_id = ?", BigInt(guild()));
}

describe("AutoMod rules: reading and permissions", () => {
  test("Manage Server lists, gets, creates, modifies and deletes; others get 50013, outsiders 50001", async () => {
    await clearRules();
    const created = await create(keywordRule(), "mod", "words we do not use");
    expectOperationResponse("POST", "/guilds/{guild_id}/auto-moderation/rules", 200, created);
    expect(created).toMatchObject({
      guild_id: guild(),
      creator_id: server.world.users.mod,
      name: "Block words",
      event_type: 1,
      trigger_type: 1,
      trigger_metadata: {
        keyword_filter: ["cat*", "*dog"],
        regex_patterns: ["b[a4]d\\s*word"],
        allow_list: ["catalog"],
      },
      actions: [{ type: 1, metadata: { custom_message: "Please keep it civil." } }],
      enabled: true,
      exempt_roles: [],
      exempt_channels: [],
    });
    const listed = await rules();
    expectOperationResponse("GET", "/guilds/{guild_id}/auto-moderation/rules", 200, listed);
    expect(listed.map((rule) => rule.id)).toEqual([created.id]);
    const got = (await server
      .rest("mod")
      .get(Routes.guildAutoModerationRule(guild(), created.id))) as APIAutoModerationRule;
    expectOperationResponse("GET", "/guilds/{guild_id}/auto-moderation/rules/{rule_id}", 200, got);
    expect(got).toEqual(created);

    for (const who of ["helper", "member"]) {
      expect(await fail(rules(who))).toMatchObject({ status: 403, code: 50013 });
      expect(await fail(create(keywordRule(), who))).toMatchObject({ status: 403, code: 50013 });
      expect(await fail(remove(created.id, who))).toMatchObject({ status: 403, code: 50013 });
    }
    expect(await fail(rules("outsider"))).toMatchObject({ status: 403, code: 50001 });
    // The bot of the demo application holds Manage Server through its role.
    expect((await rules("bot")).length).toBe(1);
    expect(await fail(server.rest("mod").get(Routes.guildAutoModerationRule(guild(), "1234")))).toMatchObject({
      status: 404,
    });
  });

  test("create, modify and delete write their audit entries and dispatches", async () => {
    await clearRules();
    const before = await lastEventId();
    const created = await create(keywordRule(), "mod", "words we do not use");
    const modified = await modify(created.id, {
      name: "Block more words",
      trigger_metadata: { keyword_filter: ["*cat*"] },
    });
    expectOperationResponse("PATCH", "/guilds/{guild_id}/auto-moderation/rules/{rule_id}", 200, modified);
    // Fields of the metadata not sent stay.
    expect(modified.trigger_metadata).toEqual({
      keyword_filter: ["*cat*"],
      regex_patterns: ["b[a4]d\\s*word"],
      allow_list: ["catalog"],
    });
    await remove(created.id);
    const events = (await eventsSince(before)).filter((event) => event.type.startsWith("AUTO_MODERATION"));
    expect(events.map((event) => event.type)).toEqual([
      "AUTO_MODERATION_RULE_CREATE",
      "AUTO_MODERATION_RULE_UPDATE",
      "AUTO_MODERATION_RULE_DELETE",
    ]);
    expect(events[1].d).toMatchObject({ id: created.id, name: "Block more words" });

    const [createEntry] = await auditEntries(guild(), AuditLogEvent.AutoModerationRuleCreate, created.id);
    expect(createEntry).toMatchObject({ userId: server.world.users.mod, reason: "words we do not use" });
    expect(createEntry.changes.map((change) => change.key)).toEqual([
      "name",
      "event_type",
      "trigger_type",
      "trigger_metadata",
      "actions",
      "enabled",
      "exempt_roles",
      "exempt_channels",
    ]);
    const [updateEntry] = await auditEntries(guild(), AuditLogEvent.AutoModerationRuleUpdate, created.id);
    expect(updateEntry.changes.map((change) => change.key)).toEqual(["name", "trigger_metadata"]);
    expect(updateEntry.changes[0]).toEqual({ key: "name", old_value: "Block words", new_value: "Block more words" });
    const [deleteEntry] = await auditEntries(guild(), AuditLogEvent.AutoModerationRuleDelete, created.id);
    expect(deleteEntry.changes.find((change) => change.key === "name")).toEqual({
      key: "name",
      old_value: "Block more words",
    });
    expect(await fail(remove(created.id))).toMatchObject({ status: 404 });

    // The audit log lists the rules its entries name while they exist.
    const kept = await create(keywordRule({ name: "Kept" }));
    const log = (await server.rest("mod").get(Routes.guildAuditLog(guild()), {
      query: new URLSearchParams({ action_type: String(AuditLogEvent.AutoModerationRuleCreate) }),
    })) as { auto_moderation_rules: APIAutoModerationRule[] };
    expectOperationResponse("GET", "/guilds/{guild_id}/audit-logs", 200, log);
    expect(log.auto_moderation_rules).toEqual([kept]);
  });
});

describe("AutoMod rules: each trigger type, as Discord shapes it", () => {
  test("spam, keyword preset, mention spam and member profile keep their own metadata", async () => {
    await clearRules();
    const spam = await create({
      name: "Spam",
      event_type: 1,
      trigger_type: 3,
      // Another type's fields are ignored.
      trigger_metadata: { keyword_filter: ["x"] },
      actions: [{ type: 2, metadata: { channel_id: server.world.channels.general } }],
    });
    expect(spam).toMatchObject({ trigger_metadata: {}, enabled: false });
    const preset = await create({
      name: "Presets",
      event_type: 1,
      trigger_type: 4,
      trigger_metadata: { presets: [1, 3], allow_list: Array.from({ length: 500 }, (_, i) => `word${i}`) },
      actions: [block],
    });
    expect(preset.trigger_metadata).toMatchObject({ presets: [1, 3] });
    expect(preset.trigger_metadata.allow_list).toHaveLength(500);
    const mentions = await create({
      name: "Mentions",
      event_type: 1,
      trigger_type: 5,
      trigger_metadata: { mention_total_limit: 8, mention_raid_protection_enabled: true },
      actions: [block, { type: 3, metadata: { duration_seconds: 2_419_200 } }],
    });
    expect(mentions.trigger_metadata).toEqual({ mention_total_limit: 8, mention_raid_protection_enabled: true });
    const profile = await create({
      name: "Names",
      event_type: 2,
      trigger_type: 6,
      trigger_metadata: { keyword_filter: ["spammer*"] },
      actions: [{ type: 4 }],
    });
    expect(profile.trigger_metadata).toEqual({ keyword_filter: ["spammer*"], regex_patterns: [], allow_list: [] });
    expect(profile.actions).toEqual([{ type: 4, metadata: {} }]);
    for (const rule of [spam, preset, mentions, profile])
      expectOperationResponse("GET", "/guilds/{guild_id}/auto-moderation/rules/{rule_id}", 200, rule);
  });

  test("rules per trigger type are capped: 6 keyword rules, 1 of each other type", async () => {
    await clearRules();
    for (let i = 0; i < 6; i++) await create(keywordRule({ name: `Words ${i}` }));
    const seventh = await fail(create(keywordRule()));
    expect(fieldCodes(seventh)).toEqual(["AUTO_MODERATION_MAX_RULES_OF_TYPE_EXCEEDED"]);
    expect((seventh!.rawError as { errors: { _errors: Array<{ message: string }> } }).errors._errors[0].message).toBe(
      "Maximum number of rules with trigger type 1 is 6",
    );
    const spam = { name: "Spam", event_type: 1, trigger_type: 3, actions: [block] };
    await create(spam);
    expect(fieldCodes(await fail(create(spam)))).toEqual(["AUTO_MODERATION_MAX_RULES_OF_TYPE_EXCEEDED"]);
    expect((await rules()).length).toBe(7);
  });
});

describe("AutoMod rules: bad input changes nothing", () => {
  test("limits, regular expressions the engine refuses, actions and ids are field errors", async () => {
    await clearRules();
    const tooMany = await fail(
      create(keywordRule({ trigger_metadata: { keyword_filter: Array.from({ length: 1001 }, (_, i) => `w${i}`) } })),
    );
    expect(fieldCodes(tooMany, "trigger_metadata", "keyword_filter")).toEqual(["BASE_TYPE_MAX_LENGTH"]);
    const tooLong = await fail(create(keywordRule({ trigger_metadata: { keyword_filter: ["x".repeat(61)] } })));
    expect(fieldCodes(tooLong, "trigger_metadata", "keyword_filter", 0)).toEqual(["BASE_TYPE_BAD_LENGTH"]);
    const allow = await fail(
      create(keywordRule({ trigger_metadata: { allow_list: Array.from({ length: 101 }, (_, i) => `a${i}`) } })),
    );
    expect(fieldCodes(allow, "trigger_metadata", "allow_list")).toEqual(["BASE_TYPE_MAX_LENGTH"]);

    const regex = await fail(
      create(keywordRule({ trigger_metadata: { regex_patterns: ["(a)\\1", "ok+", "(?=look)ahead", "(unclosed"] } })),
    );
    for (const index of [0, 2, 3])
      expect(fieldCodes(regex, "trigger_metadata", "regex_patterns", index)).toEqual(["AUTO_MODERATION_INVALID_REGEX"]);
    expect(fieldCodes(regex, "trigger_metadata", "regex_patterns", 1)).toEqual([]);

    const wrongAction = await fail(create({ ...keywordRule(), actions: [{ type: 4 }] }));
    expect(fieldCodes(wrongAction, "actions", 0, "type")).toEqual(["AUTO_MODERATION_ACTION_TYPE_INVALID"]);
    const noChannel = await fail(create({ ...keywordRule(), actions: [{ type: 2, metadata: {} }] }));
    expect(fieldCodes(noChannel, "actions", 0, "metadata", "channel_id")).toEqual(["BASE_TYPE_REQUIRED"]);
    const longTimeout = await fail(
      create({ ...keywordRule(), actions: [{ type: 3, metadata: { duration_seconds: 2_419_201 } }] }),
    );
    expect(fieldCodes(longTimeout, "actions", 0, "metadata", "duration_seconds")).toEqual(["NUMBER_TYPE_MAX"]);
    const wrongEvent = await fail(create({ ...keywordRule(), event_type: 2 }));
    expect(fieldCodes(wrongEvent, "event_type")).toEqual(["AUTO_MODERATION_EVENT_TYPE_INVALID"]);
    const exempt = await fail(
      create(keywordRule({ exempt_roles: ["1234", server.world.roles.helper], exempt_channels: ["5678"] })),
    );
    expect(fieldCodes(exempt, "exempt_roles", 0)).toEqual(["ROLE_INVALID"]);
    expect(fieldCodes(exempt, "exempt_roles", 1)).toEqual([]);
    expect(fieldCodes(exempt, "exempt_channels", 0)).toEqual(["CHANNEL_INVALID"]);
    const many = await fail(
      create(keywordRule({ exempt_roles: Array.from({ length: 21 }, (_, i) => String(1000 + i)) })),
    );
    expect(fieldCodes(many, "exempt_roles")).toEqual(["BASE_TYPE_MAX_LENGTH"]);
    expect(fieldCodes(await fail(create({ ...keywordRule(), actions: [] })), "actions")).toEqual([
      "BASE_TYPE_MIN_LENGTH",
    ]);
    expect(fieldCodes(await fail(create({ ...keywordRule(), name: undefined })), "name")).toEqual([
      "BASE_TYPE_REQUIRED",
    ]);

    const created = await create(keywordRule());
    expect(fieldCodes(await fail(modify(created.id, { trigger_type: 3 })), "trigger_type")).toEqual([
      "BASE_TYPE_CHOICES",
    ]);
    expect(await rules()).toEqual([created]);
  });

  test("a deleted exempt role or channel leaves the rule editable, and drops out of it", async () => {
    await clearRules();
    const role = (await server.rest("owner").post(Routes.guildRoles(guild()), { body: { name: "Exempt" } })) as {
      id: string;
    };
    const room = (await server
      .rest("owner")
      .post(Routes.guildChannels(guild()), { body: { name: "exempt-room" } })) as {
      id: string;
    };
    const rule = await create(keywordRule({ exempt_roles: [role.id], exempt_channels: [room.id], enabled: false }));
    await server.rest("owner").delete(Routes.guildRole(guild(), role.id));
    await server.rest("owner").delete(Routes.channel(room.id));
    expect(await modify(rule.id, { enabled: true })).toMatchObject({
      enabled: true,
      exempt_roles: [],
      exempt_channels: [],
    });
    // Sending a deleted id is still refused.
    expect(fieldCodes(await fail(modify(rule.id, { exempt_roles: [role.id] })), "exempt_roles", 0)).toEqual([
      "ROLE_INVALID",
    ]);
  });

  test("a timeout action needs Timeout Members as well", async () => {
    await clearRules();
    const role = (await server.rest("owner").post(Routes.guildRoles(guild()), {
      body: { name: "Server managers", permissions: String(1n << 5n) },
    })) as { id: string };
    await server.rest("owner").put(Routes.guildMemberRole(guild(), server.world.users.helper, role.id));
    try {
      const timeout = { ...keywordRule(), actions: [{ type: 3, metadata: { duration_seconds: 60 } }] };
      expect(await fail(create(timeout, "helper"))).toMatchObject({ status: 403, code: 50013 });
      expect((await create(keywordRule(), "helper")).creator_id).toBe(server.world.users.helper);
    } finally {
      await server.rest("owner").delete(Routes.guildRole(guild(), role.id));
    }
  });
});

describe("Member-profile rules block members by name", () => {
  const memberFlags = async (userId: string) =>
    Number(
      (
        (await sql.get(
          "SELECT flags FROM members WHERE guild_id = ? AND user_id = ?",
          BigInt(guild()),
          BigInt(userId),
        )) as {
          flags: bigint;
        }
      ).flags,
    );
  const rename = (nick: string | null) =>
    server.rest("mod").patch(Routes.guildMember(guild(), server.world.users.member), { body: { nick } }) as Promise<{
      flags: number;
    }>;

  test("a nickname that matches blocks the member; a clean one, or the rule's deletion, unblocks them", async () => {
    await clearRules();
    await rename(null);
    const alert = server.world.channels.general;
    const rule = await create({
      name: "No spammers",
      event_type: 2,
      trigger_type: 6,
      trigger_metadata: { keyword_filter: ["free nitro*"], regex_patterns: ["dis(c|k)ord\\.gift"] },
      actions: [{ type: 4 }, { type: 2, metadata: { channel_id: alert } }],
      enabled: true,
    });
    const before = await lastEventId();
    const blocked = await rename("Free Nitroooo");
    expect(blocked.flags & QUARANTINED).toBe(QUARANTINED);
    expect((await memberFlags(server.world.users.member)) & QUARANTINED).toBe(QUARANTINED);
    const events = await eventsSince(before);
    const executions = events.filter((event) => event.type === "AUTO_MODERATION_ACTION_EXECUTION");
    expect(executions.map((event) => (event.d.action as { type: number }).type)).toEqual([4, 2]);
    expect(executions[0].d).toMatchObject({
      rule_id: rule.id,
      rule_trigger_type: 6,
      user_id: server.world.users.member,
      content: "Free Nitroooo",
      matched_keyword: "free nitro*",
      matched_content: "Free Nitroooo",
    });
    const update = events.filter((event) => event.type === "GUILD_MEMBER_UPDATE").at(-1)!;
    expect((update.d.flags as number) & QUARANTINED).toBe(QUARANTINED);
    const [quarantine] = await auditEntries(
      guild(),
      AuditLogEvent.AutoModerationQuarantineUser,
      server.world.users.member,
    );
    expect(quarantine.options).toEqual({
      auto_moderation_rule_name: "No spammers",
      auto_moderation_rule_trigger_type: "6",
    });
    const [flagged] = await auditEntries(guild(), AuditLogEvent.AutoModerationFlagToChannel, server.world.users.member);
    expect(flagged.options).toMatchObject({ channel_id: alert });

    // Members search's safety signal finds them.
    const search = (quarantined: boolean) =>
      server.rest("mod").post(`/guilds/${guild()}/members-search`, {
        body: { and_query: { safety_signals: { automod_quarantined_username: quarantined } }, limit: 100 },
      }) as Promise<{ members: Array<{ member: { user: { id: string } } }> }>;
    expect((await search(true)).members.map((m) => m.member.user.id)).toEqual([server.world.users.member]);
    expect((await search(false)).members.map((m) => m.member.user.id)).not.toContain(server.world.users.member);

    // A clean name lifts the block.
    expect((await rename("Regular person")).flags & QUARANTINED).toBe(0);
    await rename("discord.gift/xyz");
    expect((await memberFlags(server.world.users.member)) & QUARANTINED).toBe(QUARANTINED);
    // The rule's deletion unblocks those it blocked.
    await remove(rule.id);
    expect((await memberFlags(server.world.users.member)) & QUARANTINED).toBe(0);
    await rename(null);
  });

  test("exempt roles, Manage Server holders and an allow list are not blocked; a rule without the block only alerts", async () => {
    await clearRules();
    const rule = await create({
      name: "Names",
      event_type: 2,
      trigger_type: 6,
      trigger_metadata: { keyword_filter: ["*scam*"], allow_list: ["scampi"] },
      actions: [{ type: 4 }],
      enabled: true,
      exempt_roles: [server.world.roles.regular],
    });
    expect((await rename("scampi lover")).flags & QUARANTINED).toBe(0);
    // The moderator names themself: Manage Server holders are exempt.
    const self = (await server.rest("mod").patch(Routes.guildMember(guild(), "@me"), {
      body: { nick: "scam hunter" },
    })) as { flags: number };
    expect(self.flags & QUARANTINED).toBe(0);
    await server
      .rest("mod")
      .put(Routes.guildMemberRole(guild(), server.world.users.member, server.world.roles.regular));
    expect((await rename("scammer")).flags & QUARANTINED).toBe(0);
    await server
      .rest("mod")
      .delete(Routes.guildMemberRole(guild(), server.world.users.member, server.world.roles.regular));
    // Losing the exempt role leaves the name judged at the next change.
    expect((await rename("scammer2")).flags & QUARANTINED).toBe(QUARANTINED);
    // Disabled, the rule judges nobody: the blocked member is unblocked.
    await modify(rule.id, { enabled: false });
    expect((await memberFlags(server.world.users.member)) & QUARANTINED).toBe(0);
    await modify(rule.id, {
      enabled: true,
      actions: [{ type: 2, metadata: { channel_id: server.world.channels.general } }],
    });
    const before = await lastEventId();
    expect((await rename("scammer3")).flags & QUARANTINED).toBe(0);
    const executions = (await eventsSince(before)).filter((event) => event.type === "AUTO_MODERATION_ACTION_EXECUTION");
    expect(executions).toHaveLength(1);
    await server.rest("mod").patch(Routes.guildMember(guild(), "@me"), { body: { nick: null } });
    await rename(null);
    await clearRules();
  });
});
