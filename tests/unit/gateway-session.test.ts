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

  it("always keeps at least the last replayLimit dispatches, and at most half as many more", () => {
    const session = newSession(100);
    let most = 0;
    for (let seq = 1; seq <= 2_000; seq++) {
      session.dispatch("GUILD_ROLE_UPDATE", "{}", seq);
      expect(session.canReplayFrom(Math.max(0, seq - 100))).toBe(true);
      most = Math.max(most, session.replayAfter(0).length);
    }
    expect(most).toBeLessThanOrEqual(151);
    expect(most).toBeGreaterThan(100);
    expect(session.canReplayFrom(2_000 - 151)).toBe(false);
  });
});
