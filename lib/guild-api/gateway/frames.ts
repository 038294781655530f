// A dispatch serialized once for every recipient. Sessions number their dispatches themselves, so the frames of one
// event differ only in `s`: the text before and after it is encoded to bytes once, and each recipient's frame is
// those bytes around its own sequence number (two copies, no JSON building or UTF-8 encoding per session).
// wsFrame() also puts the WebSocket frame header in front, so an uncompressed connection writes each recipient's
// dispatch as one buffer straight to its socket (see GatewayConnection.sendDispatch). zlibFrame() gives the same
// frame for a compress=zlib-stream connection, compressed once for every recipient (see below).
import zlib from "node:zlib";

/**
 * The window every zlib-stream connection declares in its stream header (GatewayConnection's deflater): shared frames
 * are compressed with it too, so no back-reference reaches further than the client's window.
 */
export const ZLIB_WINDOW_BITS = 13;

export class SerializedDispatch {
  private readonly head: Buffer;
  private readonly tail: Buffer;
  private zlibHead: Buffer | null = null;
  private zlibTail: Buffer | null = null;

  constructor(
    readonly type: string,
    readonly dataJson: string,
  ) {
    this.head = Buffer.from(`{"op":0,"t":"${type}","s":`);
    this.tail = Buffer.from(`,"d":${dataJson}}`);
  }

  /** The frame as the session numbered `seq` sends it; the same bytes as dispatchFrame(type, seq, dataJson). */
  frame(seq: number): Buffer {
    return this.write(String(seq), 0);
  }

  /** The same payload as one unmasked, final WebSocket text frame (RFC 6455 §5.2), header included. */
  wsFrame(seq: number): Buffer {
    const digits = String(seq);
    const length = this.head.length + digits.length + this.tail.length;
    return this.write(digits, webSocketHeaderLength(length));
  }

  /**
   * The frame as deflate blocks for a zlib-stream connection whose every message ends in a full flush (so nothing
   * after it refers back into it): the text before `s` and after it are each compressed once for all recipients,
   * and the recipient's sequence number goes between them as a stored (uncompressed) block. Each part ends on a byte
   * boundary without the final-block bit, and the last in a sync flush (00 00 ff ff), so the recipient's inflater
   * reads the three parts as one message, as if its connection had compressed it.
   */
  zlibFrame(seq: number): Buffer {
    this.zlibHead ??= deflateRawFlushed(this.head);
    this.zlibTail ??= deflateRawFlushed(this.tail);
    const digits = String(seq);
    const frame = Buffer.allocUnsafe(this.zlibHead.length + STORED_BLOCK_HEADER + digits.length + this.zlibTail.length);
    let at = this.zlibHead.copy(frame, 0);
    // A stored block: BFINAL 0 and BTYPE 00 padded to a byte, then LEN and its complement, little-endian.
    frame[at++] = 0;
    frame.writeUInt16LE(digits.length, at);
    frame.writeUInt16LE(~digits.length & 0xffff, at + 2);
    at += 4;
    at += frame.write(digits, at, "latin1");
    this.zlibTail.copy(frame, at);
    return frame;
  }

  /** Writes the payload at `offset` of a new buffer; the bytes before it, if any, hold the WebSocket header. */
  private write(digits: string, offset: number): Buffer {
    const length = this.head.length + digits.length + this.tail.length;
    const frame = Buffer.allocUnsafe(offset + length);
    if (offset > 0) writeWebSocketHeader(frame, length);
    this.head.copy(frame, offset);
    frame.write(digits, offset + this.head.length, "latin1");
    this.tail.copy(frame, offset + this.head.length + digits.length);
    return frame;
  }
}

const STORED_BLOCK_HEADER = 5;

/** Raw deflate blocks of `bytes`, ended by a sync flush (not a final block): a part of a zlib-stream message. */
function deflateRawFlushed(bytes: Buffer): Buffer {
  return zlib.deflateRawSync(bytes, { windowBits: ZLIB_WINDOW_BITS, finishFlush: zlib.constants.Z_SYNC_FLUSH });
}

/** FIN and the text opcode: a whole message in one frame. */
const FIN_TEXT = 0x81;

function webSocketHeaderLength(payloadLength: number): number {
  if (payloadLength < 126) return 2;
  return payloadLength <= 0xffff ? 4 : 10;
}

/** A server's frame header (servers never mask): FIN + text, then the payload length in 7, 7+16 or 7+64 bits. */
function writeWebSocketHeader(frame: Buffer, payloadLength: number): void {
  frame[0] = FIN_TEXT;
  if (payloadLength < 126) {
    frame[1] = payloadLength;
  } else if (payloadLength <= 0xffff) {
    frame[1] = 126;
    frame.writeUInt16BE(payloadLength, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(payloadLength), 2);
  }
}

/** A dispatch frame around already-serialized data (READY, RESUMED, replays: frames sent to one session). */
export function dispatchFrame(type: string, seq: number, dataJson: string): string {
  return `{"op":0,"t":"${type}","s":${seq},"d":${dataJson}}`;
}
