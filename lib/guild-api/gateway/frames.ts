// A dispatch serialized once for every recipient. Sessions number their dispatches themselves, so the frames of one
// event differ only in `s`: the text before and after it is encoded to bytes once, and each recipient's frame is
// those bytes around its own sequence number (two copies, no JSON building or UTF-8 encoding per session).
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
    const digits = String(seq);
    const frame = Buffer.allocUnsafe(this.head.length + digits.length + this.tail.length);
    this.head.copy(frame, 0);
    frame.write(digits, this.head.length, "latin1");
    this.tail.copy(frame, this.head.length + digits.length);
    return frame;
  }
}

/** A dispatch frame around already-serialized data (READY, RESUMED, replays: frames sent to one session). */
export function dispatchFrame(type: string, seq: number, dataJson: string): string {
  return `{"op":0,"t":"${type}","s":${seq},"d":${dataJson}}`;
}
