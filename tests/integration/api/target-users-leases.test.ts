// Target-user jobs across instances: one instance works on a job at a time, holding its lease and renewing it with
// every chunk. A job whose lease another instance holds is left alone; once that lease runs out (its instance died),
// this one takes the job over from its last recorded chunk; a chunk whose lease was taken over writes nothing. The
// other instance is played by rows written directly (its lease), on either database engine.
import { expect, test } from "vitest";
import { Routes } from "discord-api-types/v10";
import { sql } from "@/lib/guild-api/store/db";
import { testServerForFile } from "../harness";

const server = testServerForFile();

interface JobRow {
  status: bigint;
  processed_users: bigint;
  lease_owner: string | null;
  lease_until: bigint | null;
}

let nextUser = 6_100_000_000n;
async function strangers(count: number): Promise<bigint[]> {
  const ids = Array.from({ length: count }, () => nextUser++);
  for (const id of ids)
    await sql.run("INSERT INTO users (id, username, created_at) VALUES (?, ?, 0)", id, `lease_stranger_${id}`);
  return ids;
}

async function newInvite(): Promise<string> {
  const invite = (await server
    .rest("mod")
    .post(Routes.channelInvites(server.world.channels.general), { body: { unique: true } })) as { code: string };
  return invite.code;
}

/** A job as an instance that died after writing its first id left it: PROCESSING, one of three processed. */
async function jobLeftBy(owner: string, leaseUntil: number): Promise<{ code: string; users: bigint[] }> {
  const code = await newInvite();
  const users = await strangers(3);
  await sql.run("INSERT INTO invite_target_users (invite_code, user_id) VALUES (?, ?)", code, users[0]);
  await sql.run(
    `INSERT INTO invite_target_users_jobs (invite_code, status, total_users, processed_users, pending_user_ids,
       created_at, lease_owner, lease_until) VALUES (?, 1, 3, 1, ?, ?, ?, ?)`,
    code,
    `[${users.join(",")}]`,
    BigInt(Date.now()),
    owner,
    BigInt(leaseUntil),
  );
  return { code, users };
}

const job = async (code: string) =>
  (await sql.get(
    "SELECT status, processed_users, lease_owner, lease_until FROM invite_target_users_jobs WHERE invite_code = ?",
    code,
  )) as JobRow;
const targetCount = async (code: string) =>
  Number(await sql.value<bigint>("SELECT COUNT(*) FROM invite_target_users WHERE invite_code = ?", code));
const jobStatus = async (code: string) =>
  (await (await server.api("mod", "GET", `/invites/${code}/target-users/job-status`)).json()) as {
    status: number;
    processed_users: number;
  };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("a job another instance holds a live lease on is left alone; once the lease runs out it is taken over and finished", async () => {
  const { resumeTargetUserJobs } = await import("@/lib/guild-api/services/target-users");
  const { code, users } = await jobLeftBy("other-instance", Date.now() + 60_000);
  expect(await resumeTargetUserJobs()).toBe(0);
  // Reading its status does not take it over either.
  expect(await jobStatus(code)).toMatchObject({ status: 1, processed_users: 1 });
  await sleep(100);
  expect(await job(code)).toMatchObject({ status: 1n, processed_users: 1n, lease_owner: "other-instance" });
  expect(await targetCount(code)).toBe(1);

  // The other instance died: its lease runs out, and this one goes on from the recorded chunk (unless it is shutting
  // down itself: a job it claimed then would wait out its lease).
  await sql.run(
    "UPDATE invite_target_users_jobs SET lease_until = ? WHERE invite_code = ?",
    BigInt(Date.now() - 1),
    code,
  );
  expect(await resumeTargetUserJobs(() => true)).toBe(0);
  expect(await job(code)).toMatchObject({ lease_owner: "other-instance" });
  expect(await resumeTargetUserJobs()).toBe(1);
  for (let i = 0; i < 200 && (await job(code)).status !== 2n; i++) await sleep(10);
  const finished = await job(code);
  expect(finished).toMatchObject({ status: 2n, processed_users: 3n });
  expect(finished.lease_owner).not.toBe("other-instance");
  expect(
    (
      await sql.values<bigint>("SELECT user_id FROM invite_target_users WHERE invite_code = ? ORDER BY user_id", code)
    ).map(String),
  ).toEqual(users.map(String));
});

test("a chunk whose lease another instance took over writes nothing: this instance stops and leaves the job to it", async () => {
  const { resumeTargetUserJobs } = await import("@/lib/guild-api/services/target-users");
  const { code } = await jobLeftBy("dead-instance", Date.now() - 1);
  expect(await resumeTargetUserJobs()).toBe(1);
  // Before this instance's first chunk runs, another instance takes the job (this one looked stalled to it).
  await sql.run(
    "UPDATE invite_target_users_jobs SET lease_owner = 'thief', lease_until = ? WHERE invite_code = ?",
    BigInt(Date.now() + 60_000),
    code,
  );
  await sleep(200);
  expect(await job(code)).toMatchObject({ status: 1n, processed_users: 1n, lease_owner: "thief" });
  expect(await targetCount(code)).toBe(1);
});

test("an upload's job is leased to the instance that runs it, for a bounded time", async () => {
  const users = await strangers(2);
  const code = await newInvite();
  const form = new FormData();
  form.append("target_users_file", new Blob([`${users.join("\n")}\n`], { type: "text/csv" }), "users.csv");
  const before = Date.now();
  expect((await server.api("mod", "PUT", `/invites/${code}/target-users`, form)).status).toBe(204);
  for (let i = 0; i < 200 && (await job(code)).status !== 2n; i++) await sleep(10);
  const done = await job(code);
  expect(done.status).toBe(2n);
  expect(done.lease_owner).toMatch(/:\d+:/);
  expect(Number(done.lease_until)).toBeGreaterThan(before);
  expect(Number(done.lease_until)).toBeLessThanOrEqual(Date.now() + 15_000);
});
