import { describe, expect, test } from "vitest";
import { RELEASE_BATCH, WriteBatch, type GatewayConnection } from "@/lib/guild-api/gateway/connection";

/** A connection as the batch sees it: held (its socket corked) until released. */
function fakeConnection() {
  const state = { held: false, releases: 0 };
  const connection = {
    hold: () => (state.held ? false : (state.held = true)),
    release: () => {
      if (!state.held) return;
      state.held = false;
      state.releases++;
    },
  } as unknown as GatewayConnection;
  return { connection, state };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("WriteBatch.releaseInTurns", () => {
  test("releases RELEASE_BATCH connections per turn of the event loop until every one is out, each once", async () => {
    const batch = new WriteBatch();
    const fakes = Array.from({ length: RELEASE_BATCH * 2 + 10 }, fakeConnection);
    for (const { connection } of fakes) batch.hold(connection);
    for (const { connection } of fakes.slice(0, 10)) batch.hold(connection); // already held: not twice
    const done = batch.releaseInTurns();
    expect(fakes.filter((f) => f.state.releases === 1)).toHaveLength(RELEASE_BATCH);
    await nextTurn();
    expect(fakes.filter((f) => f.state.releases === 1)).toHaveLength(RELEASE_BATCH * 2);
    await done;
    expect(fakes.every((f) => f.state.releases === 1 && !f.state.held)).toBe(true);
  });
});
