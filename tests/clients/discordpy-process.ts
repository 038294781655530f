// Runs a discord.py script from tests/clients/discordpy/ against a harness server, the way the two discord.py test
// files need it: Debian's interpreter, the server's address, bot token and demo world in the environment, and every
// JSON line the script prints handed to the test.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import fs from "node:fs";
import type { TestServer } from "../integration/harness";

const PYTHON = "/usr/bin/python3"; // not a pyenv python3 that may come first on PATH: it lacks python3-discord

export interface DiscordPyProcess {
  child: ChildProcessWithoutNullStreams;
  /** Everything the script wrote to stderr so far. */
  stderr(): string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

/** Starts `script` (a file name in tests/clients/discordpy/); `onLine` receives each JSON line as it is printed. */
export function startDiscordPy(
  script: string,
  server: TestServer,
  onLine: (line: Record<string, unknown>) => void,
): DiscordPyProcess {
  if (!fs.existsSync(PYTHON)) throw new Error(`${PYTHON} is missing: apt-get install -y python3-discord`);
  // Asynchronous on purpose: the harness server answers from this same process.
  const child = spawn(PYTHON, [new URL(`./discordpy/${script}`, import.meta.url).pathname], {
    env: {
      ...process.env,
      // Debian's interpreter with Debian's packages only: no pyenv or virtualenv paths leaking in.
      PYTHONPATH: "",
      PYTHONHOME: undefined,
      PYTHONDONTWRITEBYTECODE: "1",
      GUILDHALL_URL: server.baseUrl,
      GUILDHALL_BOT_TOKEN: server.botToken,
      GUILDHALL_WORLD: JSON.stringify(server.world),
    },
  });
  let pending = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    pending += chunk.toString("utf8");
    const complete = pending.split("\n");
    pending = complete.pop() ?? "";
    for (const text of complete) if (text.startsWith("{")) onLine(JSON.parse(text) as Record<string, unknown>);
  });
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", resolve);
  });
  return { child, stderr: () => stderr, exited };
}
