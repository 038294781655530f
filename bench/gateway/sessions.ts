// The gateway bench's client process: holds thousands of raw gateway sessions (so their memory and CPU are not the
// server's), heartbeats each at HELLO's interval from a random first beat as real clients do, and on request records
// when each session receives a given dispatch. Driven over IPC by bench/gateway/run.ts.
import zlib from "node:zlib";
import WebSocket from "ws";
import { yieldCoresIfAsked } from "../client-niceness";

interface OpenCommand {
  cmd: "open";
  url: string;
  token: string;
  intents: number;
  count: number;
  /** Sessions connecting at once. */
  parallel: number;
  /** Ask for compress=zlib-stream, as discord.py does (each session inflates its own stream). */
  compress?: boolean;
}
interface WatchCommand {
  cmd: "watch";
  /** A string only the awaited dispatch contains (matched on the raw frame, no parsing on the hot path). */
  marker: string;
  /** How many sessions of the most recently opened batch must see it. */
  sessions: number;
}
type Command = OpenCommand | WatchCommand | { cmd: "close" };

interface Session {
  socket: WebSocket;
  heartbeat: NodeJS.Timeout | null;
  seq: number | null;
}

const sessions: Session[] = [];
let watch: { marker: string; times: number[]; expected: number } | null = null;

const send = (message: unknown) => process.send!(message);

function openOne(command: OpenCommand): Promise<void> {
  return new Promise((resolve, reject) => {
    const query = command.compress ? "?v=10&encoding=json&compress=zlib-stream" : "?v=10&encoding=json";
    const socket = new WebSocket(`${command.url}${query}`, { perMessageDeflate: false });
    const session: Session = { socket, heartbeat: null, seq: null };
    let ready = false;
    // Each message ends in a sync flush, so the inflater gives each one out whole as it arrives.
    const inflate = command.compress ? zlib.createInflate() : null;
    inflate?.on("data", (chunk: Buffer) => receive(chunk.toString("utf8")));
    socket.on("message", (data: Buffer) => (inflate ? inflate.write(data) : receive(data.toString("utf8"))));
    const receive = (text: string) => {
      if (watch && text.includes(watch.marker)) {
        watch.times.push(performance.timeOrigin + performance.now());
        if (watch.times.length === watch.expected) send({ watched: watch.times });
      }
      const seq = /"s":(\d+)/.exec(text);
      if (seq) session.seq = Number(seq[1]);
      if (!ready && text.startsWith('{"op":10')) {
        const interval = (JSON.parse(text) as { d: { heartbeat_interval: number } }).d.heartbeat_interval;
        const beat = () => socket.send(JSON.stringify({ op: 1, d: session.seq }));
        session.heartbeat = setTimeout(() => {
          beat();
          session.heartbeat = setInterval(beat, interval);
        }, Math.random() * interval);
        socket.send(JSON.stringify({ op: 2, d: { token: command.token, intents: command.intents, properties: {} } }));
      } else if (!ready && text.includes('"t":"READY"')) {
        ready = true;
        sessions.push(session);
        resolve();
      }
    };
    socket.on("close", (code) => {
      if (session.heartbeat) clearTimeout(session.heartbeat);
      inflate?.close();
      if (!ready) reject(new Error(`session closed before READY (${code})`));
    });
    socket.on("error", reject);
  });
}

async function open(command: OpenCommand): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < command.count) {
      next++;
      await openOne(command);
    }
  };
  await Promise.all(Array.from({ length: command.parallel }, worker));
}

process.on("message", (message: Command) => {
  if (message.cmd === "open")
    open(message).then(
      () => send({ opened: sessions.length }),
      (error: Error) => send({ error: error.message }),
    );
  else if (message.cmd === "watch") {
    watch = { marker: message.marker, times: [], expected: message.sessions };
    send({ watching: true });
  } else {
    for (const session of sessions) {
      if (session.heartbeat) clearTimeout(session.heartbeat);
      session.socket.terminate();
    }
    sessions.length = 0;
    send({ closed: true });
  }
});
// The soak asks its clients to yield the cores to the server they measure (bench/client-niceness.ts).
yieldCoresIfAsked();
send({ started: true });
