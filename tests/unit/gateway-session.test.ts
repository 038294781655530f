// What a gateway session keeps for RESUME: member chunks as sent, within their byte budget.
import { describe, expect, it } from "vitest";
import { CHUNK_REPLAY_BYTES, GatewaySession } from "@/lib/guild-api/gateway/session";

const newSession = (replayLimit = 5_000) =>
  new GatewaySession({ userId: 1n, applicationId: 2n, kind: "bot" }, 1, [0, 1], 50, new Set(), replayLimit);

describe("GatewaySession replay", () => {
  it("keeps member chunks as sent", () => {
    const session = newSession();
    session.dispatch("GUILD_ROLE_UPDATE", "{}", 41);
    session.dispatch("GUILD_MEMBERS_CHUNK", '{"chunk_index":0}', { chunk: '{"chunk_index":0}' });
    expect(session.replayAfter(0)).toEqual([
      { seq: 1, entry: 41 },
      { seq: 2, entry: { chunk: '{"chunk_index":0}' } },
    ]);
  });

  it("drops the oldest dispatches once chunks pass their budget: a RESUME from before them starts anew", () => {
    const session = newSession();
    const chunk = "x".repeat(CHUNK_REPLAY_BYTES / 4);
    session.dispatch("GUILD_ROLE_UPDATE", "{}", 41);
    for (let i = 0; i < 4; i++) session.dispatch("GUILD_MEMBERS_CHUNK", chunk, { chunk });
    expect(session.canReplayFrom(0)).toBe(true);
    session.dispatch("GUILD_MEMBERS_CHUNK", chunk, { chunk });
    // The role update and the first chunk are gone; the last four chunks fit.
    expect(session.canReplayFrom(1)).toBe(false);
    expect(session.canReplayFrom(2)).toBe(true);
    expect(session.replayAfter(2).map((r) => r.seq)).toEqual([3, 4, 5, 6]);
  });

  it("keeps exactly the last replayLimit dispatches, in order, whatever their kinds", () => {
    const session = newSession(100);
    const entryOf = (seq: number) =>
      seq % 7 === 0
        ? { guildCreate: BigInt(seq) }
        : seq % 11 === 0
          ? null
          : seq % 13 === 0
            ? { chunk: `c${seq}` }
            : seq;
    for (let seq = 1; seq <= 2_000; seq++) {
      session.dispatch("GUILD_ROLE_UPDATE", "{}", entryOf(seq));
      const kept = Math.min(seq, 100);
      expect(session.canReplayFrom(seq - kept)).toBe(true);
      if (seq > 100) expect(session.canReplayFrom(seq - kept - 1)).toBe(false);
    }
    expect(session.replayAfter(0)).toEqual(
      Array.from({ length: 100 }, (_, i) => ({ seq: 1_901 + i, entry: entryOf(1_901 + i) })),
    );
    expect(session.replayAfter(1_990).map((r) => r.seq)).toEqual(Array.from({ length: 10 }, (_, i) => 1_991 + i));
  });

  it("forgets the chunks that leave the ring: their bytes no longer count against the budget", () => {
    const session = newSession(10);
    const chunk = "x".repeat(CHUNK_REPLAY_BYTES / 2);
    // Two big chunks, then enough small dispatches to push them out of the ring of 10.
    session.dispatch("GUILD_MEMBERS_CHUNK", chunk, { chunk });
    session.dispatch("GUILD_MEMBERS_CHUNK", chunk, { chunk });
    for (let seq = 3; seq <= 12; seq++) session.dispatch("GUILD_ROLE_UPDATE", "{}", seq);
    // A chunk of the whole budget fits again: nothing else is dropped for it.
    const whole = "y".repeat(CHUNK_REPLAY_BYTES);
    session.dispatch("GUILD_MEMBERS_CHUNK", whole, { chunk: whole });
    expect(session.canReplayFrom(3)).toBe(true);
    expect(session.replayAfter(12)).toEqual([{ seq: 13, entry: { chunk: whole } }]);
  });
});
