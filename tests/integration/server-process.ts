// A whole Guildhall process (server.ts, the guild API only) on a free port, for tests that need more than the
// in-process harness server: several instances on one database (SQLite or PostgreSQL), a server started on a
// restored backup.
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Sends `signal` to the server and any process it started, as an operator's kill (or kill -9) would. */
  signal(signal: NodeJS.Signals): void;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  stop(): Promise<void>;
}

const ROOT = new URL("../..", import.meta.url).pathname;
const READY_TIMEOUT_MS = 30_000;

export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * `database`: a SQLite file's path, or a postgres:// URL. `nodeArgs`: what node runs (default server.ts through tsx;
 * tests/integration/dashboard/scheduler-server.ts is server.ts with the moderation scheduler).
 */
export async function startServerProcess(
  database: string,
  env: Record<string, string> = {},
  nodeArgs: readonly string[] = ["--import", "tsx", "server.ts"],
): Promise<ServerProcess> {
  const port = await freePort();
  // Node itself with tsx's loader, as `npm start` and the image run it: tsx's CLI would put a process of its own in
  // front, which relays signals with a 30 ms deadline and kills a server that is still shutting down gracefully.
  const child = spawn(process.execPath, [...nodeArgs], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: /^postgres(ql)?:\/\//.test(database) ? database : `file:${database}`,
      PORT: String(port),
      HOST: "127.0.0.1",
      GUILDHALL_API_ONLY: "1",
      // Its "ready" line is at info.
      LOG_LEVEL: "info",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, so signal() reaches the server behind tsx.
    detached: true,
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server.ts not ready in time:\n${output}`)), READY_TIMEOUT_MS);
    const check = () => {
      if (!output.includes("Guildhall ready on")) return;
      clearTimeout(timer);
      resolve();
    };
    child.stdout.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server.ts exited with ${code} before it was ready:\n${output}`));
    });
  });

  return {
    url: `http://127.0.0.1:${port}`,
    child,
    output: () => output,
    signal(signal) {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // already gone
      }
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
