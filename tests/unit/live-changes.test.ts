// What a gateway dispatch means for the dashboard's open pages (lib/dashboard/live/changes.ts).
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import {
  actorOf,
  affects,
  departedUserOf,
  guildOf,
  mayKnowActors,
  mergeSections,
  sectionOfPath,
  sectionsForViewer,
  sectionsOf,
  updatedMemberOf,
} from "@/lib/dashboard/live/changes";

describe("live changes", () => {
  it("sends each dispatch to the pages that show its data", () => {
    // The overview moves with the member's removal and the audit-log entry, not with the ban itself.
    expect(sectionsOf("GUILD_BAN_ADD")).toEqual(["bans", "members"]);
    expect(sectionsOf("GUILD_AUDIT_LOG_ENTRY_CREATE")).toContain("overview/audit-log");
    expect(sectionsOf("CHANNEL_UPDATE")).toContain("channels");
    expect(sectionsOf("GUILD_AUDIT_LOG_ENTRY_CREATE")).toContain("audit-history");
    expect(sectionsOf("GUILD_ROLE_UPDATE")).toBe("all");
    expect(sectionsOf("PRESENCE_UPDATE")).toEqual([]);
  });

  it("keeps, for a viewer, the pages of the sections they may see; actors for View Audit Log only", () => {
    const ban = mergeSections(
      mergeSections(sectionsOf("GUILD_MEMBER_REMOVE"), sectionsOf("GUILD_BAN_ADD")),
      sectionsOf("GUILD_AUDIT_LOG_ENTRY_CREATE"),
    );
    expect(sectionsForViewer(ban, 0n)).toEqual(["overview"]);
    expect(sectionsForViewer(sectionsOf("GUILD_AUDIT_LOG_ENTRY_CREATE"), 0n)).toEqual([]);
    expect([...sectionsForViewer(ban, P.KickMembers | P.ViewAuditLog)].sort()).toEqual([
      "audit-history",
      "members",
      "overview",
    ]);
    expect(sectionsForViewer(ban, P.Administrator)).toContain("bans");
    expect(sectionsForViewer(["no-such-section"], P.Administrator)).toEqual([]);
    expect(sectionsForViewer("all", 0n)).toBe("all");
    expect(mayKnowActors(0n)).toBe(false);
    expect(mayKnowActors(P.BanMembers)).toBe(false);
    expect(mayKnowActors(P.ViewAuditLog)).toBe(true);
  });

  it("merges sections, and 'all' wins", () => {
    expect(mergeSections(["bans"], ["bans", "members"])).toEqual(["bans", "members"]);
    expect(mergeSections(["bans"], "all")).toBe("all");
    expect(affects("all", "widget")).toBe(true);
    expect(affects(["bans"], "members")).toBe(false);
  });

  it("reads the section from a dashboard path", () => {
    expect(sectionOfPath("/guilds/123")).toBe("overview");
    expect(sectionOfPath("/guilds/123/bans")).toBe("bans");
    expect(sectionOfPath("/guilds/123/channels/456")).toBe("channels");
  });

  it("finds the guild, the actor, the departed and the updated member", () => {
    expect(guildOf("GUILD_UPDATE", { id: "1" })).toBe("1");
    expect(guildOf("GUILD_BAN_ADD", { guild_id: "2", user: { id: "3" } })).toBe("2");
    expect(guildOf("READY", { guilds: [] })).toBeNull();
    expect(actorOf("GUILD_AUDIT_LOG_ENTRY_CREATE", { guild_id: "2", user_id: "9" })).toBe("9");
    expect(actorOf("GUILD_BAN_ADD", { guild_id: "2", user: { id: "3" } })).toBeNull();
    // Bot mode: the dashboard's bot acted for the moderator it stamped into the reason.
    const stamped = { guild_id: "2", user_id: "50", reason: "Mod (77): spam" };
    expect(actorOf("GUILD_AUDIT_LOG_ENTRY_CREATE", stamped, "50")).toBe("77");
    expect(actorOf("GUILD_AUDIT_LOG_ENTRY_CREATE", { ...stamped, reason: "Mod (77)" }, "50")).toBe("77");
    // Another bot's reason proves nothing.
    expect(actorOf("GUILD_AUDIT_LOG_ENTRY_CREATE", stamped, "51")).toBe("50");
    expect(departedUserOf("GUILD_BAN_ADD", { guild_id: "2", user: { id: "3" } })).toBe("3");
    expect(departedUserOf("GUILD_MEMBER_REMOVE", { guild_id: "2", user: { id: "4" } })).toBe("4");
    expect(departedUserOf("GUILD_MEMBER_UPDATE", { guild_id: "2", user: { id: "4" } })).toBeNull();
    expect(updatedMemberOf("GUILD_MEMBER_UPDATE", { guild_id: "2", user: { id: "4" } })).toBe("4");
    expect(updatedMemberOf("GUILD_MEMBER_REMOVE", { guild_id: "2", user: { id: "4" } })).toBeNull();
  });
});
