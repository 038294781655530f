// The abuse bench's socket holder: a process of its own that opens gateway sockets which never identify and holds
// them, so that their client-side work (10,000 handshakes) does not delay the latency probe in the bench's process.
// Driven over IPC by bench/abuse/run.ts: {cmd: "open", port, addresses, total} answers what the server answered;
// {cmd: "close"} closes every held socket.
import { unidentifiedSockets, type HeldSockets } from "./traffic";

type Command = { cmd: "open"; port: number; addresses: string[]; total: number } | { cmd: "close" };

const held: HeldSockets[] = [];

process.on("message", (message: Command) => {
  if (message.cmd === "open")
    void unidentifiedSockets(message.port, message.addresses, message.total).then(
      (sockets) => {
        held.push(sockets);
        process.send!({ tally: sockets.tally, open: sockets.open });
      },
      (error: Error) => process.send!({ error: error.message }),
    );
  else void Promise.all(held.splice(0).map((sockets) => sockets.close())).then(() => process.send!({ closed: true }));
});
process.send!({ started: true });
