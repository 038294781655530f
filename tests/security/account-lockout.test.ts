// Finding 8 (anyone can lock an account): eight wrong passwords for `owner` from one address, spaced to respect each
// wait, then one every five minutes, kept the right password answering `throttled` from anywhere. Now the brake
// falls on the account at the guessing address: the owner signs in from any other address. An account guessed from
// many addresses still waits, but never for an address where its owner signed in lately. And the owner is told, after
// the next successful sign-in, how many wrong passwords were refused meanwhile (kept in the database until dismissed).
// Against the seeded demo world's users, whose password is "guildhall".
import { beforeAll, describe, expect, test } from "vitest";
import { LoginThrottle } from "@/lib/guild-api/login-throttle";
import { testServerForFile } from "../integration/harness";

const server = testServerForFile();
type Service = typeof import("@/lib/guild-api/services/password-sign-in");
let signIn: Service["signInWithPassword"];
let noticeFor: Service["signInNoticeFor"];
let dismiss: Service["dismissSignInNotice"];
beforeAll(async () => {
  ({
    signInWithPassword: signIn,
    signInNoticeFor: noticeFor,
    dismissSignInNotice: dismiss,
  } = await import("@/lib/guild-api/services/password-sign-in"));
});

/** A throttle of its own per test, on a clock the test moves. */
function throttleAt(start = Date.now()) {
  const clock = { now: start };
  return { clock, throttle: new LoginThrottle(1_000, () => clock.now) };
}

const MINUTE = 60_000;

describe("one address cannot lock an account", () => {
  test("eight wrong passwords spaced to respect each wait, then one every five minutes: the owner still signs in elsewhere", async () => {
    const { clock, throttle } = throttleAt();
    const attacker = { throttle, clientIp: "203.0.113.66" };
    for (let wrong = 0; wrong < 8;) {
      const result = await signIn("owner", `guess-${wrong}`, attacker);
      if (!result.ok && result.reason === "throttled") clock.now += result.retryAfterMs;
      else {
        expect(result).toEqual({ ok: false, reason: "wrong-credentials" });
        wrong++;
      }
    }
    // The guessing address itself waits, even with the right password (the brake still stops guessing from it).
    expect(await signIn("owner", "guildhall", attacker)).toMatchObject({ ok: false, reason: "throttled" });
    // The owner, from their own address and from one never seen before, is let in.
    const ownerId = BigInt(server.world.users.owner);
    expect(await signIn("owner", "guildhall", { throttle, clientIp: "198.51.100.10" })).toEqual({
      ok: true,
      userId: ownerId,
    });
    for (let hour = 0; hour < 12; hour++) {
      clock.now += 5 * MINUTE;
      await signIn("owner", `slow-guess-${hour}`, attacker);
    }
    expect(await signIn("owner", "guildhall", { throttle, clientIp: "198.51.100.11" })).toMatchObject({ ok: true });
    expect(await signIn("owner", "guildhall", { throttle, clientIp: "198.51.100.10" })).toMatchObject({ ok: true });
  });

  test("an account guessed from many addresses waits for new addresses, never for one where its owner signed in lately", async () => {
    const { clock, throttle } = throttleAt();
    const home = { throttle, clientIp: "198.51.100.20" };
    expect(await signIn("admin", "guildhall", home)).toMatchObject({ ok: true });
    clock.now += 24 * 60 * MINUTE;
    // One wrong guess from each of many addresses: no address is held back on its own...
    for (let i = 1; i <= 8; i++) await signIn("admin", `spray-${i}`, { throttle, clientIp: `203.0.113.${i}` });
    // ...but a new address now waits, whatever the password...
    const stranger = await signIn("admin", "guildhall", { throttle, clientIp: "198.51.100.99" });
    expect(stranger).toMatchObject({ ok: false, reason: "throttled" });
    expect((stranger as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(0);
    // ...while the address the owner signed in from yesterday is let in.
    expect(await signIn("admin", "guildhall", home)).toMatchObject({ ok: true });
  });
});

describe("the owner is told about refused guesses", () => {
  test("wrong passwords since the last sign-in are told after the next successful sign-in, stored until dismissed", async () => {
    const { throttle } = throttleAt();
    const ownerId = BigInt(server.world.users.mod);
    for (let i = 0; i < 3; i++) await signIn("mod", `wrong-${i}`, { throttle, clientIp: "203.0.113.77" });
    // Nothing to tell before the owner has signed in again.
    expect(await noticeFor(ownerId)).toBeNull();
    expect(await signIn("mod", "guildhall", { throttle, clientIp: "198.51.100.30" })).toMatchObject({ ok: true });

    const notice = await noticeFor(ownerId);
    expect(notice).toMatchObject({ count: 3 });
    expect(notice!.message).toMatch(/^3 sign-in attempts with a wrong password were refused since your last sign-in/);
    // Kept server-side: a second page view (another process, another request) shows it too.
    const { sql } = await import("@/lib/guild-api/store/db");
    expect(await sql.value("SELECT notice_count FROM sign_in_notices WHERE user_id = ?", ownerId)).toBe(3n);
    expect(await noticeFor(ownerId)).toMatchObject({ count: 3 });

    // Not dismissed yet, one more wrong password and a sign-in: the notice adds it.
    await signIn("mod", "wrong-again", { throttle, clientIp: "203.0.113.77" });
    await signIn("mod", "guildhall", { throttle, clientIp: "198.51.100.30" });
    expect(await noticeFor(ownerId)).toMatchObject({ count: 4 });

    await dismiss(ownerId);
    expect(await noticeFor(ownerId)).toBeNull();
    // A sign-in with no wrong password before it has nothing to tell.
    await signIn("mod", "guildhall", { throttle, clientIp: "198.51.100.30" });
    expect(await noticeFor(ownerId)).toBeNull();
  });

  test("one wrong password reads in the singular; unknown usernames and refused attempts record nothing", async () => {
    const { throttle } = throttleAt();
    const helperId = BigInt(server.world.users.helper);
    await signIn("helper", "wrong", { throttle, clientIp: "203.0.113.78" });
    await signIn("nobody-at-all", "wrong", { throttle, clientIp: "203.0.113.78" });
    await signIn("helper", "guildhall", { throttle, clientIp: "198.51.100.31" });
    expect((await noticeFor(helperId))!.message).toMatch(
      /^1 sign-in attempt with a wrong password was refused since your last sign-in/,
    );
    await dismiss(helperId);

    // Attempts the brake refused were never checked: they are not told as wrong passwords.
    for (let i = 0; i < 12; i++) await signIn("helper", `burst-${i}`, { throttle, clientIp: "203.0.113.79" });
    await signIn("helper", "guildhall", { throttle, clientIp: "198.51.100.31" });
    expect(await noticeFor(helperId)).toMatchObject({ count: 5 });
  });
});
