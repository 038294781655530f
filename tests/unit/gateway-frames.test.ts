// A dispatch serialized once for all recipients gives each the same bytes as building its frame alone would: as text,
// as a whole WebSocket frame, and as deflate blocks inside a connection's zlib stream.
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { SerializedDispatch, ZLIB_WINDOW_BITS, dispatchFrame } from "@/lib/guild-api/gateway/frames";

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

describe("SerializedDispatch.wsFrame", () => {
  // Decodes an unmasked server frame as a WebSocket client would: FIN + opcode, then the 7/16/64-bit length.
  const decode = (frame: Buffer) => {
    const short = frame[1] & 0x7f;
    const [length, offset] =
      short === 126 ? [frame.readUInt16BE(2), 4] : short === 127 ? [Number(frame.readBigUInt64BE(2)), 10] : [short, 2];
    return {
      fin: frame[0] >> 7,
      opcode: frame[0] & 0x0f,
      masked: frame[1] >> 7,
      length,
      payload: frame.subarray(offset),
    };
  };

  it.each([
    ["a short payload (7-bit length)", 10],
    ["a medium payload (16-bit length)", 1_000],
    ["a long payload (64-bit length)", 70_000],
  ])("frames %s as one final, unmasked text frame around the same bytes as frame()", (_, size) => {
    const data = JSON.stringify({ id: "1", name: "é".repeat(size) });
    const dispatch = new SerializedDispatch("GUILD_UPDATE", data);
    const decoded = decode(dispatch.wsFrame(42));
    expect(decoded).toMatchObject({ fin: 1, opcode: 1, masked: 0 });
    expect(decoded.length).toBe(decoded.payload.length);
    expect(decoded.payload.equals(dispatch.frame(42))).toBe(true);
  });
});

describe("SerializedDispatch.zlibFrame", () => {
  /** A connection's own payload: its zlib context, each payload ending in a full flush (GatewayConnection). */
  const compressOwn = (deflate: zlib.Deflate, text: string) =>
    new Promise<Buffer>((resolve) => {
      const chunks: Buffer[] = [];
      const onData = (chunk: Buffer) => chunks.push(chunk);
      deflate.on("data", onData);
      deflate.write(text);
      deflate.flush(zlib.constants.Z_FULL_FLUSH, () => {
        deflate.off("data", onData);
        resolve(Buffer.concat(chunks));
      });
    });

  it("reads, between a connection's own payloads, as the frame itself to one inflater of the whole stream", async () => {
    const deflate = zlib.createDeflate({ windowBits: ZLIB_WINDOW_BITS, memLevel: 6, level: 6 });
    // Repeated text, so that the connection's deflater would refer back to it if it could.
    const hello = JSON.stringify({ op: 10, d: { heartbeat_interval: 41_250, filler: "guildhall ".repeat(200) } });
    const data = JSON.stringify({
      guild_id: "1",
      role: { id: "2", name: "guildhall ".repeat(300) + "Modérateurs 🛡️" },
    });
    const dispatch = new SerializedDispatch("GUILD_ROLE_UPDATE", data);
    const messages = [
      await compressOwn(deflate, hello),
      dispatch.zlibFrame(7),
      dispatch.zlibFrame(12_345),
      await compressOwn(deflate, hello),
    ];
    deflate.close();
    const inflate = zlib.createInflate();
    const texts: string[] = [];
    for (const message of messages) {
      // Every message ends in the flush marker discord.py and @discordjs/ws wait for.
      expect(message.subarray(-4).equals(Buffer.from([0, 0, 0xff, 0xff]))).toBe(true);
      texts.push(
        await new Promise<string>((resolve, reject) => {
          const out: Buffer[] = [];
          const onData = (chunk: Buffer) => out.push(chunk);
          inflate.on("data", onData);
          inflate.once("error", reject);
          inflate.write(message);
          inflate.flush(zlib.constants.Z_SYNC_FLUSH, () => {
            inflate.off("data", onData);
            resolve(Buffer.concat(out).toString("utf8"));
          });
        }),
      );
    }
    inflate.close();
    expect(texts).toEqual([
      hello,
      dispatchFrame("GUILD_ROLE_UPDATE", 7, data),
      dispatchFrame("GUILD_ROLE_UPDATE", 12_345, data),
      hello,
    ]);
    // Compressed: the repeated text costs far less than its length.
    expect(messages[1].length).toBeLessThan(data.length / 4);
  });
});
