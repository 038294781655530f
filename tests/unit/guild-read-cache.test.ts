// The moderator's guild read reused for a few seconds: reused within the window, read again after it, never kept
// when the read fails, per session, and dropped for every moderator when the dashboard changes the guild.
import { describe, expect, test, vi } from "vitest";
import type { APIGuild, APIGuildMember } from "discord-api-types/v10";
import {
  FRESH_MS,
  forgetGuildReads,
  readGuildThroughCache,
  type GuildRead,
} from "@/lib/dashboard/data/guild-read-cache";

const readOf = (name: string): GuildRead => ({
  guild: { id: "1", name } as APIGuild,
  member: { roles: [] } as unknown as APIGuildMember,
});

describe("readGuildThroughCache", () => {
  test("reuses a read within FRESH_MS and reads again after it", async () => {
    let clock = 1_000_000;
    const now = () => clock;
    const read = vi.fn(async () => readOf(`read at ${clock}`));
    const first = await readGuildThroughCache("session-a", "g1", read, now);
    clock += FRESH_MS - 1;
    expect(await readGuildThroughCache("session-a", "g1", read, now)).toBe(first);
    expect(read).toHaveBeenCalledTimes(1);
    clock += 1;
    const second = await readGuildThroughCache("session-a", "g1", read, now);
    expect(second).not.toBe(first);
    expect(second.guild.name).toBe(`read at ${clock}`);
    expect(read).toHaveBeenCalledTimes(2);
  });

  test("is kept per session: another moderator's request reads for itself", async () => {
    const now = () => 2_000_000;
    const read = vi.fn(async () => readOf("g2"));
    await readGuildThroughCache("session-a", "g2", read, now);
    await readGuildThroughCache("session-b", "g2", read, now);
    expect(read).toHaveBeenCalledTimes(2);
  });

  test("a failed read is not kept: an unknown guild is asked about every time", async () => {
    const now = () => 3_000_000;
    const unknown = vi.fn(async (): Promise<GuildRead> => {
      throw new Error("404 Unknown Guild");
    });
    await expect(readGuildThroughCache("session-a", "g3", unknown, now)).rejects.toThrow("Unknown Guild");
    await expect(readGuildThroughCache("session-a", "g3", unknown, now)).rejects.toThrow("Unknown Guild");
    expect(unknown).toHaveBeenCalledTimes(2);
  });

  test("forgetGuildReads drops every session's read of that guild and no other guild's", async () => {
    const now = () => 4_000_000;
    const read = vi.fn(async () => readOf("kept"));
    await readGuildThroughCache("session-a", "g4", read, now);
    await readGuildThroughCache("session-b", "g4", read, now);
    await readGuildThroughCache("session-a", "g40", read, now);
    expect(read).toHaveBeenCalledTimes(3);
    forgetGuildReads("g4");
    await readGuildThroughCache("session-a", "g4", read, now);
    await readGuildThroughCache("session-b", "g4", read, now);
    await readGuildThroughCache("session-a", "g40", read, now);
    expect(read).toHaveBeenCalledTimes(5);
  });
});
