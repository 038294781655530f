// discord.py 2.2.2 (Debian's python3-discord, run by Debian's /usr/bin/python3) against a harness server: the
// script in discordpy/ makes every guild-management call the library offers and prints one JSON line per check;
// each check becomes one assertion here, so a call that stops working names itself.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../integration/harness";
import { startDiscordPy } from "./discordpy-process";

/**
 * Checks that send a snowflake as a JSON integer (discord.py's habit: parent_id, role ids, overwrite ids, channel
 * ids, position moves) or prune's compute_prune_count as "true"/"false". They pass once the API accepts both forms
 * (issue 14, Build item 1: big-int-safe request bodies and string-or-integer snowflakes).
 */
const AWAITS_LENIENT_INPUTS = new Map([
  ["prune_members", 'compute_prune_count "true"'],
  ...[
    "Guild.edit channels",
    "create_text_channel in a category",
    "create_forum in a category",
    "channel.edit category",
    "channel.move",
    "channel.edit overwrites",
    "member.edit roles",
    "edit_role_positions",
    "edit_widget channel",
    "edit_welcome_screen channels",
  ].map((name) => [name, "integer snowflakes"] as const),
]);

/** Every check the script makes, in its order. */
const CHECKS = [
  "login",
  "Guild.edit",
  "Guild.edit channels",
  "create_text_channel",
  "create_text_channel in a category",
  "create_voice_channel",
  "create_category",
  "create_forum",
  "create_forum in a category",
  "create_stage_channel",
  "fetch_channels",
  "fetch_channel",
  "channel.edit",
  "channel.edit category",
  "channel.move",
  "channel.set_permissions",
  "channel.edit overwrites",
  "channel.create_invite + channel.invites",
  "fetch_members",
  "fetch_member",
  "member.edit",
  "member.edit roles",
  "member.add_roles + remove_roles",
  "member.timeout",
  "member.kick",
  "member.ban + fetch_ban + bans + unban",
  "estimate_pruned_members",
  "prune_members",
  "create_role",
  "role.edit",
  "edit_role_positions",
  "role.delete",
  "integrations",
  "vanity_invite",
  "edit_widget + widget",
  "edit_widget channel",
  "welcome_screen + edit_welcome_screen",
  "edit_welcome_screen channels",
  "invites + fetch_invite + delete_invite",
  "automod rules",
  "scheduled events",
  "create_custom_emoji + fetch_emojis + emoji.edit + delete",
  "create_sticker + fetch_stickers + sticker.edit + delete",
  "channel.delete",
];

interface CheckLine {
  check: string;
  ok: boolean;
  detail: string;
  limit?: string;
}

/** Runs the script to its end: its check lines, its stderr and its exit code. */
async function runScript(server: TestServer): Promise<{ lines: CheckLine[]; stderr: string; code: number | null }> {
  const lines: CheckLine[] = [];
  const python = startDiscordPy("guild_management.py", server, (line) => lines.push(line as unknown as CheckLine));
  const code = await python.exited;
  return { lines, stderr: python.stderr(), code };
}

describe("discord.py 2.2.2 against Guildhall, by base URL only", () => {
  let server: TestServer;
  let run: Awaited<ReturnType<typeof runScript>>;

  beforeAll(async () => {
    server = await startTestServer();
    run = await runScript(server);
  }, 120_000);
  afterAll(() => server?.close());

  it("the script ran to the end and made exactly the listed checks", () => {
    expect(run.stderr, "a missing module means python3-discord is not installed").not.toMatch(/ModuleNotFoundError/);
    expect(run.code, run.stderr).toBe(0);
    expect(run.lines.map((line) => line.check)).toEqual(CHECKS);
  });

  for (const name of CHECKS) {
    const awaits = AWAITS_LENIENT_INPUTS.get(name);
    const title = awaits ? `${name} [awaits ${awaits}: issue 14, Build item 1]` : name;
    it(title, () => {
      const line = run.lines.find((candidate) => candidate.check === name);
      expect(line, `no result for ${name}`).toBeDefined();
      expect(line!.ok, line!.detail).toBe(true);
    });
  }

  it("fetch_channels is the one documented library limit: discord.py 2.2.2 raises on the media channel", () => {
    expect(run.lines.filter((line) => line.limit).map((line) => line.check)).toEqual(["fetch_channels"]);
  });
});
