// A dispatch serialized once for all recipients gives each the same bytes as building its frame alone would.
import { describe, expect, it } from "vitest";
import { SerializedDispatch, dispatchFrame } from "@/lib/guild-api/gateway/frames";

describe("SerializedDispatch", () => {
  it("frames each sequence number exactly as dispatchFrame does, non-ASCII data included", () => {
    const data = JSON.stringify({ guild_id: "1", role: { id: "2", name: "Modérateurs 🛡️" } });
    const dispatch = new SerializedDispatch("GUILD_ROLE_UPDATE", data);
    for (const seq of [1, 9, 10, 12_345, 2 ** 31]) {
      const frame = dispatch.frame(seq);
      expect(frame.toString("utf8")).toBe(dispatchFrame("GUILD_ROLE_UPDATE", seq, data));
      expect(JSON.parse(frame.toString("utf8"))).toEqual({
        op: 0,
        t: "GUILD_ROLE_UPDATE",
        s: seq,
        d: JSON.parse(data),
      });
    }
  });

  it("gives every recipient its own bytes (one frame is never changed by the next)", () => {
    const dispatch = new SerializedDispatch("GUILD_BAN_ADD", '{"guild_id":"1"}');
    const first = dispatch.frame(7);
    dispatch.frame(8);
    expect(first.toString()).toBe('{"op":0,"t":"GUILD_BAN_ADD","s":7,"d":{"guild_id":"1"}}');
  });
});
