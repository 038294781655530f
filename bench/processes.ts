// Child processes for the benches: each server in its own process group (so stopping it stops its children),
// ready when its stdout matches a pattern that captures the port; free ports on 127.0.0.1; helper processes asked
// over IPC.
import { fork, spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { readMachineCpu } from "./machine-cpu";

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
    let started = false;
    // Read until the ready line, then only drained: a server logs every change at info (10,000 unbans are 10,000
    // lines), and scanning all it ever wrote on every chunk fell behind it, filling the pipe until the server's
    // synchronous log writes (lib/server/logger.ts) waited on this process.
    child.stdout!.on("data", (chunk: Buffer) => {
      if (started) return;
      output += chunk.toString();
      const match = ready.exec(output);
      if (!match) return;
      started = true;
      output = "";
      resolve({ child, port: Number(match[1]) });
    });
    child.once("exit", (code) => reject(new Error(`${command} exited with ${code}: ${output}`)));
  });
}

/**
 * CPU time (user + system, ms) used so far by the processes of the group `child` leads (startProcess makes each
 * server a group: tsx and the node process it starts). From /proc: Linux only, as the benches are.
 */
export function groupCpuMs(child: ChildProcess): number {
  const { processes } = readMachineCpu(({ pgrp }) => (pgrp === child.pid ? "group" : undefined));
  return [...processes.values()].reduce((sum, { ms }) => sum + ms, 0);
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

/**
 * A bench helper process (a script under bench/) forked with an IPC channel, and a way to ask it something and await
 * its answer: the gateway bench's sessions process, the abuse bench's socket holder.
 */
export async function helperProcess(script: string, env: Record<string, string> = {}) {
  const child: ChildProcess = fork(path.resolve(script), [], {
    env: { ...process.env, ...env },
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  let waiting: ((message: Record<string, unknown>) => void) | null = null;
  child.on("message", (message: Record<string, unknown>) => waiting?.(message));
  // A helper that dies (at start, or later) fails the question waiting on it, rather than leave the bench hanging.
  child.once("exit", (code) => waiting?.({ error: `${script} exited with ${code}` }));
  const ask = (command: unknown) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      waiting = (message) => (message.error ? reject(new Error(String(message.error))) : resolve(message));
      if (command) child.send(command as object);
    });
  await ask(null);
  return { child, ask };
}
