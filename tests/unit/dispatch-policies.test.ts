// Every door has a rule (STYLE.md, habit 12), for the gateway and the live stream: every dispatch the gateway can send
// has an entry in the policy table's DISPATCH_POLICIES, and every section the live stream can name, and every page of
// a guild, has one in SECTION_POLICIES. The dispatches are read from the code itself: the GatewayDispatch union the
// outbox records (lib/guild-api/events.ts), the event names of every emitEvent call, and the dispatches the gateway
// composes (session.dispatch, dispatchFrame). A new emitEvent("SOMETHING_NEW", …) or page fails here until the table
// says who receives or may see it.
import fs from "node:fs";
import path from "node:path";
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, test } from "vitest";
import { code, read, root } from "./source-text";
import { DASHBOARD_SECTIONS } from "@/lib/dashboard/sections";
import { LIVE_DISPATCHES, sectionsOf } from "@/lib/dashboard/live/changes";
import {
  DISPATCH_POLICIES,
  SECTION_POLICIES,
  dispatchPolicyOf,
  pageOfSection,
  type SectionName,
} from "@/lib/discord/policies";

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

/** The arguments of every call of `callee` in `source`, split at the call's own commas (nested calls kept whole). */
function callArguments(source: string, callee: RegExp): string[][] {
  const calls: string[][] = [];
  for (const match of source.matchAll(callee)) {
    const args: string[] = [];
    let depth = 0;
    let current = "";
    for (let i = match.index + match[0].length; i < source.length; i++) {
      const char = source[i];
      if (depth === 0 && (char === "," || char === ")")) {
        args.push(current.trim());
        current = "";
        if (char === ")") break;
        continue;
      }
      if ("([{".includes(char)) depth++;
      if (")]}".includes(char)) depth--;
      current += char;
    }
    calls.push(args);
  }
  return calls;
}

const eventNamesIn = (text: string) => [...text.matchAll(/"([A-Z][A-Z_]+)"/g)].map((m) => m[1]);

/** The GatewayDispatch union of lib/guild-api/events.ts: every type an outbox row may have. */
const recordedTypes = eventNamesIn(/export type GatewayDispatch =([^;]+);/.exec(read("lib/guild-api/events.ts"))![1]);

/** Every event name an emitEvent call passes (its second argument: a literal, or a choice between literals). */
const emittedTypes = sourceFiles("lib")
  .filter((file) => !file.endsWith(path.join("guild-api", "events.ts")))
  .flatMap((file) => callArguments(code(file), /\bemitEvent\(/g).map((args) => ({ file, type: args[1] ?? "" })));

/** The dispatches the gateway composes itself (READY, GUILD_CREATE, member chunks, …). */
const composedTypes = sourceFiles("lib/guild-api/gateway").flatMap((file) =>
  callArguments(code(file), /\b(?:\.dispatch|dispatchFrame)\(/g).flatMap((args) => eventNamesIn(args[0] ?? "")),
);

describe("every dispatch the gateway can send has a rule in DISPATCH_POLICIES", () => {
  test("the code is read: the recorded union, the emitEvent calls and the composed dispatches are found", () => {
    expect(recordedTypes).toContain("GUILD_BAN_ADD");
    expect(emittedTypes.length).toBeGreaterThan(20);
    expect(composedTypes).toEqual(expect.arrayContaining(["READY", "RESUMED", "GUILD_CREATE", "GUILD_MEMBERS_CHUNK"]));
  });

  test("each emitEvent names its event with literals of the recorded union", () => {
    for (const { file, type } of emittedTypes) {
      const names = eventNamesIn(type);
      // A variable would hide which events a call can emit from this test (and from a reader).
      expect(names.length, `${file}: emitEvent(…, ${type}, …)`).toBeGreaterThan(0);
      for (const name of names) expect(recordedTypes, `${file}: ${name}`).toContain(name);
    }
  });

  test("each dispatch the code can send has a rule", () => {
    const sendable = new Set([
      ...recordedTypes,
      ...emittedTypes.flatMap(({ type }) => eventNamesIn(type)),
      ...composedTypes,
    ]);
    const withoutRule = [...sendable].filter((name) => dispatchPolicyOf(name) === undefined);
    expect(withoutRule).toEqual([]);
    expect(dispatchPolicyOf("SOMETHING_NEW")).toBeUndefined();
  });

  test("rules are BigInt alternatives; a channel's or thread's event always needs VIEW_CHANNEL there", () => {
    for (const [name, rule] of Object.entries(DISPATCH_POLICIES)) {
      for (const mask of rule.permissions) expect(typeof mask, name).toBe("bigint");
      if (rule.scope === "channel" || rule.scope === "thread") {
        expect(rule.permissions.length, name).toBeGreaterThan(0);
        for (const mask of rule.permissions) expect(mask & P.ViewChannel, name).toBe(P.ViewChannel);
      }
    }
  });

  test("Discord's documented permissions: bans to Ban Members or View Audit Log, audit-log entries to View Audit Log, invites to Manage Channels in the channel", () => {
    expect(DISPATCH_POLICIES.GUILD_BAN_ADD.permissions).toEqual([P.BanMembers, P.ViewAuditLog]);
    expect(DISPATCH_POLICIES.GUILD_BAN_REMOVE.permissions).toEqual([P.BanMembers, P.ViewAuditLog]);
    expect(DISPATCH_POLICIES.GUILD_AUDIT_LOG_ENTRY_CREATE.permissions).toEqual([P.ViewAuditLog]);
    expect(DISPATCH_POLICIES.INVITE_CREATE).toMatchObject({
      scope: "channel",
      permissions: [P.ViewChannel | P.ManageChannels],
    });
  });
});

describe("every section the live stream can name, and every page of a guild, has a rule in SECTION_POLICIES", () => {
  test("the live stream maps exactly the dispatches of the gateway's table to sections", () => {
    expect([...LIVE_DISPATCHES].sort()).toEqual(Object.keys(DISPATCH_POLICIES).sort());
  });

  test("each section a dispatch concerns has a rule, shown on a page that exists", () => {
    const pages = new Set(["overview", ...DASHBOARD_SECTIONS.map((section) => section.slug)]);
    for (const dispatch of LIVE_DISPATCHES) {
      const sections = sectionsOf(dispatch);
      if (sections === "all") continue;
      for (const section of sections) {
        expect(Object.keys(SECTION_POLICIES), `${dispatch} → ${section}`).toContain(section);
        expect(pages, `${dispatch} → ${section}`).toContain(pageOfSection(section as SectionName));
      }
    }
  });

  test("each page of a guild has a rule, and the sidebar's requirement is the table's", () => {
    const guildPages = path.join("app", "(dashboard)", "guilds", "[guildId]");
    const hasPage = (dir: string) => sourceFiles(dir).some((file) => path.basename(file) === "page.tsx");
    const pageDirectories = fs
      .readdirSync(path.join(root, guildPages), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !/^[_[]/.test(entry.name))
      .filter((entry) => hasPage(path.join(guildPages, entry.name)))
      .map((entry) => entry.name);
    expect(pageDirectories.length).toBeGreaterThan(10);
    for (const slug of ["overview", ...pageDirectories]) expect(Object.keys(SECTION_POLICIES), slug).toContain(slug);
    for (const section of DASHBOARD_SECTIONS)
      expect(section.requires, section.slug).toBe(SECTION_POLICIES[section.slug as SectionName].requires);
  });
});
