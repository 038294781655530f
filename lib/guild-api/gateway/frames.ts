// A dispatch serialized once for every recipient. Sessions number their dispatches themselves, so the frames of one
// event differ only in `s`: the text before and after it is encoded to bytes once, and each recipient's frame is
// those bytes around its own sequence number (two copies, no JSON building or UTF-8 encoding per session).
// wsFrame() also puts the WebSocket frame header in front, so an uncompressed connection writes each recipient's
// dispatch as one buffer straight to its socket (see GatewayConnection.sendDispatch).
export class SerializedDispatch {
  private readonly head: Buffer;
  private readonly tail: Buffer;

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
