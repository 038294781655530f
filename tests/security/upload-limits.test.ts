// Finding 3: one member could freeze the server with a target-users CSV (10 MB: 23.9 s of main-thread time, a 229 MB
// error body, 2.7 GB RSS). Uploads are capped (2.5 MiB, 120,000 lines, 100,000 ids), read in slices that yield to
// the event loop, and a refused file names at most 100 lines. Another client measures GET /users/@me meanwhile.
import fs from "node:fs";
import { Worker } from "node:worker_threads";
import { beforeAll, describe, expect, test } from "vitest";
import { testServerForFile } from "../integration/harness";

const server = testServerForFile();

/**
 * CPU time (ms) of this process's main thread: the one that runs the event loop, and so the server's requests.
 * `process.cpuUsage()` counts every thread (the collector's helpers, libuv's pool), so a busy machine's garbage
 * collection read as a blocked loop. Linux's per-thread counters tick every 10 ms; elsewhere, the whole process.
 */
const MAIN_THREAD_STAT = `/proc/self/task/${process.pid}/stat`;
const TICK_MS = 10;
function mainThreadCpuMs(): number {
  try {
    // utime and stime are fields 14 and 15; the command name (field 2) may hold spaces, so count from its ")".
    const stat = fs.readFileSync(MAIN_THREAD_STAT, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1000;
  }
}

/**
 * While `work` runs, another client calls GET /users/@me in a loop and records its slowest answer; a ticker records
 * the longest stretch of CPU time the main thread spent between two turns of the event loop (the server runs in this
 * process), which is what a request's synchronous work costs everyone else.
 */
async function measureDuring(
  work: () => Promise<unknown>,
): Promise<{ result: unknown; slowestAnswer: number; longestSliceCpu: number }> {
  const token = await server.tokenFor("helper");
  let done = false;
  let slowestAnswer = 0;
  let longestSliceCpu = 0;
  let lastCpu = mainThreadCpuMs();
  const ticker = setInterval(() => {
    const cpu = mainThreadCpuMs();
    longestSliceCpu = Math.max(longestSliceCpu, cpu - lastCpu);
    lastCpu = cpu;
  }, 1);
  const probe = (async () => {
    while (!done) {
      const started = performance.now();
      const response = await fetch(`${server.baseUrl}/api/v10/users/@me`, {
        headers: { authorization: `Bearer ${token}` },
      });
      await response.arrayBuffer();
      slowestAnswer = Math.max(slowestAnswer, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  let result: unknown;
  try {
    result = await work();
  } finally {
    done = true;
    // The request in flight when the work ends counts too: it is the one a blocked loop delays most.
    await probe;
    clearInterval(ticker);
  }
  return { result, slowestAnswer, longestSliceCpu };
}

/**
 * Thresholds. The CPU a single turn of the loop may take: 100 ms, twice the 50 ms goal, since a turn also carries the
 * probe's own work and the collector's pauses. The other client's slowest answer: 1,000 ms. An
 * idle answer takes about 2 ms, but this machine's two cores are shared with other test files and other work (load
 * averages above 10 were seen), which alone stretches answers to hundreds of milliseconds of wall time; the unbounded
 * parse this guards against held the loop for 6 s here (23.9 s in the finding), so both limits still catch it.
 */
const SLICE_CPU_LIMIT_MS = 100;
const ANSWER_LIMIT_MS = 1_000;

function expectResponsive(slowestAnswer: number, longestSliceCpu: number): void {
  expect(longestSliceCpu, "CPU time of the longest turn of the event loop (ms)").toBeLessThan(SLICE_CPU_LIMIT_MS);
  expect(slowestAnswer, "slowest GET /users/@me meanwhile (ms)").toBeLessThan(ANSWER_LIMIT_MS);
}

let invite = "";
const upload = async (csv: string) => {
  const form = new FormData();
  form.append("target_users_file", new Blob([csv], { type: "text/csv" }), "users.csv");
  const response = await server.api("mod", "PUT", `/invites/${invite}/target-users`, form);
  const text = await response.text();
  return { status: response.status, text };
};

/**
 * The same upload sent from another thread, for the measured ones: a client in this thread would put its own work on
 * the server's loop (encoding and streaming a 10 MB form took 130 ms of it at once).
 */
const UPLOADER = `
const { parentPort, workerData } = require("node:worker_threads");
parentPort.once("message", async () => {
  const form = new FormData();
  form.append("target_users_file", new Blob([workerData.csv], { type: "text/csv" }), "users.csv");
  const response = await fetch(workerData.url, {
    method: "PUT",
    headers: { authorization: workerData.authorization },
    body: form,
  });
  parentPort.postMessage({ status: response.status, text: await response.text() });
});
`;
async function uploaderThread(csv: string): Promise<() => Promise<{ status: number; text: string }>> {
  const worker = new Worker(UPLOADER, {
    eval: true,
    workerData: {
      csv,
      url: `${server.baseUrl}/api/v10/invites/${invite}/target-users`,
      authorization: `Bearer ${await server.tokenFor("mod")}`,
    },
  });
  await new Promise((resolve) => worker.once("online", resolve));
  return async () => {
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
    });
    worker.postMessage("send");
    try {
      return await answer;
    } finally {
      await worker.terminate();
    }
  };
}

beforeAll(async () => {
  const response = await server.api("mod", "POST", `/channels/${server.world.channels.general}/invites`, {
    unique: true,
  });
  invite = ((await response.json()) as { code: string }).code;
});

/** `count` lines of 19-digit ids that no user has (each a bad line), plus a header. */
const unknownIds = (count: number) =>
  `user_id\n${Array.from({ length: count }, (_, i) => String(1_200_000_000_000_000_000n + BigInt(i))).join("\n")}\n`;

describe("target-users uploads", () => {
  test("a 10 MB CSV is refused with 413 JSON while other requests stay fast", { timeout: 90_000 }, async () => {
    const send = await uploaderThread("not-an-id\n".repeat(1_000_000)); // 10 MB of bad lines: the finding's file
    const { result, slowestAnswer, longestSliceCpu } = await measureDuring(send);
    const answer = result as { status: number; text: string };
    expectResponsive(slowestAnswer, longestSliceCpu);
    expect(answer.status).toBe(413);
    expect(answer.text.length).toBeLessThan(1_000);
    expect(JSON.parse(answer.text)).toMatchObject({ code: 40005 });
  });

  test(
    "a file just under the size cap full of bad lines gets a bounded error body, the loop never stalls",
    { timeout: 90_000 },
    async () => {
      // 100,000 unknown ids: 2.1 MB, every line checked against the users table.
      const send = await uploaderThread(unknownIds(100_000));
      const { result, slowestAnswer, longestSliceCpu } = await measureDuring(send);
      const answer = result as { status: number; text: string };
      expectResponsive(slowestAnswer, longestSliceCpu);
      expect(answer.status).toBe(400);
      expect(answer.text.length).toBeLessThan(64 * 1024);
      const body = JSON.parse(answer.text) as { code: number; target_users_file: string[]; errors: unknown };
      expect(body.code).toBe(50035);
      expect(body.target_users_file).toHaveLength(101);
      expect(body.target_users_file[0]).toBe("line 2: user 1200000000000000000 does not exist");
      expect(body.target_users_file[100]).toBe("… and 99900 more lines with problems");
    },
  );

  test("more lines or ids than the caps are refused by line number, and nothing changes", async () => {
    const before = await server.api("mod", "GET", `/invites/${invite}/target-users/job-status`).then((r) => r.json());
    const tooManyLines = await upload("\n".repeat(120_001));
    expect(tooManyLines.status).toBe(400);
    expect(JSON.parse(tooManyLines.text)).toMatchObject({
      target_users_file: ["line 120001: the file has more than 120000 lines"],
    });
    const tooManyIds = await upload(unknownIds(100_001));
    expect(tooManyIds.status).toBe(400);
    expect((JSON.parse(tooManyIds.text) as { target_users_file: string[] }).target_users_file).toContain(
      "line 100002: the file has more than 100000 user ids",
    );
    // A long garbage line is quoted shortened, not whole.
    const longLine = await upload(`${"x".repeat(100_000)}\n`);
    expect(longLine.text.length).toBeLessThan(1_000);
    expect(await server.api("mod", "GET", `/invites/${invite}/target-users/job-status`).then((r) => r.json())).toEqual(
      before,
    );
  });

  test("Create Channel Invite with a target_users_file over the cap is refused with 413 JSON", async () => {
    const form = new FormData();
    form.append("payload_json", JSON.stringify({ unique: true }));
    form.append("target_users_file", new Blob(["1\n".repeat(1_500_000)], { type: "text/csv" }), "users.csv");
    const response = await server.api("mod", "POST", `/channels/${server.world.channels.general}/invites`, form);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: 40005 });
  });
});
