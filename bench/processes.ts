// Child processes for the benches: each server in its own process group (so stopping it stops its children),
// ready when its stdout matches a pattern that captures the port; free ports on 127.0.0.1.
import { spawn, type ChildProcess } from "node:child_process";

export function startProcess(
  command: string,
  commandArgs: string[],
  env: Record<string, string>,
  ready: RegExp,
): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "inherit"],
      detached: true,
    });
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (match) resolve({ child, port: Number(match[1]) });
    });
    child.once("exit", (code) => reject(new Error(`${command} exited with ${code}: ${output}`)));
  });
}

export const stop = (child: ChildProcess) => {
  try {
    process.kill(-child.pid!, "SIGTERM");
  } catch {
    // already gone
  }
};

export async function freePort(): Promise<number> {
  const net = await import("node:net");
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as import("node:net").AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
